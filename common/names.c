/* SPDX-License-Identifier: GPL-2.0-only */
/* names.c - names for numbers the kernel records
 *
 * Kernel addresses become symbols from /proc/kallsyms, read once into the
 * session's libtraceevent handle; errno values become their symbolic names
 * ("ENOENT"), as the tools print a call's error; signal numbers their
 * names ("SIGTERM"), from this architecture's <signal.h>; x86-64 system call
 * numbers their names ("read"), from a table made at build time from the
 * build host's <asm/unistd_64.h> (Makefile: FTT_SYSNAMES), so no header is
 * needed where the tools run. Other architectures' numbers are not named.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "names.h"
#include "session.h"

/* names_kallsyms - give libtraceevent the kernel's symbol table (once) */
void names_kallsyms(struct session *s)
{
	static struct tep_handle *loaded;	/* the tep that has the symbols */
	char *buf = NULL;
	size_t cap = 0, len = 0, n;
	FILE *f;

	if (loaded == s->tep)
		return;
	loaded = s->tep;
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return;
	do {
		if (cap - len < 65536) {
			char *nb = realloc(buf, cap + 1048576);

			if (!nb)
				break;
			buf = nb;
			cap += 1048576;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	if (buf) {
		buf[len] = '\0';
		tep_parse_kallsyms(s->tep, buf);
		free(buf);
	}
}

/* names_ksym - kernel symbol for an address ("sym+0xoff"), loading kallsyms once */
const char *names_ksym(struct session *s, unsigned long long addr, char *buf, size_t len)
{
	const char *name = names_kfunc(s, addr);
	unsigned long long start;

	if (!name) {
		snprintf(buf, len, "0x%llx", addr);
		return buf;
	}
	start = tep_find_function_address(s->tep, addr);
	if (addr > start)
		snprintf(buf, len, "%s+0x%llx", name, addr - start);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

/* names_kfunc - name of the kernel function holding addr (no offset, as "%ps"), or NULL */
const char *names_kfunc(struct session *s, unsigned long long addr)
{
	names_kallsyms(s);
	return tep_find_function(s->tep, addr);
}

/*
 * names_errno - symbolic name of an errno value ("ENOENT"), or "E<number>":
 * every name Linux's <errno.h> gives, by this architecture's numbers (the
 * first of two names for one number: EAGAIN, not EWOULDBLOCK), and the
 * kernel's own restart codes a system call's exit event can record
 */
const char *names_errno(int err, char *buf, size_t len)
{
	static const struct { int err; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" },
		{ EINTR, "EINTR" }, { EIO, "EIO" }, { ENXIO, "ENXIO" },
		{ E2BIG, "E2BIG" }, { ENOEXEC, "ENOEXEC" }, { EBADF, "EBADF" },
		{ ECHILD, "ECHILD" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { ENOTBLK, "ENOTBLK" },
		{ EBUSY, "EBUSY" }, { EEXIST, "EEXIST" }, { EXDEV, "EXDEV" },
		{ ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" },
		{ EINVAL, "EINVAL" }, { ENFILE, "ENFILE" }, { EMFILE, "EMFILE" },
		{ ENOTTY, "ENOTTY" }, { ETXTBSY, "ETXTBSY" }, { EFBIG, "EFBIG" },
		{ ENOSPC, "ENOSPC" }, { ESPIPE, "ESPIPE" }, { EROFS, "EROFS" },
		{ EMLINK, "EMLINK" }, { EPIPE, "EPIPE" }, { EDOM, "EDOM" },
		{ ERANGE, "ERANGE" }, { EDEADLK, "EDEADLK" }, { ENAMETOOLONG, "ENAMETOOLONG" },
		{ ENOLCK, "ENOLCK" }, { ENOSYS, "ENOSYS" }, { ENOTEMPTY, "ENOTEMPTY" },
		{ ELOOP, "ELOOP" }, { ENOMSG, "ENOMSG" }, { EIDRM, "EIDRM" },
		{ ECHRNG, "ECHRNG" }, { EL2NSYNC, "EL2NSYNC" }, { EL3HLT, "EL3HLT" },
		{ EL3RST, "EL3RST" }, { ELNRNG, "ELNRNG" }, { EUNATCH, "EUNATCH" },
		{ ENOCSI, "ENOCSI" }, { EL2HLT, "EL2HLT" }, { EBADE, "EBADE" },
		{ EBADR, "EBADR" }, { EXFULL, "EXFULL" }, { ENOANO, "ENOANO" },
		{ EBADRQC, "EBADRQC" }, { EBADSLT, "EBADSLT" }, { EBFONT, "EBFONT" },
		{ ENOSTR, "ENOSTR" }, { ENODATA, "ENODATA" }, { ETIME, "ETIME" },
		{ ENOSR, "ENOSR" }, { ENONET, "ENONET" }, { ENOPKG, "ENOPKG" },
		{ EREMOTE, "EREMOTE" }, { ENOLINK, "ENOLINK" }, { EADV, "EADV" },
		{ ESRMNT, "ESRMNT" }, { ECOMM, "ECOMM" }, { EPROTO, "EPROTO" },
		{ EMULTIHOP, "EMULTIHOP" }, { EDOTDOT, "EDOTDOT" }, { EBADMSG, "EBADMSG" },
		{ EOVERFLOW, "EOVERFLOW" }, { ENOTUNIQ, "ENOTUNIQ" }, { EBADFD, "EBADFD" },
		{ EREMCHG, "EREMCHG" }, { ELIBACC, "ELIBACC" }, { ELIBBAD, "ELIBBAD" },
		{ ELIBSCN, "ELIBSCN" }, { ELIBMAX, "ELIBMAX" }, { ELIBEXEC, "ELIBEXEC" },
		{ EILSEQ, "EILSEQ" }, { ERESTART, "ERESTART" }, { ESTRPIPE, "ESTRPIPE" },
		{ EUSERS, "EUSERS" }, { ENOTSOCK, "ENOTSOCK" }, { EDESTADDRREQ, "EDESTADDRREQ" },
		{ EMSGSIZE, "EMSGSIZE" }, { EPROTOTYPE, "EPROTOTYPE" },
		{ ENOPROTOOPT, "ENOPROTOOPT" }, { EPROTONOSUPPORT, "EPROTONOSUPPORT" },
		{ ESOCKTNOSUPPORT, "ESOCKTNOSUPPORT" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ EPFNOSUPPORT, "EPFNOSUPPORT" }, { EAFNOSUPPORT, "EAFNOSUPPORT" },
		{ EADDRINUSE, "EADDRINUSE" }, { EADDRNOTAVAIL, "EADDRNOTAVAIL" },
		{ ENETDOWN, "ENETDOWN" }, { ENETUNREACH, "ENETUNREACH" },
		{ ENETRESET, "ENETRESET" }, { ECONNABORTED, "ECONNABORTED" },
		{ ECONNRESET, "ECONNRESET" }, { ENOBUFS, "ENOBUFS" }, { EISCONN, "EISCONN" },
		{ ENOTCONN, "ENOTCONN" }, { ESHUTDOWN, "ESHUTDOWN" },
		{ ETOOMANYREFS, "ETOOMANYREFS" }, { ETIMEDOUT, "ETIMEDOUT" },
		{ ECONNREFUSED, "ECONNREFUSED" }, { EHOSTDOWN, "EHOSTDOWN" },
		{ EHOSTUNREACH, "EHOSTUNREACH" }, { EALREADY, "EALREADY" },
		{ EINPROGRESS, "EINPROGRESS" }, { ESTALE, "ESTALE" }, { EUCLEAN, "EUCLEAN" },
		{ ENOTNAM, "ENOTNAM" }, { ENAVAIL, "ENAVAIL" }, { EISNAM, "EISNAM" },
		{ EREMOTEIO, "EREMOTEIO" }, { EDQUOT, "EDQUOT" }, { ENOMEDIUM, "ENOMEDIUM" },
		{ EMEDIUMTYPE, "EMEDIUMTYPE" }, { ECANCELED, "ECANCELED" },
		{ ENOKEY, "ENOKEY" }, { EKEYEXPIRED, "EKEYEXPIRED" },
		{ EKEYREVOKED, "EKEYREVOKED" }, { EKEYREJECTED, "EKEYREJECTED" },
		{ EOWNERDEAD, "EOWNERDEAD" }, { ENOTRECOVERABLE, "ENOTRECOVERABLE" },
		{ ERFKILL, "ERFKILL" }, { EHWPOISON, "EHWPOISON" },
		/* the kernel's own (include/linux/errno.h), never seen by a process,
		 * which gets EINTR or its call restarted instead */
		{ 512, "ERESTARTSYS" }, { 513, "ERESTARTNOINTR" }, { 514, "ERESTARTNOHAND" },
		{ 515, "ENOIOCTLCMD" }, { 516, "ERESTART_RESTARTBLOCK" },
	};
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	snprintf(buf, len, "E%d", err);
	return buf;
}

#if defined(__x86_64__) && defined(FTT_SYSNAMES)
/* the x86-64 numbers' names, from the build host's <asm/unistd_64.h> */
static const char *const sysnames[] = {
#include FTT_SYSNAMES
};
#endif

/* names_syscall - see names.h */
const char *names_syscall(long nr)
{
#if defined(__x86_64__) && defined(FTT_SYSNAMES)
	if (nr >= 0 && (unsigned long)nr < sizeof(sysnames) / sizeof(sysnames[0]))
		return sysnames[nr];
#else
	(void)nr;
#endif
	return NULL;
}

/* names_signal - the name of a standard signal ("SIGTERM"), or NULL */
const char *names_signal(int sig)
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" }, { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" },
		{ SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
#ifdef SIGSTKFLT
		{ SIGSTKFLT, "SIGSTKFLT" },
#endif
		{ SIGCHLD, "SIGCHLD" }, { SIGCONT, "SIGCONT" }, { SIGSTOP, "SIGSTOP" },
		{ SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" }, { SIGTTOU, "SIGTTOU" },
		{ SIGURG, "SIGURG" }, { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
		{ SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" }, { SIGWINCH, "SIGWINCH" },
		{ SIGIO, "SIGIO" },
#ifdef SIGPWR
		{ SIGPWR, "SIGPWR" },
#endif
		{ SIGSYS, "SIGSYS" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	return NULL;
}

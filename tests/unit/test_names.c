/* SPDX-License-Identifier: GPL-2.0-only */
/* test_names - signal, errno and system call names: every standard signal, none for 0
 * and the real-time ones; every errno; x86-64 system calls by number */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "names.h"
#include "unit.h"

int main(void)
{
	/* the 19 the bash killsnoop named, by this architecture's numbers */
	static const struct { int sig; const char *name; } orig[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" }, { SIGABRT, "SIGABRT" }, { SIGFPE, "SIGFPE" },
		{ SIGKILL, "SIGKILL" }, { SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" },
		{ SIGUSR2, "SIGUSR2" }, { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" },
		{ SIGTERM, "SIGTERM" }, { SIGCHLD, "SIGCHLD" }, { SIGCONT, "SIGCONT" },
		{ SIGSTOP, "SIGSTOP" }, { SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" },
		{ SIGTTOU, "SIGTTOU" },
	};
	char buf[16];
	const char *n;
	size_t i;
	int s, named = 0;

	for (i = 0; i < sizeof(orig) / sizeof(*orig); i++) {
		n = names_signal(orig[i].sig);
		CHECK("signal_original", n && !strcmp(n, orig[i].name));
	}
	for (s = 1; s < 32; s++) {
		n = names_signal(s);
		if (n && !strncmp(n, "SIG", 3) && strlen(n) > 3)
			named++;
	}
	/* every standard signal this architecture has (SIGSTKFLT, SIGPWR: most) */
	CHECK("signal_all_standard", named >= 29 && named <= 31);
	CHECK("signal_zero", names_signal(0) == NULL);
	CHECK("signal_rt", names_signal(32) == NULL && names_signal(34) == NULL &&
	      names_signal(64) == NULL && names_signal(-1) == NULL);
	CHECK("signal_sigio", !strcmp(names_signal(SIGIO), "SIGIO"));
	CHECK("errno_esrch", !strcmp(names_errno(-ESRCH, buf, sizeof(buf)), "ESRCH"));
	CHECK("errno_eperm", !strcmp(names_errno(EPERM, buf, sizeof(buf)), "EPERM"));
	CHECK("errno_unknown", !strcmp(names_errno(-4000, buf, sizeof(buf)), "E4000"));
	CHECK("errno_etimedout", !strcmp(names_errno(-ETIMEDOUT, buf, sizeof(buf)), "ETIMEDOUT"));
	CHECK("errno_eagain_first", !strcmp(names_errno(EWOULDBLOCK, buf, sizeof(buf)), "EAGAIN"));
	CHECK("errno_restartsys", !strcmp(names_errno(-512, buf, sizeof(buf)), "ERESTARTSYS"));
	/* every number from 1 to 133 has a name (x86-64, generic numbering) */
	for (s = 1, named = 0; s <= 133; s++) {
		char num[16];

		snprintf(num, sizeof(num), "E%d", s);
		if (strcmp(names_errno(s, buf, sizeof(buf)), num))
			named++;
	}
#if defined(__x86_64__)
	CHECK("errno_all_named", named == 133 - 2);	/* 41 and 58 are unused */
	/* system calls: the build host's table */
	CHECK("syscall_read", names_syscall(SYS_read) && !strcmp(names_syscall(SYS_read), "read"));
	CHECK("syscall_getppid", names_syscall(SYS_getppid) &&
	      !strcmp(names_syscall(SYS_getppid), "getppid"));
	CHECK("syscall_exit_group", names_syscall(SYS_exit_group) &&
	      !strcmp(names_syscall(SYS_exit_group), "exit_group"));
	CHECK("syscall_faccessat", names_syscall(SYS_faccessat) &&
	      !strcmp(names_syscall(SYS_faccessat), "faccessat"));
#endif
	CHECK("syscall_negative", names_syscall(-1) == NULL);
	CHECK("syscall_unknown", names_syscall(100000) == NULL);
	return unit_done("test_names");
}

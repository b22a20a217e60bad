/* SPDX-License-Identifier: GPL-2.0-only */
/* test_capture - the capture ladder without a kernel: the order the rungs are
 * tried in for opens and execs, which rungs a kernel's features allow, the
 * probe definitions each rung makes, how the walk goes on when a rung cannot
 * be checked, and the proof's comparison of what a rung took with what the
 * child passed. ladder.c is built in, with what it asks of the kernel (its
 * features, its events, the probes it makes) answered by the tables below;
 * the pairing it proves a rung through (capture.c) comes from libcommon.a. */
#include <fcntl.h>
#include <stdarg.h>
#include <sys/utsname.h>

#include "capture.h"
#include "elfsym.h"
#include "kernel.h"
#include "ladder.h"
#include "libcs.h"
#include "msg.h"
#include "probes.h"
#include "session.h"
#include "unit.h"

static char dir[128];
static char release[65];		/* uname's release, as kernel_lacks names it */

/* ---- the kernel the test makes up ---- */

static int offers[KF_NFEATURES];	/* kernel_has answers */
static const char *events = "";		/* "SYS:EVENT ..." that exist */
static const char *refused = "";	/* " NAME " or " WHERE " of the probes the kernel refuses */
static char defs[8192];			/* the probes defined, one line each */

/* the symbols of the C library handed to the uprobe rung: name, file offset */
struct sym {
	const char *sym;
	unsigned long long off;
};
static const struct sym *syms;
static int nsyms;

static int fake_kernel_has(enum kernel_feature f)
{
	return f >= 0 && f < KF_NFEATURES && offers[f];
}

static int fake_event_exists(const char *sys, const char *ev)
{
	char want[96];
	size_t n = (size_t)snprintf(want, sizeof(want), "%s:%s", sys, ev);
	const char *p;

	for (p = events; (p = strstr(p, want)); p += n)
		if ((p == events || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

/* def - log one definition; 0, or -1 if its NAME or WHERE is one the kernel refuses */
static int def(const char *kind, const char *name, const char *where, const char *args)
{
	char key[2][128];
	size_t at = strlen(defs);

	snprintf(key[0], sizeof(key[0]), " %s ", name);
	snprintf(key[1], sizeof(key[1]), " %s ", where);
	if (strstr(refused, key[0]) || strstr(refused, key[1]))
		return -1;
	snprintf(defs + at, sizeof(defs) - at, "%s %s %s %s\n", kind, name, where, args);
	return 0;
}

static int fake_probe_add(struct session *s, const char *name, int ret, const char *addr,
			  const char *fetchargs)
{
	(void)s, (void)ret;
	return def("p", name, addr, fetchargs);
}

static int fake_probe_add_eprobe(struct session *s, const char *name, const char *sys,
				 const char *event, const char *fetchargs)
{
	char where[96];

	(void)s;
	snprintf(where, sizeof(where), "%s/%s", sys, event);
	return def("e", name, where, fetchargs);
}

static int fake_probe_add_uprobe(struct session *s, const char *name, const char *file,
				 unsigned long long offset, const char *fetchargs)
{
	char where[96];

	(void)s;
	snprintf(where, sizeof(where), "%s:0x%llx", file, offset);
	return def("u", name, where, fetchargs);
}

static int fake_elfsym_offset(int fd, const char *name, unsigned long long *off)
{
	int i;

	(void)fd;
	for (i = 0; i < nsyms; i++)
		if (!strcmp(syms[i].sym, name)) {
			*off = syms[i].off;
			return 0;
		}
	return -1;
}

/* one C library, open at a descriptor of /dev/null */
static int fake_libcs_each(int max, void (*fn)(int fd, const char *name, int k, void *ctx),
			   void (*left)(const char *name, int pid, const char *why, void *ctx),
			   void *ctx)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	(void)max, (void)left;
	if (fd < 0)
		return -1;
	fn(fd, "/lib/libc.so.6", 0, ctx);
	return 1;
}

/* no instance for the proof: a rung that is set up is never checked */
static int fake_companion(struct session *s, const char *suffix, struct session *c)
{
	(void)s, (void)suffix, (void)c;
	return -1;
}

#define kernel_has fake_kernel_has
#define session_event_exists fake_event_exists
#define session_companion fake_companion
#define probe_add fake_probe_add
#define probe_add_eprobe fake_probe_add_eprobe
#define probe_add_uprobe fake_probe_add_uprobe
#define elfsym_offset fake_elfsym_offset
#define libcs_each fake_libcs_each
#include "../../common/ladder.c"

static struct session sess = { .name = "ftt-unit-1-2", .group = "ftt_unit_1_2" };

/* kernel - the features offered: a list of KF_* ending in -1 */
static void kernel(const int *f)
{
	memset(offers, 0, sizeof(offers));
	for (; *f >= 0; f++)
		offers[*f] = 1;
}

/* fresh - an empty capture of KIND with ARGC (in its ladder), nothing defined yet */
static struct capture *fresh(enum cap_kind kind, unsigned int argc)
{
	struct capture *c = &((struct ladder *)xcalloc(1, sizeof(struct ladder)))->c;

	c->s = &sess;
	c->kind = kind;
	c->argc = argc;
	defs[0] = '\0';
	return c;
}

static void done(struct capture *c)
{
	drop_events(c);
	free(ladder_of(c));
}

/* lacks - kernel_lacks's text for a feature's NAME */
static const char *lacks(const char *name)
{
	static char buf[200];

	snprintf(buf, sizeof(buf), "no %s in Linux %s", name, release);
	return buf;
}

/* same - CHECK that GOT is WANT, and show both if not */
static void same(const char *name, const char *got, const char *want)
{
	CHECK(name, !strcmp(got, want));
	if (strcmp(got, want))
		printf("     got:\n%s\n     wanted:\n%s\n", got, want);
}

/* subst - TEXT with each '@' replaced by WITH, into buf */
static const char *subst(const char *text, const char *with, char *buf, size_t len)
{
	const char *p;

	buf[0] = '\0';
	for (p = text; *p; p++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s",
			 *p == '@' ? with : (char[]){ *p, 0 });
	return buf;
}

/* kept - the events the rung keeps, joined by spaces */
static const char *kept(const struct capture *c)
{
	static char buf[512];
	int i;

	buf[0] = '\0';
	for (i = 0; i < c->nev; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? " " : "",
			 c->names[i]);
	return buf;
}

/* defined - the names of the probes defined (each line's second word), joined by spaces */
static const char *defined(void)
{
	static char buf[512];
	const char *p;
	size_t n;

	buf[0] = '\0';
	for (p = defs; *p; p += strcspn(p, "\n") + 1) {
		n = strcspn(p + 2, " ");
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%.*s", buf[0] ? " " : "",
			 (int)n, p + 2);
	}
	return buf;
}

/*
 * set_up - rung R's setup for KIND (ARGC argv entries) on the kernel set, the
 * probes in REFUSE refused: RC, and WANT, the definitions made (rc 0: the
 * rung keeps exactly their events) or why the rung is not used (rc -1:
 * nothing made, nothing kept)
 */
static void set_up(const char *label, enum cap_rung r, enum cap_kind kind, unsigned int argc,
		   const char *refuse, int rc, const char *want)
{
	struct capture *c = fresh(kind, argc);
	char name[160];
	int got;

	refused = refuse;
	got = setup[r](c);
	refused = "";
	snprintf(name, sizeof(name), "%s: %s", label, rc ? "not used" : "used");
	CHECK(name, got == rc);
	snprintf(name, sizeof(name), "%s: %s", label, rc ? "why" : "the definitions");
	same(name, rc ? ladder_of(c)->why[r] : defs, want);
	snprintf(name, sizeof(name), "%s: the events kept", label);
	if (rc)
		CHECK(name, !defs[0] && c->nev == 0);
	else
		same(name, kept(c), defined());
	done(c);
}

/* the order of the ladder, by name */
static void test_ladder(void)
{
	char got[2][128];
	const enum cap_rung *o;
	int k, i;

	for (k = 0; k < 2; k++) {
		got[k][0] = '\0';
		o = ladder(k ? CAP_EXEC : CAP_OPEN);
		for (i = 0; i < CAP_NRUNGS; i++) {
			snprintf(got[k] + strlen(got[k]), sizeof(got[k]) - strlen(got[k]), "%s%s",
				 i ? " " : "", rung_names[o[i]]);
			if (o[i] == CAP_NONE)
				break;
		}
	}
	/* an open's path: best first; an exec's: the syscall rung has no argv */
	same("ladder: opens", got[0], "syscall eprobe kprobe uprobe none");
	same("ladder: execs", got[1], "eprobe kprobe uprobe syscall none");
}

/* forced - in a child: exits with the rung FTT_CAPTURE names */
static void forced(const void *arg)
{
	(void)arg;
	exit(forced_rung());
}

/* forced_is - with FTT_CAPTURE VALUE (NULL: unset), forced_rung's child
 * exits with RC; saying ERR, if not NULL */
static void forced_is(const char *label, const char *value, int rc, const char *err)
{
	char got[256], name[96];
	int status;

	if (value)
		setenv("FTT_CAPTURE", value, 1);
	else
		unsetenv("FTT_CAPTURE");
	status = unit_exit_status(forced, NULL, got, sizeof(got));
	unsetenv("FTT_CAPTURE");
	snprintf(name, sizeof(name), "%s: the rung", label);
	CHECK(name, status == rc);
	snprintf(name, sizeof(name), "%s: said", label);
	if (err)
		same(name, got, err);
}

static void test_forced(void)
{
	forced_is("FTT_CAPTURE unset", NULL, CAP_NRUNGS, NULL);
	forced_is("FTT_CAPTURE empty", "", CAP_NRUNGS, "");
	forced_is("FTT_CAPTURE=syscall", "syscall", CAP_SYSCALL, NULL);
	forced_is("FTT_CAPTURE=eprobe", "eprobe", CAP_EPROBE, NULL);
	forced_is("FTT_CAPTURE=kprobe", "kprobe", CAP_KPROBE, NULL);
	forced_is("FTT_CAPTURE=uprobe", "uprobe", CAP_UPROBE, NULL);
	forced_is("FTT_CAPTURE=none", "none", CAP_NONE, NULL);
	forced_is("FTT_CAPTURE=kprobes", "kprobes", EXIT_USAGE,
		  "ftt: FTT_CAPTURE must be syscall, eprobe, kprobe, uprobe or none\n");
}

/* the syscall rung: the feature, then the instance's buffer size */
static void test_syscall(void)
{
	struct capture *c = fresh(CAP_OPEN, 0);
	char path[256];

	/* (a buffer size it could use: a rung not offered must not try) */
	unit_put(dir, "instances/ftt-unit-1-2/syscall_user_buf_size", "165\n");
	kernel((const int[]){ KF_EPROBES, KF_KPROBES, KF_UPROBES, KF_USTRING, -1 });
	set_up("syscall, not offered", CAP_SYSCALL, CAP_OPEN, 0, "", -1,
	       lacks("strings in the syscall events (6.19+)"));
	snprintf(path, sizeof(path), "%s/instances/ftt-unit-1-2/syscall_user_buf_size", dir);
	unlink(path);
	kernel((const int[]){ KF_SYSCALL_STRINGS, -1 });
	set_up("syscall, no buffer size", CAP_SYSCALL, CAP_OPEN, 0, "", -1,
	       "syscall_user_buf_size unusable in the instance");
	unit_put(dir, "instances/ftt-unit-1-2/syscall_user_buf_size", "165\n");
	set_up("syscall, offered", CAP_SYSCALL, CAP_EXEC, 2, "", 0, "");
	CHECK("syscall: the size asked for in force", setup_syscall(c) == 0 && c->bufsz == 4096);
	done(c);
}

/* an exec's eprobe on EVENT, 2 argv entries asked for: the file, then three
 * pointers and strings of argv (whether the third is NULL says if there are more) */
#define EXEC_EPROBE(name, event) \
	"e " name " syscalls/" event " fp=$filename:x64 ap=$argv:x64 fn=+0($filename):ustring " \
	"p0=+u0($argv):x64 a0=+0(+u0($argv)):ustring p1=+u8($argv):x64 a1=+0(+u8($argv)):ustring " \
	"p2=+u16($argv):x64 a2=+0(+u16($argv)):ustring\n"

/* the eprobe rung: on the entry events this kernel has */
static void test_eprobe(void)
{
	/* (events it could probe: a rung not offered must not try) */
	events = "syscalls:sys_enter_openat";
	kernel((const int[]){ KF_USTRING, KF_KPROBES, -1 });
	set_up("eprobe, no event probes", CAP_EPROBE, CAP_OPEN, 0, "", -1,
	       lacks("event probes (CONFIG_EPROBE_EVENTS)"));
	kernel((const int[]){ KF_EPROBES, -1 });
	set_up("eprobe, no ustring", CAP_EPROBE, CAP_OPEN, 0, "", -1,
	       lacks("the ustring fetch type"));

	/* no sys_enter_open (as on arm64); openat2's flags behind its pointer */
	kernel((const int[]){ KF_EPROBES, KF_USTRING, -1 });
	events = "syscalls:sys_enter_openat syscalls:sys_enter_openat2 syscalls:sys_exit_openat";
	set_up("eprobe, opens", CAP_EPROBE, CAP_OPEN, 0, "", 0,
	       "e cap_openat syscalls/sys_enter_openat ptr=$filename:x64 path=+0($filename):ustring\n"
	       "e cap_openat2 syscalls/sys_enter_openat2 ptr=$filename:x64 "
	       "path=+0($filename):ustring flags=+u0($how):x64\n");
	set_up("eprobe, openat2 refused", CAP_EPROBE, CAP_OPEN, 0, " cap_openat2 ", 0,
	       "e cap_openat syscalls/sys_enter_openat ptr=$filename:x64 path=+0($filename):ustring\n");
	set_up("eprobe, all refused", CAP_EPROBE, CAP_OPEN, 0, " cap_openat cap_openat2 ", -1,
	       "the kernel takes no event probe on the syscall events");
	events = "syscalls:sys_enter_execve syscalls:sys_enter_execveat";
	set_up("eprobe, execs", CAP_EPROBE, CAP_EXEC, 2, "", 0,
	       EXEC_EPROBE("cap_execve", "sys_enter_execve")
	       EXEC_EPROBE("cap_execveat", "sys_enter_execveat"));
	events = "";
	set_up("eprobe, no syscall events", CAP_EPROBE, CAP_EXEC, 2, "", -1,
	       "the kernel takes no event probe on the syscall events");
}

/* the kprobe rung: the kernel function behind the calls */
static void test_kprobe(void)
{
	kernel((const int[]){ KF_USTRING, KF_UPROBES, -1 });
	set_up("kprobe, no kprobes", CAP_KPROBE, CAP_OPEN, 0, "", -1,
	       lacks("kprobes (CONFIG_KPROBE_EVENTS)"));
	kernel((const int[]){ KF_KPROBES, KF_USTRING, -1 });
	set_up("kprobe, opens", CAP_KPROBE, CAP_OPEN, 0, "", 0,
	       "p cap_open do_sys_openat2 ptr=$arg2:x64 path=+0($arg2):ustring flags=+0($arg3):x64\n");
	/* before 5.6: do_sys_open, whose flags are not a pointer's */
	set_up("kprobe, opens before 5.6", CAP_KPROBE, CAP_OPEN, 0, " do_sys_openat2 ", 0,
	       "p cap_open do_sys_open ptr=$arg2:x64 path=+0($arg2):ustring\n");
	set_up("kprobe, opens refused", CAP_KPROBE, CAP_OPEN, 0, " cap_open ", -1,
	       "the kernel takes none of these kprobes");
#ifdef __x86_64__
	set_up("kprobe, execs without user dereferences", CAP_KPROBE, CAP_EXEC, 1, "", -1,
	       "the kernel takes none of these kprobes");
	kernel((const int[]){ KF_KPROBES, KF_USTRING, KF_UDEREF, -1 });
	/* pt_regs: di at 112, si at 104, dx at 96 */
	set_up("kprobe, execs", CAP_KPROBE, CAP_EXEC, 1, "", 0,
	       "p cap_execve __x64_sys_execve fp=+112($arg1):x64 ap=+104($arg1):x64 "
	       "fn=+0(+112($arg1)):ustring p0=+u0(+104($arg1)):x64 a0=+0(+u0(+104($arg1))):ustring "
	       "p1=+u8(+104($arg1)):x64 a1=+0(+u8(+104($arg1))):ustring\n"
	       "p cap_execveat __x64_sys_execveat fp=+104($arg1):x64 ap=+96($arg1):x64 "
	       "fn=+0(+104($arg1)):ustring p0=+u0(+96($arg1)):x64 a0=+0(+u0(+96($arg1))):ustring "
	       "p1=+u8(+96($arg1)):x64 a1=+0(+u8(+96($arg1))):ustring\n");
	/* execve refused: execveat is not tried */
	set_up("kprobe, execve refused", CAP_KPROBE, CAP_EXEC, 1, " cap_execve ", -1,
	       "the kernel takes none of these kprobes");
#endif
}

/* a glibc: open and open64 one function, as openat and openat64 are */
static const struct sym glibc[] = {
	{ "open64", 0x11a0 }, { "open", 0x11a0 }, { "__open64_nocancel", 0x2230 },
	{ "__open_nocancel", 0x2230 }, { "openat64", 0x3340 }, { "openat", 0x3340 },
	{ "execve", 0x4450 }, { "execveat", 0x5560 },
};
/* a musl: open and openat only */
static const struct sym musl[] = {
	{ "open", 0x700 }, { "openat", 0x800 }, { "execve", 0x900 },
};

/*
 * lib_probed - probe_lib for KIND on the K-th library, of symbols TABLE (N),
 * the probes in REFUSE refused: WANT, the definitions, with '@' for the
 * library as the kernel is given it (/proc/self/fd/FD); the library is kept
 * open while a probe in it was made, and closed when the rung goes
 */
static void lib_probed(const char *label, enum cap_kind kind, const struct sym *table, int n,
		       int k, const char *refuse, const char *want)
{
	struct capture *c = fresh(kind, 0);
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC), made = want[0] != 0;
	char path[40], expect[2048], name[160];

	syms = table;
	nsyms = n;
	refused = refuse;
	probe_lib(fd, "/lib/libc.so.6", k, c);
	refused = "";
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	snprintf(name, sizeof(name), "%s: the definitions", label);
	same(name, defs, subst(want, path, expect, sizeof(expect)));
	snprintf(name, sizeof(name), "%s: the events kept", label);
	same(name, kept(c), defined());
	snprintf(name, sizeof(name), "%s: the library %s", label, made ? "kept open" : "closed");
	CHECK(name, (fcntl(fd, F_GETFD) >= 0) == made && ladder_of(c)->nlib == made &&
	      (!made || ladder_of(c)->libfd[0] == fd));
	done(c);
	snprintf(name, sizeof(name), "%s: the library closed with the rung", label);
	CHECK(name, fcntl(fd, F_GETFD) < 0 && errno == EBADF);
}

#define NSYMS(t) ((int)(sizeof(t) / sizeof((t)[0])))

/* the uprobe rung: one probe per function, at each offset once */
static void test_uprobe(void)
{
	/* (a library it could probe: a rung not offered must not try) */
	syms = glibc;
	nsyms = NSYMS(glibc);
	kernel((const int[]){ KF_KPROBES, KF_USTRING, -1 });
	set_up("uprobe, no uprobes", CAP_UPROBE, CAP_OPEN, 0, "", -1,
	       lacks("uprobes (CONFIG_UPROBE_EVENTS)"));
	lib_probed("uprobe, glibc's opens", CAP_OPEN, glibc, NSYMS(glibc), 1, "",
		   "u cap1_open64 @:0x11a0 ptr=%di:x64 path=+0(%di):ustring flags=%si:x64\n"
		   "u cap1_open64_nocancel @:0x2230 ptr=%di:x64 path=+0(%di):ustring flags=%si:x64\n"
		   "u cap1_openat64 @:0x3340 ptr=%si:x64 path=+0(%si):ustring flags=%dx:x64\n");
	lib_probed("uprobe, glibc's execs", CAP_EXEC, glibc, NSYMS(glibc), 0, "",
		   "u cap0_execve @:0x4450 fp=%di:x64 ap=%si:x64 fn=+0(%di):ustring "
		   "p0=+0(%si):x64 a0=+0(+0(%si)):ustring\n"
		   "u cap0_execveat @:0x5560 fp=%si:x64 ap=%dx:x64 fn=+0(%si):ustring "
		   "p0=+0(%dx):x64 a0=+0(+0(%dx)):ustring\n");
	lib_probed("uprobe, musl's opens", CAP_OPEN, musl, NSYMS(musl), 0, "",
		   "u cap0_open @:0x700 ptr=%di:x64 path=+0(%di):ustring flags=%si:x64\n"
		   "u cap0_openat @:0x800 ptr=%si:x64 path=+0(%si):ustring flags=%dx:x64\n");
	lib_probed("uprobe, musl's opens refused", CAP_OPEN, musl, NSYMS(musl), 0,
		   " cap0_open cap0_openat ", "");
}

/* exec_args: room for every entry an exec may ask for (CAP_MAXSTR - 2), with
 * the longest registers any rung names */
static void test_exec_args(void)
{
	struct capture *c = fresh(CAP_EXEC, CAP_MAXSTR - 2);
	char *f = exec_args(c, "+112($arg1)", "+104($arg1)", "+u"), *p;
	const char *tail = " p32=+u256(+104($arg1)):x64 a32=+0(+u256(+104($arg1))):ustring";
	int n = 0;

	for (p = f; (p = strstr(p, " p")); p++)
		n++;
	CHECK("exec_args: 33 pointers for 32 entries", n == 33);
	CHECK("exec_args: the last one whole", strlen(f) > strlen(tail) &&
	      !strcmp(f + strlen(f) - strlen(tail), tail));
	free(f);
	done(c);
}

/* one open and one exec proof: the child's path and its three argv entries */
static char ppath[] = "/proc/ftt-proof-77-0a1b2c3d-\t\xc3\xa9";
static char ptag[] = "ftt-proof", ptoken[] = "0a1b2c3d";
static const char *const pargv[] = { ppath, ptag, ptoken, NULL };

/* checked - proof_check of a value of N strings (S...), from pointer PTR */
static int checked(struct capture *c, char *seen, unsigned long long ptr, int args_known,
		   int more, int n, ...)
{
	struct proof p = { .c = c, .path = ppath, .argv = pargv, .ptr = { 0x1000, 0x2000 } };
	struct cap_val v = { .ptr = { ptr, 0x2000 }, .args_known = args_known, .more = more };
	va_list ap;
	int i, rc;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		v.str[v.nstr++] = va_arg(ap, char *);
	va_end(ap);
	rc = proof_check(&p, n < 0 ? NULL : &v);
	strcpy(seen, p.seen);
	return rc;
}

static void test_proof(void)
{
	struct capture *o = fresh(CAP_OPEN, 0), *e2 = fresh(CAP_EXEC, 2), *e3 = fresh(CAP_EXEC, 3);
	struct capture *e16 = fresh(CAP_EXEC, 16), *e0 = fresh(CAP_EXEC, 0);
	char seen[120];

	CHECK("proof: no value", checked(o, seen, 0, 0, 0, -1) == -1);
	same("proof: no value, said", seen, "no value for the call");
	CHECK("proof: the open's path, from its pointer",
	      checked(o, seen, 0x1000, 0, 0, 1, ppath) == 1);
	CHECK("proof: the path from another pointer",
	      checked(o, seen, 0x1008, 0, 0, 1, ppath) == -1);
	same("proof: another pointer, said", seen,
	     "read \"/proc/ftt-proof-77-0a1b2c3d-\t\xc3\xa9\" from 0x1008");
	/* a rung that turns the tab or the UTF-8 letter into something else */
	CHECK("proof: a byte altered", checked(o, seen, 0x1000, 0, 0, 1,
					       "/proc/ftt-proof-77-0a1b2c3d-\\t\xc3\xa9") == -1);
	CHECK("proof: a path cut short", checked(o, seen, 0x1000, 0, 0, 1,
						 "/proc/ftt-proof-77-0a1b2c3d-\t") == -1);
	CHECK("proof: no string", checked(o, seen, 0x1000, 0, 0, 0) == -1);
	same("proof: no string, said", seen, "read \"\" from 0x1000");

	/* execs: the child's argv has 3 entries; argc entries are asked for */
	CHECK("proof: exec, 2 of 3 and more",
	      checked(e2, seen, 0x1000, 1, 1, 3, ppath, ppath, ptag) == 1);
	CHECK("proof: exec, 2 of 3 and no more", checked(e2, seen, 0x1000, 1, 0, 3, ppath, ppath,
							 ptag) == -1);
	same("proof: exec, no more, said", seen, "argv of 2 entries");
	CHECK("proof: exec, 3 of 3",
	      checked(e3, seen, 0x1000, 1, 0, 4, ppath, ppath, ptag, ptoken) == 1);
	CHECK("proof: exec, 3 of 3 and more", checked(e3, seen, 0x1000, 1, 1, 4, ppath, ppath, ptag,
						      ptoken) == -1);
	CHECK("proof: exec, 3 asked 16", checked(e16, seen, 0x1000, 1, 0, 4, ppath, ppath, ptag,
						 ptoken) == 1);
	CHECK("proof: exec, 2 taken, 16 asked", checked(e16, seen, 0x1000, 1, 0, 3, ppath, ppath,
							ptag) == -1);
	same("proof: exec, 2 taken, said", seen, "argv of 2 entries");
	CHECK("proof: exec, none asked", checked(e0, seen, 0x1000, 1, 1, 1, ppath) == 1);
	CHECK("proof: exec, an entry altered", checked(e3, seen, 0x1000, 1, 0, 4, ppath, ppath,
						       "ftt-proox", ptoken) == -1);
	same("proof: exec, an entry altered, said", seen, "argv[1] \"ftt-proox\"");
	CHECK("proof: exec, the file from another pointer",
	      checked(e3, seen, 0x3000, 1, 0, 4, ppath, ppath, ptag, ptoken) == -1);
	/* the syscall rung has the file alone */
	CHECK("proof: exec, the file alone", checked(e3, seen, 0x1000, 0, 0, 1, ppath) == 1);
	done(o), done(e2), done(e3), done(e16), done(e0);
}

/* the rungs the child of walk set up, and how many events it kept (-1: it died) */
static int walk_nev;

/* walk_dump - at the child's exit: what it defined, then "|" and walk_nev */
static void walk_dump(void)
{
	char text[sizeof(defs) + 16];

	snprintf(text, sizeof(text), "%s|%d", defs, walk_nev);
	unit_put(dir, "walk", text);
}

static int walk_quiet;	/* walk's ladder_note without -v */

/* walk - in a child: ladder_open for KIND (2 argv entries) on the kernel set, then ladder_note */
static void walk(const void *arg)
{
	struct capture *c;

	defs[0] = '\0';
	walk_nev = -1;
	atexit(walk_dump);
	c = ladder_open(&sess, *(const enum cap_kind *)arg, 2);
	ladder_note(c, !walk_quiet);
	walk_nev = c->nev;
	exit(0);
}

/* walked - walk's stderr into err, what it defined into out; its exit status */
static int walked(enum cap_kind kind, char *err, size_t elen, char *out, size_t olen)
{
	char path[256];
	FILE *f;
	size_t n = 0;
	int rc = unit_exit_status(walk, &kind, err, elen);

	snprintf(path, sizeof(path), "%s/walk", dir);
	f = fopen(path, "r");
	if (f) {
		n = fread(out, 1, olen - 1, f);
		fclose(f);
		unlink(path);
	}
	out[n] = '\0';
	return rc;
}

/*
 * walk_is - ladder_open for KIND on the kernel set, FORCE (NULL: none) in
 * FTT_CAPTURE: its exit status RC, its note NOTE ('@' for the kernel's
 * release) and MADE, what it defined, '|', and how many events it kept (-1:
 * it died)
 */
static void walk_is(const char *label, enum cap_kind kind, const char *force, int rc,
		    const char *note, const char *made)
{
	static char err[2048], out[2048], want[2048];
	char name[160];
	int got;

	if (force)
		setenv("FTT_CAPTURE", force, 1);
	got = walked(kind, err, sizeof(err), out, sizeof(out));
	unsetenv("FTT_CAPTURE");
	snprintf(name, sizeof(name), "%s: the exit status", label);
	CHECK(name, got == rc);
	snprintf(name, sizeof(name), "%s: the note", label);
	same(name, err, subst(note, release, want, sizeof(want)));
	snprintf(name, sizeof(name), "%s: what was set up", label);
	same(name, out, made);
}

#define KPROBE_OPEN "p cap_open do_sys_openat2 ptr=$arg2:x64 path=+0($arg2):ustring " \
	"flags=+0($arg3):x64\n"

/* the walk down the ladder: what the kernel lacks, and what cannot be checked */
static void test_walk(void)
{
	/* nothing offered: no rung, each one's reason in the ladder's order */
	kernel((const int[]){ -1 });
	walk_is("walk, nothing offered", CAP_EXEC, NULL, 0,
		"ftt: arguments taken at the call by nothing: they show as [?] (capture rung none)\n"
		"ftt: better rungs not used: eprobe: no event probes (CONFIG_EPROBE_EVENTS) in Linux @; "
		"kprobe: no kprobes (CONFIG_KPROBE_EVENTS) in Linux @; "
		"uprobe: no uprobes (CONFIG_UPROBE_EVENTS) in Linux @; "
		"syscall: no strings in the syscall events (6.19+) in Linux @\n", "|0");
	walk_quiet = 1;
	walk_is("walk, nothing offered, without -v", CAP_EXEC, NULL, 0,
		"ftt: arguments not taken on this kernel: rows show [?]; -v says why\n", "|0");
	walk_quiet = 0;
	/* kprobes alone: set up, but no instance to check it in, so taken down */
	kernel((const int[]){ KF_KPROBES, KF_USTRING, -1 });
	walk_is("walk, kprobes", CAP_OPEN, NULL, 0,
		"ftt: paths taken at the call by nothing: they show as [?] (capture rung none)\n"
		"ftt: better rungs not used: syscall: no strings in the syscall events (6.19+) in Linux @; "
		"eprobe: no event probes (CONFIG_EPROBE_EVENTS) in Linux @; "
		"kprobe: no instance for its check; "
		"uprobe: no uprobes (CONFIG_UPROBE_EVENTS) in Linux @\n", KPROBE_OPEN "|0");
	walk_quiet = 1;
	walk_is("walk, kprobes, without -v", CAP_OPEN, NULL, 0,
		"ftt: paths not taken on this kernel: rows show [?] (a better way failed its "
		"check; -v says which)\n", KPROBE_OPEN "|0");
	walk_quiet = 0;
	/* a forced rung: only it is tried (not the eprobe before it), and its
	 * failure ends the run */
	kernel((const int[]){ KF_EPROBES, KF_KPROBES, KF_USTRING, -1 });
	events = "syscalls:sys_enter_open";
	walk_is("walk, kprobe forced", CAP_OPEN, "kprobe", EXIT_ERR,
		"ftt: FTT_CAPTURE=kprobe: no instance for its check\n", KPROBE_OPEN "|-1");
	walk_is("walk, uprobe forced", CAP_OPEN, "uprobe", EXIT_ERR,
		"ftt: FTT_CAPTURE=uprobe: no uprobes (CONFIG_UPROBE_EVENTS) in Linux @\n", "|-1");
	walk_is("walk, none forced", CAP_OPEN, "none", 0,
		"ftt: paths taken at the call by nothing: they show as [?] (capture rung none, forced)\n",
		"|0");
	walk_quiet = 1;
	walk_is("walk, none forced, without -v", CAP_OPEN, "none", 0,
		"ftt: paths not taken on this kernel: rows show [?] (forced by FTT_CAPTURE)\n", "|0");
	walk_quiet = 0;
	events = "";
}

int main(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(release, sizeof(release), "%s", u.release);
	/* what reaches tracefs at all goes to a directory that stands in for it */
	unit_tmpdir(dir, sizeof(dir), "capture");
	if (tracefs_set_tracing_dir(dir) < 0) {
		printf("FAIL capture: tracefs_set_tracing_dir %s\n", dir);
		return 1;
	}
	unit_put(dir, "instances/ftt-unit-1-2/trace", "");
	sess.inst = tracefs_instance_alloc(dir, sess.name);
	if (!sess.inst)
		return unit_skip("capture", "tracefs_instance_alloc refused the stand-in directory");
	test_ladder();
	test_forced();
	test_syscall();
	test_eprobe();
	test_kprobe();
	test_uprobe();
	test_exec_args();
	test_proof();
	test_walk();
	tracefs_instance_free(sess.inst);
	if (unit_rmtree(dir) != 0)
		printf("FAIL capture: could not remove %s\n", dir);
	return unit_done("capture");
}

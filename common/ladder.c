/* SPDX-License-Identifier: GPL-2.0-only */
/* ladder.c - the capture ladder: each rung's events, made and proven at startup
 *
 * See ladder.h for the rungs and their proof. Each rung is set up in turn
 * (best first for the kind of call), then proven with a child's known calls
 * through the same pairing the tool uses (capture.c); the first that proves
 * itself is kept, and why each better one is not used is said once.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "clock.h"
#include "decode.h"
#include "elfsym.h"
#include "format.h"
#include "kernel.h"
#include "ladder.h"
#include "libcs.h"
#include "msg.h"
#include "probes.h"
#include "session.h"
#include "xalloc.h"

#define MAX_LIBS 12		/* distinct C libraries probed */
#define PROOF_MS 1500		/* how long the proof waits for its events */

/* a capture and what choosing its rung needs besides */
struct ladder {
	struct capture c;
	int libfd[MAX_LIBS];			/* uprobe: the libraries probed, open */
	int nlib;
	char why[CAP_NRUNGS][160];		/* why a better rung is not in use */
	int forced;
	int refused;				/* a better rung was made but failed its check */
	struct session proof;			/* the instance the proofs run in */
};

static const char *const rung_names[CAP_NRUNGS] = {
	"syscall", "eprobe", "kprobe", "uprobe", "none"
};

/* the syscalls whose entry carries the strings */
static const char *const open_calls[] = { "open", "openat", "openat2", NULL };
static const char *const exec_calls[] = { "execve", "execveat", NULL };

/* ladder_of - the ladder whose capture c is (ladder_open made both) */
static struct ladder *ladder_of(const struct capture *c)
{
	return (struct ladder *)((const char *)c - offsetof(struct ladder, c));
}

/* drop_events - forget the rung's events (their probes are unwound by the caller) */
static void drop_events(struct capture *c)
{
	struct ladder *l = ladder_of(c);

	while (c->nev > 0)
		free(c->names[--c->nev]);
	while (l->nlib > 0)
		close(l->libfd[--l->nlib]);
}

/* exec_args - fetchargs for an exec: file and argv as FILE and ARGV name them,
 * with DEREF the user-memory dereference ("+u" in kernel probes, "+" in uprobes) */
static char *exec_args(const struct capture *c, const char *file, const char *argv,
		       const char *deref)
{
	size_t len = 256 + (c->argc + 1) * (3 * strlen(argv) + 96);
	char *f = xmalloc(len);
	size_t at;
	unsigned int i;

	at = snprintf(f, len, "fp=%s:x64 ap=%s:x64 fn=+0(%s):ustring", file, argv, file);
	for (i = 0; i <= c->argc; i++)
		at += snprintf(f + at, len - at, " p%u=%s%u(%s):x64 a%u=+0(%s%u(%s)):ustring",
			       i, deref, 8 * i, argv, i, deref, 8 * i, argv);
	return f;
}

/* made - after a probe was made (rc 0): remember its event (in s->group); rc */
static int made(struct capture *c, int rc, const char *name)
{
	if (rc == 0 && c->nev < CAP_MAXEVENTS)
		c->names[c->nev++] = xstrdup(name);
	return rc;
}

/* ---- the rungs' setup: 0 if the rung's events exist, else -1 (fail) ---- */

/* fail - rung r is not used, for the reason fmt gives; -1 */
static int fail(struct capture *c, enum cap_rung r, const char *fmt, ...)
{
	struct ladder *l = ladder_of(c);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->why[r], sizeof(l->why[r]), fmt, ap);
	va_end(ap);
	return -1;
}

/* buf_size - the instance keeps as much of each string as it can (the kernel
 * caps it, at 165 bytes in 6.19); the size now in force, or -1 */
static int buf_size(struct tracefs_instance *inst)
{
	char *v;
	int n;

	tracefs_instance_file_write(inst, "syscall_user_buf_size", "4096");
	v = tracefs_instance_file_read(inst, "syscall_user_buf_size", NULL);
	n = v ? atoi(v) : -1;
	free(v);
	return n;
}

/* setup_syscall - nothing to make: the entry events carry the string */
static int setup_syscall(struct capture *c)
{
	/* offered: the openat event has its string; whether this kind of call
	 * gets it right is the check's to say */
	if (!kernel_has(KF_SYSCALL_STRINGS))
		return fail(c, CAP_SYSCALL, "%s", kernel_lacks(KF_SYSCALL_STRINGS));
	c->bufsz = buf_size(c->s->inst);
	if (c->bufsz <= 0)
		return fail(c, CAP_SYSCALL, "syscall_user_buf_size unusable in the instance");
	return 0;
}

/* setup_eprobe - event probes on the syscall entry tracepoints */
static int setup_eprobe(struct capture *c)
{
	const char *const *calls = c->kind == CAP_OPEN ? open_calls : exec_calls;
	char name[32], ev[48];
	char *f;
	int i;

	if (!kernel_has(KF_EPROBES) || !kernel_has(KF_USTRING))
		return fail(c, CAP_EPROBE, "%s",
			    kernel_lacks(kernel_has(KF_EPROBES) ? KF_USTRING : KF_EPROBES));
	for (i = 0; calls[i]; i++) {
		snprintf(ev, sizeof(ev), "sys_enter_%s", calls[i]);
		if (!session_event_exists("syscalls", ev))
			continue;
		snprintf(name, sizeof(name), "cap_%s", calls[i]);
		if (c->kind == CAP_EXEC)
			f = exec_args(c, "$filename", "$argv", "+u");
		else if (!strcmp(calls[i], "openat2"))
			f = xstrdup("ptr=$filename:x64 path=+0($filename):ustring flags=+u0($how):x64");
		else
			f = xstrdup("ptr=$filename:x64 path=+0($filename):ustring");
		made(c, probe_add_eprobe(c->s, name, "syscalls", ev, f), name);
		free(f);
	}
	return c->nev ? 0 : fail(c, CAP_EPROBE, "the kernel takes no event probe on the syscall events");
}

/* setup_kprobe - a kprobe on the kernel function behind the calls */
static int setup_kprobe(struct capture *c)
{
	char *f;
	int rc = -1;

	if (!kernel_has(KF_KPROBES) || !kernel_has(KF_USTRING))
		return fail(c, CAP_KPROBE, "%s",
			    kernel_lacks(kernel_has(KF_KPROBES) ? KF_USTRING : KF_KPROBES));
	if (c->kind == CAP_OPEN) {
		rc = made(c, probe_add(c->s, "cap_open", 0, "do_sys_openat2",
				       "ptr=$arg2:x64 path=+0($arg2):ustring flags=+0($arg3):x64"),
			  "cap_open");
		if (rc < 0)
			rc = made(c, probe_add(c->s, "cap_open", 0, "do_sys_open",
					       "ptr=$arg2:x64 path=+0($arg2):ustring"), "cap_open");
	}
#ifdef __x86_64__
	/* since 4.17 the syscall functions take pt_regs: di 112, si 104, dx 96 */
	if (c->kind == CAP_EXEC && kernel_has(KF_UDEREF)) {
		f = exec_args(c, "+112($arg1)", "+104($arg1)", "+u");
		rc = made(c, probe_add(c->s, "cap_execve", 0, "__x64_sys_execve", f), "cap_execve");
		free(f);
		if (rc == 0) {
			f = exec_args(c, "+104($arg1)", "+96($arg1)", "+u");
			made(c, probe_add(c->s, "cap_execveat", 0, "__x64_sys_execveat", f),
			     "cap_execveat");
			free(f);
		}
	}
#endif
	return rc < 0 ? fail(c, CAP_KPROBE, "the kernel takes none of these kprobes") : 0;
}

/* a C library's functions that take a path or an argv, and where the pointers are */
struct libfn {
	const char *sym;
	int exec;		/* 0: an open; 1: an exec */
	const char *args;	/* open: fetchargs; exec: the file and argv registers */
	const char *argv;
};

static const struct libfn lib_fns[] = {
	{ "open64", 0, "ptr=%di:x64 path=+0(%di):ustring flags=%si:x64", NULL },
	{ "open", 0, "ptr=%di:x64 path=+0(%di):ustring flags=%si:x64", NULL },
	{ "__open64_nocancel", 0, "ptr=%di:x64 path=+0(%di):ustring flags=%si:x64", NULL },
	{ "__open_nocancel", 0, "ptr=%di:x64 path=+0(%di):ustring flags=%si:x64", NULL },
	{ "openat64", 0, "ptr=%si:x64 path=+0(%si):ustring flags=%dx:x64", NULL },
	{ "openat", 0, "ptr=%si:x64 path=+0(%si):ustring flags=%dx:x64", NULL },
	{ "__openat64_nocancel", 0, "ptr=%si:x64 path=+0(%si):ustring flags=%dx:x64", NULL },
	{ "execve", 1, "%di", "%si" },
	{ "execveat", 1, "%si", "%dx" },
};

/* probe_lib - libcs_each's callback: uprobes on the library open at fd (index
 * k), named to the kernel by the descriptor, so the file is the one checked */
static void probe_lib(int fd, const char *lib, int k, void *ctx)
{
	struct capture *c = ctx;
	struct ladder *l = ladder_of(c);
	unsigned long long off, done[sizeof(lib_fns) / sizeof(lib_fns[0])];
	int ndone = 0, made_one = 0, j;
	size_t i;
	char name[48], path[40], *f;

	(void)lib;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (i = 0; i < sizeof(lib_fns) / sizeof(lib_fns[0]); i++) {
		const struct libfn *fn = &lib_fns[i];

		if (fn->exec != (c->kind == CAP_EXEC) || elfsym_offset(fd, fn->sym, &off) < 0)
			continue;
		for (j = 0; j < ndone && done[j] != off; j++)
			;
		if (j < ndone)
			continue;	/* another name of a function already probed */
		done[ndone++] = off;
		snprintf(name, sizeof(name), "cap%d_%s", k, fn->sym[0] == '_' ? fn->sym + 2 : fn->sym);
		f = fn->exec ? exec_args(c, fn->args, fn->argv, "+") : xstrdup(fn->args);
		if (made(c, probe_add_uprobe(c->s, name, path, off, f), name) == 0)
			made_one = 1;
		free(f);
	}
	/* kept open while the probes last: uprobe_events names it */
	if (made_one && l->nlib < MAX_LIBS)
		l->libfd[l->nlib++] = fd;
	else
		close(fd);
}

/* left_lib - libcs_each's callback: a library it did not hand over, and why */
static void left_lib(const char *lib, int pid, const char *why, void *ctx)
{
	(void)ctx;
	msg_warn("left out the C library %s mapped by PID %d (%s): its calls show as [?]",
		 lib, pid, why);
}

/* setup_uprobe - uprobes in every distinct C library running processes map */
static int setup_uprobe(struct capture *c)
{
	if (!kernel_has(KF_UPROBES) || !kernel_has(KF_USTRING))
		return fail(c, CAP_UPROBE, "%s",
			    kernel_lacks(kernel_has(KF_UPROBES) ? KF_USTRING : KF_UPROBES));
	if (libcs_each(MAX_LIBS, probe_lib, left_lib, c) < 0)
		return fail(c, CAP_UPROBE, "cannot read /proc");
	return c->nev ? 0 : fail(c, CAP_UPROBE, "no C library's functions could be probed");
}

/* ---- the proof ---- */

struct proof {
	struct capture *c;
	int child;
	const char *path;
	const char *const *argv;
	unsigned long long ptr[2];	/* the child's pointers (the same addresses as ours) */
	unsigned long long enter[2];	/* what the child's entry event said */
	int res;			/* the call's value taken and checked: 1 right, -1 wrong */
	char seen[120];			/* what a wrong value was */
};

/* proof_check - does v hold exactly what the child passed */
static int proof_check(struct proof *p, const struct cap_val *v)
{
	unsigned int i, want;

	if (!v) {
		snprintf(p->seen, sizeof(p->seen), "no value for the call");
		return -1;
	}
	if (v->nstr < 1 || strcmp(v->str[0], p->path) || v->ptr[0] != p->ptr[0]) {
		snprintf(p->seen, sizeof(p->seen), "read \"%.40s\" from 0x%llx",
			 v->nstr ? v->str[0] : "", v->ptr[0]);
		return -1;
	}
	if (p->c->kind == CAP_OPEN || !v->args_known)
		return 1;
	want = p->c->argc < 3 ? p->c->argc : 3;	/* the child's argv has 3 entries */
	if ((unsigned int)v->nstr != want + 1 || v->more != (p->c->argc < 3)) {
		snprintf(p->seen, sizeof(p->seen), "argv of %d entries", v->nstr - 1);
		return -1;
	}
	for (i = 0; i < want; i++)
		if (strcmp(v->str[i + 1], p->argv[i])) {
			snprintf(p->seen, sizeof(p->seen), "argv[%u] \"%.40s\"", i, v->str[i + 1]);
			return -1;
		}
	return 1;
}

/* proof_record - one record of the child, in order */
static int proof_record(struct tep_event *ev, struct tep_record *rec, int cpu, void *data)
{
	struct proof *p = data;
	struct capture *c = p->c;
	int tid = decode_pid(ev, rec);
	struct cap_val *v;

	(void)cpu;
	if (tid != p->child)
		return 0;
	if (!strcmp(ev->system, c->s->group)) {
		capture_store(c, tid, capture_decode(c, ev, rec));
		return 0;
	}
	if (!strncmp(ev->name, "sys_enter_", 10)) {
		p->enter[0] = decode_u64(ev, rec, "filename");
		p->enter[1] = c->kind == CAP_EXEC ? decode_u64(ev, rec, "argv") : 0;
		capture_enter(c, ev, rec);
		return 0;
	}
	v = capture_take(c, tid, p->enter, rec->ts);
	if (p->res == 0)
		p->res = proof_check(p, v);
	capture_free(v);
	return 0;
}

/* proof_child - wait for the go, then the known calls; never returns */
static void proof_child(int go, const char *path, char *const *argv, int cpu)
{
	cpu_set_t set;
	char b;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);	/* one CPU: its records in order */
	if (read(go, &b, 1) == 1) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd >= 0)
			close(fd);
		execve(path, argv, (char *const[]){ NULL });
	}
	_exit(0);
}

/* proof_events - the events the proof needs: the rung's, then entries and exits */
static int proof_events(struct capture *c, const char **sys, const char **name, char buf[][48])
{
	const char *const *calls = c->kind == CAP_OPEN ? open_calls : exec_calls;
	int n = 0, i, k;

	for (i = 0; i < c->nev; i++) {
		sys[n] = c->s->group;
		name[n++] = c->names[i];
	}
	for (i = 0; calls[i]; i++)
		for (k = 0; k < 2; k++) {
			snprintf(buf[2 * i + k], 48, "sys_%s_%s", k ? "exit" : "enter", calls[i]);
			if (!session_event_exists("syscalls", buf[2 * i + k]))
				continue;
			sys[n] = "syscalls";
			name[n++] = buf[2 * i + k];
		}
	return n;
}

/* prove - the rung set up in c delivers a child's known path and argv; 0 if so */
static int prove(struct capture *c)
{
	struct session *pc = &ladder_of(c)->proof;
	const char *sys[CAP_MAXEVENTS + 8], *name[CAP_MAXEVENTS + 8], *fmts[CAP_MAXEVENTS + 9];
	char buf[8][48], fmtbuf[CAP_MAXEVENTS + 8][160], path[96], token[32], filter[48], refused[140];
	char tag[] = "ftt-proof";	/* on the stack: every string in written memory */
	char *argv[4] = { path, tag, token, NULL };
	struct proof p = { .c = c, .path = path, .argv = (const char *const *)argv };
	int go[2], n, i, status;
	double t0;

	if (c->rung == CAP_SYSCALL)
		buf_size(pc->inst);
	n = proof_events(c, sys, name, buf);
	for (i = 0; i < n; i++) {
		snprintf(fmtbuf[i], sizeof(fmtbuf[i]), "%s:%s", sys[i], name[i]);
		fmts[i] = fmtbuf[i];
	}
	fmts[n] = NULL;
	format_load(c->s, fmts);
	snprintf(token, sizeof(token), "%08lx", (unsigned long)clock_s() ^ (unsigned long)getpid() * 2654435761u);
	/* a tab and a non-ASCII letter: a rung that alters bytes fails */
	snprintf(path, sizeof(path), "/proc/ftt-proof-%d-%s-\t\xc3\xa9", (int)getpid(), token);
	p.ptr[0] = (unsigned long)path;
	p.ptr[1] = (unsigned long)argv;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -1;
	i = sched_getcpu();
	p.child = fork();	/* the check's child: runs proof_child only */
	if (p.child == 0)
		proof_child(go[0], path, argv, i < 0 ? 0 : i);
	close(go[0]);
	if (p.child < 0) {
		close(go[1]);
		return -1;
	}
	snprintf(filter, sizeof(filter), "common_pid == %d", p.child);
	refused[0] = '\0';
	for (i = 0; i < n; i++) {
		/* the filter only spares the reading: the records are the child's anyway */
		tracefs_event_file_write(pc->inst, sys[i], name[i], "filter", filter);
		if (tracefs_event_enable(pc->inst, sys[i], name[i]) < 0 && !refused[0])
			snprintf(refused, sizeof(refused), "cannot enable %.40s:%.40s: %.40s", sys[i],
				 name[i], strerror(errno ? errno : EIO));
	}
	tracefs_instance_file_write(pc->inst, "tracing_on", "1");
	if (refused[0] || write(go[1], "g", 1) != 1)
		kill(p.child, SIGKILL);
	close(go[1]);
	t0 = clock_s();
	for (status = -1; !refused[0]; ) {
		if (status == -1 && waitpid(p.child, &status, WNOHANG) == 0)
			status = -1;
		tracefs_iterate_raw_events(c->s->tep, pc->inst, NULL, 0, proof_record, &p);
		if (p.res || clock_s() - t0 > PROOF_MS / 1000.0)
			break;
		usleep(2000);
	}
	if (status == -1) {
		kill(p.child, SIGKILL);
		waitpid(p.child, NULL, 0);
	}
	tracefs_instance_file_write(pc->inst, "tracing_on", "0");
	tracefs_event_disable(pc->inst, NULL, NULL);
	for (i = 0; i < n; i++)
		tracefs_event_file_write(pc->inst, sys[i], name[i], "filter", "0");
	tracefs_instance_file_write(pc->inst, "trace", "");
	capture_store(c, p.child, NULL);	/* what the child left goes */
	if (p.res == 1)
		return 0;
	return fail(c, c->rung, "failed its check: %s",
		    refused[0] ? refused : p.res ? p.seen : "no events from the check's calls");
}

/* ---- the ladder ---- */

/* ladder - the order rungs are tried in for a kind of call */
static const enum cap_rung *ladder(enum cap_kind kind)
{
	static const enum cap_rung open_order[] = {
		CAP_SYSCALL, CAP_EPROBE, CAP_KPROBE, CAP_UPROBE, CAP_NONE
	};
	static const enum cap_rung exec_order[] = {
		CAP_EPROBE, CAP_KPROBE, CAP_UPROBE, CAP_SYSCALL, CAP_NONE
	};

	return kind == CAP_OPEN ? open_order : exec_order;
}

/* setup - each rung's setup: make its events; 0 if it has them */
static int (*const setup[CAP_NONE])(struct capture *c) = {
	[CAP_SYSCALL] = setup_syscall,
	[CAP_EPROBE] = setup_eprobe,
	[CAP_KPROBE] = setup_kprobe,
	[CAP_UPROBE] = setup_uprobe,
};

/* forced_rung - the rung FTT_CAPTURE names, or CAP_NRUNGS if unset */
static enum cap_rung forced_rung(void)
{
	const char *e = getenv("FTT_CAPTURE");
	int r;

	if (!e || !*e)
		return CAP_NRUNGS;
	for (r = 0; r < CAP_NRUNGS; r++)
		if (!strcmp(e, rung_names[r]))
			return r;
	msg_die(EXIT_USAGE, "FTT_CAPTURE must be syscall, eprobe, kprobe, uprobe or none");
}

/* ladder_open - see ladder.h */
struct capture *ladder_open(struct session *s, enum cap_kind kind, unsigned int argc)
{
	struct ladder *l = xcalloc(1, sizeof(*l));
	struct capture *c = &l->c;
	const enum cap_rung *order = ladder(kind);
	enum cap_rung want = forced_rung();
	int have_pc = 0, i;
	size_t mark;

	capture_init(c, s, kind, argc);
	l->forced = want != CAP_NRUNGS;
	for (i = 0; order[i] != CAP_NONE; i++) {
		enum cap_rung r = order[i];

		if (l->forced && r != want)
			continue;
		mark = probes_mark();
		if (setup[r](c) == 0) {
			if (!have_pc)
				have_pc = session_companion(s, "proof", &l->proof) == 0;
			c->rung = r;
			if (!have_pc)
				fail(c, r, "no instance for its check");
			else if (prove(c) == 0)
				return c;
			l->refused = 1;
		}
		probes_unwind(mark);
		drop_events(c);
		if (l->forced)
			msg_die(EXIT_ERR, "FTT_CAPTURE=%s: %s", rung_names[r], l->why[r]);
	}
	c->rung = CAP_NONE;
	return c;
}

/* ladder_note - see ladder.h */
void ladder_note(const struct capture *c, int verbose)
{
	const struct ladder *l = ladder_of(c);
	static const char *const how[CAP_NRUNGS] = {
		"the syscall events' own strings",
		"event probes on the syscall entry tracepoints",
		"kprobes",
		"uprobes on the C library",
		"nothing: they show as [?]",
	};
	const char *what = c->kind == CAP_OPEN ? "paths" : "arguments";
	const enum cap_rung *order = ladder(c->kind);
	char why[480] = "";
	size_t at = 0;
	int i;

	if (!verbose) {
		/* one line, only when some rows may show [?] or the way in
		 * use is not the one a run would normally get */
		const char *tail = l->forced ? " (forced by FTT_CAPTURE)" :
				   l->refused ? " (a better way failed its check; -v says which)" :
				   "; -v says why";
		if (c->rung == CAP_UPROBE)
			msg_warn("%s taken by uprobes on the C library: calls that bypass it (static "
				 "programs, the dynamic loader) show [?]%s", what, tail);
		else if (c->rung == CAP_NONE)
			msg_warn("%s not taken on this kernel: rows show [?]%s", what, tail);
		else if (c->rung == CAP_SYSCALL && c->kind == CAP_EXEC)
			msg_warn("arguments not in this kernel's exec event: rows show the file and "
				 "[?]%s", tail);
		else if (c->rung != order[0] && (l->forced || l->refused))
			msg_warn("%s taken by %s%s", what, how[c->rung], tail);
		return;
	}
	msg_warn("%s taken at the call by %s (capture rung %s%s)", what, how[c->rung],
		 rung_names[c->rung],
		 l->forced ? ", forced" : c->rung != CAP_NONE ? ", checked at startup" : "");
	if (c->rung == CAP_UPROBE)
		msg_warn("calls that do not go through the C library's functions (static "
			 "programs, the dynamic loader) show as [?]");
	for (i = 0; order[i] != c->rung && order[i] != CAP_NONE; i++)
		if (l->why[order[i]][0] && at < sizeof(why))
			at += snprintf(why + at, sizeof(why) - at, "%s%s: %s", at ? "; " : "",
				       rung_names[order[i]], l->why[order[i]]);
	if (at)
		msg_warn("better rungs not used: %s", why);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* syscount - count system calls: by process name, by call, by error
 *
 * Every system call of every task (or of -p's process, or of the command
 * syscount runs, and what they start) is counted at raw_syscalls:sys_enter,
 * or with -x at raw_syscalls:sys_exit when it returns an error. Where the
 * kernel has hist triggers, the kernel counts: one trigger in the run's own
 * instance, keyed by the thread (common_pid), the call's number (-c) and the
 * return (-x), made paused and switched on and off by one write each, and
 * read at the end (and every -i seconds). It is trusted only after it counted
 * syscount's own known calls exactly at startup (prove). Elsewhere every call
 * is copied to user space and counted there, as stderr says. A process's name
 * is the name the trace's own records give its thread (comm.h): in user space
 * the name at each call; in the kernel, the thread's last name in the trace.
 * A call's name comes from the x86-64 table built in (names.h).
 * Overhead: in the kernel, a table update per call, nothing copied; in user
 * space, every call is copied through the ring buffer and counted here.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cgscope.h"
#include "child.h"
#include "clock.h"
#include "comm.h"
#include "decode.h"
#include "errlog.h"
#include "filter.h"
#include "format.h"
#include "kernel.h"
#include "khist.h"
#include "line.h"
#include "msg.h"
#include "names.h"
#include "options.h"
#include "output.h"
#include "reorder.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "table.h"
#include "task.h"
#include "who.h"
#include "xalloc.h"

static const char usage_text[] =
"USAGE: syscount [-chjvx] [-t top] [-i secs] [-p PID | -d seconds | command]\n"
"       syscount [-chjvx] [-t top] [-i secs] --exec CMD\n"
"       syscount [-chjvx] [-t top] [-i secs] [-d seconds] --cgroup PATH\n"
"       (each form also takes --show-cgroup)\n"
"       syscount                  # count by process name\n"
"                -c               # show counts by syscall name\n"
"                -h               # this usage message\n"
"                -v               # verbose: shows PID\n"
"                -x               # failed calls only, by error\n"
"                -p PID           # trace this PID only\n"
"                -d seconds       # duration of trace\n"
"                -t num           # show top number only\n"
"                -i seconds       # a summary every interval\n"
"                -j               # JSON Lines, one object per summary (also --json)\n"
"                --exec CMD       # run CMD by sh; trace it and all it starts\n"
"                --cgroup PATH    # only tasks in this cgroup v2, or below it\n"
"                --show-cgroup    # count by cgroup too (CGROUP: a container's\n"
"                                 # ID, else the path)\n"
"                command          # run and trace this command (and all it starts)\n"
"  eg,\n"
"        syscount                 # syscalls by process name\n"
"        syscount -c              # syscalls by syscall name\n"
"        syscount -d 5            # trace for 5 seconds\n"
"        syscount -cp 923         # syscall names for PID 923\n"
"        syscount -c ls           # syscall names for \"ls\"\n"
"        syscount -cx -d 5        # failed syscalls by name and error\n"
"        syscount -c -i 1         # syscall names, every second\n"
"        syscount -c --cgroup system.slice/docker-4f2a.scope\n"
"                                 # syscall names of one container\n"
"        syscount --show-cgroup   # calls by container and process name\n"
"        syscount -c --exec 'make -j2'\n"
"                                 # syscall names of a whole build\n"
"\n";

struct opts {
	double duration, interval;
	unsigned long top;
	int by_call, verbose, failed;
	pid_t pid;
	char **cmd;		/* the command and its arguments (NULL: none) */
	char *cmd_path;		/* the file it runs */
	char cmd_text[256];	/* the command as the banner shows it */
	const char *exec;	/* --exec: the text sh -c runs */
	const char *cgroup;	/* --cgroup PATH */
	int show_cg;		/* --show-cgroup */
	const char *force;	/* FTT_COUNT: user or kernel, for testing both ways */
};

static struct opts o;

/* parse - options and the command, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	size_t n = 0;
	int c, i;

	while ((c = opt_next(argc, argv, "+cd:hi:jp:t:vx", opt_scope_show, usage_text)) != -1) {
		switch (c) {
		case 'c': o.by_call = 1; break;
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'i': o.interval = opt_seconds(optarg, "-i"); break;
		case 'p': o.pid = opt_pid(optarg, "-p"); break;
		case 't': o.top = opt_ulong(optarg, "-t", 1, 1000000); break;
		case 'v': o.verbose = 1; break;
		case 'x': o.failed = 1; break;
		case OPT_EXEC: o.exec = optarg; break;
		case OPT_CGROUP: o.cgroup = optarg; break;
		case OPT_SHOW_CGROUP: o.show_cg = 1; break;
		}
	}
	if (o.cgroup && (o.pid || o.exec || optind < argc))
		opt_usage("use either --cgroup or %s, not both",
			  o.pid ? "-p" : o.exec ? "--exec" : "a command");
	if (o.exec && optind < argc)
		opt_usage("use either --exec or a command, not both");
	if (o.exec)
		snprintf(o.cmd_text, sizeof(o.cmd_text), "%s", o.exec);
	if (optind < argc) {
		o.cmd = argv + optind;
		o.cmd_path = child_find(o.cmd[0]);
		if (!o.cmd_path)
			opt_usage("command '%.40s': %s", o.cmd[0],
				  errno == EACCES ? "not allowed to run it" : "not found");
		for (i = optind; i < argc && n + 1 < sizeof(o.cmd_text); i++)
			n += (size_t)snprintf(o.cmd_text + n, sizeof(o.cmd_text) - n, "%s%s",
					      i > optind ? " " : "", argv[i]);
	}
	o.force = getenv("FTT_COUNT");
	if (o.force && *o.force && strcmp(o.force, "user") && strcmp(o.force, "kernel"))
		opt_usage("FTT_COUNT must be user or kernel");
	/* as the original: one of them, or none (everything, until Ctrl-C) */
	if ((o.pid > 0) + (o.duration > 0) + (o.cmd || o.exec) > 1)
		opt_usage("pick one of -p PID, -d seconds and a command (or --exec)");
}

/* ---- counts ---------------------------------------------------------- */

/*
 * one count: the calls of thread tid (0 when the rows do not need it) of
 * process pid (-v in user space; 0: not known) under the name comm (user
 * space; NULL: named when printed, or not known), of call nr (-c) in the
 * numbers of abi, returning error err (-x). now: calls so far; last: at the
 * last summary
 */
struct cnt {
	int tid, pid, err, abi;
	long nr;
	const char *comm;	/* interned: compared by pointer */
	const char *cg;		/* --show-cgroup: the task's cgroup at the call (cgscope's, one
				 * copy a path: compared by pointer; NULL: not known) */
	unsigned long long now, last;
};

static struct table *counts;	/* (comm, nr and tid and err) -> struct cnt */
static struct cnt **all;	/* every count, for the summaries */
static size_t nall, capall;
static struct table *strings;	/* interned names: (hash, 0) -> char * */

/* intern - the one copy of name s */
static const char *intern(const char *s)
{
	unsigned long long h = 1469598103934665603ULL;
	struct table_pos p;
	const unsigned char *c;
	char *v;

	for (c = (const unsigned char *)s; *c; c++)
		h = (h ^ *c) * 1099511628211ULL;
	for (v = table_at(strings, h, 0, &p); v; v = table_next(&p))
		if (!strcmp(v, s))
			return v;
	v = xstrdup(s);
	table_add(strings, h, 0, v);
	return v;
}

/* count - the count of (tid, pid, comm, cg, nr, err, abi), made at 0 if new */
static struct cnt *count(int tid, int pid, const char *comm, const char *cg, long nr, int err,
			 int abi)
{
	unsigned long long a = (unsigned long long)(uintptr_t)comm ^ (unsigned long long)pid << 40 ^
			       (unsigned long long)(uintptr_t)cg << 7;
	unsigned long long b = (unsigned long long)(unsigned int)nr << 32 |
			       ((unsigned int)tid ^ (unsigned int)err << 22 ^ (unsigned int)abi << 30);
	struct table_pos p;
	struct cnt *c;

	for (c = table_at(counts, a, b, &p); c; c = table_next(&p))
		if (c->tid == tid && c->pid == pid && c->comm == comm && c->cg == cg && c->nr == nr &&
		    c->err == err && c->abi == abi)
			return c;
	c = xcalloc(1, sizeof(*c));
	*c = (struct cnt){ tid, pid, err, abi, nr, comm, cg, 0, 0 };
	table_add(counts, a, b, c);
	if (nall == capall) {
		capall = capall ? 2 * capall : 256;
		all = xreallocarray(all, capall, sizeof(*all));
	}
	all[nall++] = c;
	return c;
}

/* ---- the kernel's counts (hist trigger) ------------------------------- */

static struct session *sess;
static pid_t child_pid;		/* the command's process */
static int in_kernel;		/* the kernel counts; else user space */
static int mono;		/* the trace clock is the mono clock (reorder_init) */
static int show_procs;		/* the rows show processes (not -c alone) */
static struct tep_event *ev_exec, *ev_new;	/* a thread's process or program changes */
static char trig[512];		/* the trigger, as made */
static int forced;		/* FTT_COUNT=kernel: no user space */
static long long dropped;	/* calls the kernel's table had no room for */

/* ev_name - the event counted: a call's entry, or (-x) its return */
static const char *ev_name(void)
{
	return o.failed ? "sys_exit" : "sys_enter";
}

/* table_size - entries of the kernel's table (keyed by thread): what the keys can make */
static int table_size(void)
{
	return o.by_call ? 65536 : 32768;
}

/* trigger - the hist trigger command: paused, the keys the rows need (with
 * id always: the proof needs it), and the filter `who` */
static void trigger(char *buf, size_t len, int with_id, const char *who)
{
	snprintf(buf, len, "hist:keys=common_pid%s%s:vals=hitcount:size=%d:pause if %s%s",
		 o.by_call || with_id ? ",id" : "", o.failed ? ",ret" : "", table_size(),
		 o.failed ? "ret < 0 && " : "", who);
}

/* what one hist entry holds */
struct entry {
	int tid, err;
	long nr;
};

/* entry_keys - the keys of a hist entry (khist_read's text); -1 if one is missing */
static int entry_keys(const char *keys, int with_id, struct entry *e)
{
	unsigned long long v;

	*e = (struct entry){ 0, 0, 0 };
	if (khist_key(keys, "common_pid", &v) < 0)
		return -1;
	e->tid = (int)v;
	if (o.by_call || with_id) {
		if (khist_key(keys, "id", &v) < 0)
			return -1;
		e->nr = (long)v;
	}
	if (o.failed) {
		if (khist_key(keys, "ret", &v) < 0)
			return -1;
		e->err = (int)-(long long)v;
	}
	return 0;
}

/* proof_match - khist_prove's test of an entry: our known call's (our PID's, EBADF's)? */
static int proof_match(const char *keys, void *ctx)
{
	struct entry e;

	(void)ctx;
	if (entry_keys(keys, 1, &e) < 0)
		return -1;
	return e.nr == (o.failed ? SYS_close : SYS_getppid) && e.tid == getpid() &&
	       (!o.failed || e.err == EBADF);
}

/* own_calls - n calls the proof knows: getppid(), or with -x close(-1), which fails with EBADF */
static void own_calls(int n)
{
	int i;

	for (i = 0; i < n; i++)
		syscall(o.failed ? SYS_close : SYS_getppid, -1);
}

/*
 * prove - the kernel counts exactly: a trigger as the run's, on our own calls
 * (khist_prove). NULL if so (the trigger is gone again), else why not, for stderr.
 */
static const char *prove(void)
{
	char cmd[512], self[32];
	const char *no;

	snprintf(self, sizeof(self), "common_pid == %d", (int)getpid());
	trigger(cmd, sizeof(cmd), 1, self);
	no = khist_prove(sess, &(struct khist_proof){ "raw_syscalls", ev_name(), cmd, own_calls,
						     proof_match, NULL });
	if (no && !no[0]) {
		errlog_warn(sess->inst, "%s: the kernel refused a hist trigger on raw_syscalls:%s",
			    forced ? "FTT_COUNT=kernel" : "counting in user space", ev_name());
		if (forced)
			exit(EXIT_ERR);
	}
	return no;
}

/* on_entry - khist_read's callback: an entry of the run's trigger */
static void on_entry(const char *info, const char *keys, unsigned long long hits, void *ctx)
{
	struct entry e;

	(void)info, (void)ctx;
	if (entry_keys(keys, o.by_call, &e) == 0)
		count(e.tid, 0, NULL, NULL, e.nr, e.err, ABI_NATIVE)->now = hits;
}

/* read_kernel - the kernel's counts so far into the counts' `now` */
static void read_kernel(void)
{
	long long d = khist_read(sess, "raw_syscalls", ev_name(), on_entry, NULL);

	if (d < 0)
		msg_die(EXIT_ERR, "cannot read the kernel's counts (events/raw_syscalls/%s/hist):",
			ev_name());
	dropped = d;
}

/* counting - switch the kernel's counting on or off (one write) */
static void counting(int on)
{
	if (khist_pause(sess, "raw_syscalls", ev_name(), trig, !on) == 0)
		return;
	if (on) {
		errlog_warn(sess->inst, "cannot start counting (events/raw_syscalls/%s/trigger)",
			    ev_name());
		exit(EXIT_ERR);
	}
	errlog_warn(sess->inst, "cannot stop counting: the counts go on while they are read");
}

/* ---- user space: every call's record -------------------------------- */

/* on_task - a new thread or an exec, in time order: the thread's process,
 * and which numbers its calls use */
static void on_task(const struct stream_rec *r)
{
	char path[4096];

	if (r->ev == ev_new) {
		task_new(decode_pid(r->ev, r->rec), (int)decode_s64(r->ev, r->rec, "pid"),
			 decode_u64(r->ev, r->rec, "clone_flags"), r->rec->ts);
		/* --cgroup: the new task's cgroup, in time order (rows that name
		 * processes go through comm.h, which gives it on its way in) */
		if (!show_procs)
			cgscope_newtask(r);
	} else	/* a path cut short or empty opens no file: not known */
		task_exec((int)decode_s64(r->ev, r->rec, "pid"),
			  (int)decode_s64(r->ev, r->rec, "old_pid"),
			  decode_str(r->ev, r->rec, "filename", path, sizeof(path)), r->rec->ts);
}

/* on_gap - events were lost: a new thread or an exec may be among them */
static void on_gap(int cpu, unsigned long long ts, void *ctx)
{
	(void)cpu, (void)ts, (void)ctx;
	task_gap(mono);
}

/* on_call - one call's record (in time order with its thread's name, where
 * needed), or a fork or exec */
static void on_call(const struct stream_rec *r)
{
	const char *comm = NULL;
	long long ret = 0;
	long nr = 0;
	int tid = 0, pid = 0, err = 0, abi = ABI_NATIVE;

	if (r->ev == ev_exec || r->ev == ev_new) {
		on_task(r);
		return;
	}
	if (o.failed) {
		ret = decode_s64(r->ev, r->rec, "ret");
		if (ret >= 0)
			return;		/* the kernel's filter lets none through */
		err = (int)-ret;
	}
	tid = decode_pid(r->ev, r->rec);
	if (!show_procs && !cgscope_in(tid, r->rec->ts))
		return;		/* --cgroup: (comm.h asks it of rows that name processes) */
	if (o.by_call) {
		nr = (long)decode_s64(r->ev, r->rec, "id");
		abi = task_abi(tid, r->rec->ts);
	}
	if (o.verbose)
		pid = task_tgid(tid, r->rec->ts);
	if (show_procs && r->comm)
		comm = intern(r->comm);
	if (!show_procs || comm)
		tid = 0;		/* one count per call, or per process and name */
	count(tid, pid, comm, o.show_cg ? cgscope_cgroup(decode_pid(r->ev, r->rec), r->rec->ts) : NULL,
	      nr, err, abi)->now++;
}

/* ---- summaries ------------------------------------------------------- */

/* a printed row: what its columns show, and the calls */
struct row {
	const char *comm;	/* NULL: not named (shown as :TID) */
	int tid, pid, err, abi;	/* pid: -v's process (0: not known) */
	long nr;
	unsigned long long n;
	const char *cg;		/* --show-cgroup: NULL, not known */
};

/* cmp_key - rows by what they show, so that equal ones are next to each other */
static int cmp_key(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	int c;

	if (!a->cg != !b->cg)
		return a->cg ? -1 : 1;
	if (a->cg && (c = strcmp(a->cg, b->cg)))
		return c;
	if (!a->comm != !b->comm)
		return a->comm ? -1 : 1;
	if (a->comm && (c = strcmp(a->comm, b->comm)))
		return c;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->abi != b->abi)
		return a->abi < b->abi ? -1 : 1;
	if (a->nr != b->nr)
		return a->nr < b->nr ? -1 : 1;
	return a->err < b->err ? -1 : a->err > b->err;
}

/* cmp_count - ascending count, then by what the row shows (the original: top N last) */
static int cmp_count(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	return cmp_key(a, b);
}

/* the text of a call's numbers when not the native ones */
static const char *const abi_text[] = { "64-bit", "32-bit", "unknown" };

/* call_name - the text of call nr: its name, or syscall_N; a 32-bit
 * program's calls as 32bit:N, a task's whose numbers are not known as ?:N */
static const char *call_name(long nr, int abi, char *buf, size_t len)
{
	const char *name = abi == ABI_NATIVE ? names_syscall(nr) : NULL;

	if (name)
		return name;
	snprintf(buf, len, "%s%ld", abi == ABI_NATIVE ? "syscall_" :
		 abi == ABI_COMPAT ? "32bit:" : "?:", nr);
	return buf;
}

/* header - the column headers of the text */
static void header(void)
{
	if (o.show_cg)
		printf("%-12s ", "CGROUP");
	if (o.verbose)
		printf("%-6s ", "PID");
	if (!o.by_call || o.verbose)
		printf("%-16s ", "COMM");
	if (o.by_call)
		printf("%-17s ", "SYSCALL");
	if (o.failed)
		printf("%-15s ", "ERROR");
	printf("%8s\n", "COUNT");
}

/* put_row - one row: text columns, or a JSON object of the "counts" array */
static void put_row(struct line *l, const struct row *r)
{
	char buf[32], err[32];

	if (out_json)
		col_open(l, NULL, '{');
	if (o.show_cg) {
		cgscope_col(l, r->cg);
		line_add(l, " ");
	}
	if (!o.by_call || o.verbose) {
		/* the PID column with -v: the process, or ? */
		if (o.verbose && r->pid) {
			col_dec(l, "pid", r->pid, ALIGN_LEFT, 6);
			line_add(l, " ");
		} else if (o.verbose || out_json) {
			col_null(l, "pid", "?", ALIGN_LEFT, 6);
			line_add(l, o.verbose ? " " : "");
		}
		if (r->comm) {
			col_str(l, "comm", r->comm, ALIGN_LEFT, 16, -1);
		} else {	/* the thread, in JSON as "tid" */
			snprintf(buf, sizeof(buf), ":%d", r->tid);
			col_null(l, "comm", buf, ALIGN_LEFT, 16);
			if (out_json)
				col_dec(l, "tid", r->tid, ALIGN_LEFT, 0);
		}
		line_add(l, " ");
	}
	if (o.by_call) {
		if (out_json) {
			col_str(l, "syscall", r->abi == ABI_NATIVE ? names_syscall(r->nr) : NULL,
				ALIGN_LEFT, 0, -1);
			col_dec(l, "nr", r->nr, ALIGN_LEFT, 0);
			if (r->abi != ABI_NATIVE)	/* the numbers are another table's */
				col_str(l, "abi", r->abi == ABI_COMPAT ? abi_text[r->abi] : NULL,
					ALIGN_LEFT, 0, -1);
		} else {
			line_str(l, call_name(r->nr, r->abi, buf, sizeof(buf)), ALIGN_LEFT, 17, -1);
			line_add(l, " ");
		}
	}
	if (o.failed) {
		col_str(l, "error", names_errno(r->err, err, sizeof(err)), ALIGN_LEFT, 15, -1);
		line_add(l, " ");
		if (out_json)
			col_dec(l, "errno", r->err, ALIGN_LEFT, 0);
	}
	col_dec(l, "count", (long long)r->n, ALIGN_RIGHT, 8);
	if (out_json)
		col_close(l);
	else
		line_add(l, "\n");
}

/*
 * rows - the counts since the last summary, as rows: merged by what they
 * show, sorted by count; *n of them (the caller frees). In the kernel a
 * thread's counts are named here, by its last name in the trace.
 */
static struct row *rows(size_t *n)
{
	struct row *v = xcalloc(nall + 1, sizeof(*v));
	size_t i, k = 0;

	for (i = 0; i < nall; i++) {
		struct cnt *c = all[i];
		struct row *r = &v[k];

		if (c->now == c->last)
			continue;
		*r = (struct row){ c->comm, c->tid, c->pid, c->err, c->abi, c->nr,
				   c->now - c->last, c->cg };
		c->last = c->now;
		if (in_kernel) {	/* counted by thread ID: one task, one program throughout? */
			r->abi = o.by_call ? (int)task_abi_throughout(c->tid) : ABI_NATIVE;
			r->pid = o.verbose ? task_tgid_throughout(c->tid) : 0;
			if (show_procs && comm_now(c->tid))
				r->comm = intern(comm_now(c->tid));
		}
		if (r->comm || !show_procs)
			r->tid = 0;
		k++;
	}
	qsort(v, k, sizeof(*v), cmp_key);
	for (i = 0, *n = 0; i < k; i++) {
		if (*n && !cmp_key(&v[*n - 1], &v[i]))
			v[*n - 1].n += v[i].n;
		else
			v[(*n)++] = v[i];
	}
	qsort(v, *n, sizeof(*v), cmp_count);
	return v;
}

/* summary - print the counts since the last summary: every row, or the top N */
static void summary(void *arg)
{
	static struct line line;
	unsigned long long t = clock_ns();
	size_t n, i, first;
	struct row *v;

	(void)arg;
	if (in_kernel)
		read_kernel();
	v = rows(&n);
	first = o.top && n > o.top ? n - o.top : 0;
	if (out_json) {
		line_begin(&line, t);
		col_open(&line, "counts", '[');
		for (i = first; i < n; i++) {
			if (line.n + 256 > sizeof(line.buf)) {
				/* a full line goes on in another object, with the same time */
				line_put(&line);
				line_begin(&line, t);
				col_open(&line, "counts", '[');
			}
			put_row(&line, &v[i]);
		}
		line_put(&line);
	} else {
		if (o.interval) {
			char buf[32];
			time_t now = time(NULL);

			strftime(buf, sizeof(buf), "%H:%M:%S", localtime(&now));
			printf("\n[%s]\n", buf);
		}
		header();
		for (i = first; i < n; i++) {
			put_row(&line, &v[i]);
			line_put(&line);
		}
	}
	free(v);
	fflush(stdout);
}

/* ---- setup ----------------------------------------------------------- */

/* why the calls are counted in user space, said once setup has worked (NULL: in the kernel, or said already) */
static const char *user_why;

/*
 * choose - count in the kernel if it can, proven; else say on stderr why
 * not. FTT_COUNT=user or =kernel forces one (kernel: dies if it cannot).
 */
static void choose(void)
{
	const char *why;

	if (o.force && !strcmp(o.force, "user")) {
		user_why = "FTT_COUNT=user";
		return;
	}
	forced = o.force && !strcmp(o.force, "kernel");
	/* the kernel counts by thread, whatever cgroup it is in at each call */
	if ((o.cgroup || o.show_cg) && forced)
		msg_die(EXIT_ERR, "FTT_COUNT=kernel: %s follows each call's task here",
			o.cgroup ? "--cgroup" : "--show-cgroup");
	if (o.cgroup || o.show_cg) {
		user_why = o.cgroup ? "--cgroup follows each call's task here" :
			   "--show-cgroup follows each call's task here";
		return;
	}
	why = kernel_has(KF_HIST) ? prove() : kernel_lacks(KF_HIST);
	if (!why) {
		in_kernel = 1;
		return;
	}
	if (forced)
		msg_die(EXIT_ERR, "FTT_COUNT=kernel: %s", why);
	if (why[0])
		user_why = why;
}

/* setup - the count in the kernel (paused), or the records for user space;
 * names from the trace's records where the rows show them */
static void setup(void)
{
	const char *formats[12] = { COMM_FORMATS, TASK_FORMATS, "raw_syscalls:sys_enter",
				    "raw_syscalls:sys_exit" };
	char *self = filter_build(0, NULL, NULL), *f = NULL;
	struct tep_event *evs[4] = { NULL, NULL, NULL, NULL };
	stream_fn fn = show_procs ? comm_row : on_call;
	size_t n = 0;

	formats[cgscope_formats(formats, COMM_NR_FORMATS + 4)] = NULL;
	format_load(sess, formats);
	mono = reorder_init(sess, cgscope_need()) == 1;
	reorder_on_gap(on_gap, NULL);
	who_events(sess, o.pid ? o.pid : child_pid);
	if (in_kernel) {
		trigger(trig, sizeof(trig), 0, self);
		if (khist_add(sess, "raw_syscalls", ev_name(), trig) < 0) {
			errlog_warn(sess->inst, "the kernel refused the hist trigger on "
				    "raw_syscalls:%s", ev_name());
			exit(EXIT_ERR);
		}
	} else {
		f = filter_build(0, NULL, o.failed ? "ret < 0" : NULL);
		evs[n] = show_procs ? stream_follow(sess, "raw_syscalls", ev_name(), f, fn, NULL) :
				 reorder_follow(sess, "raw_syscalls", ev_name(), f, fn, NULL);
		if (!evs[n++])
			msg_die(EXIT_ERR, "cannot read the format of raw_syscalls:%s", ev_name());
	}
	/* the new threads and execs that say which process a thread is of, and
	 * which numbers its calls use */
	evs[n++] = ev_new = show_procs ? stream_follow(sess, "task", "task_newtask", self, fn, NULL)
				  : reorder_follow(sess, "task", "task_newtask", self, fn, NULL);
	evs[n++] = ev_exec = show_procs ? stream_follow(sess, "sched", "sched_process_exec", NULL, fn, NULL)
				   : reorder_follow(sess, "sched", "sched_process_exec", NULL, fn, NULL);
	if (!ev_new || !ev_exec)
		msg_die(EXIT_ERR, "cannot follow task:task_newtask and sched:sched_process_exec");
	if (show_procs) {
		comm_rows(sess, evs, 0, on_call, NULL);
		/* a new task's cgroup as it is made, and whatever the scope,
		 * which process a thread is of and which numbers it uses */
		comm_aside(ev_new, cgscope_newtask);
		comm_aside(ev_exec, NULL);
	}
	cgscope_follow(sess, 1);	/* --cgroup: its members (on_task or comm.h give it new tasks) */
	free(f);
	free(self);
}

/* banner - the original's "Tracing..." line for the mode */
static void banner(void)
{
	char ttext[48] = "", itext[48] = "", ctext[112] = "";
	const char *what = o.failed ? " failed calls" : "";

	if (o.top)
		snprintf(ttext, sizeof(ttext), " Top %lu only.", o.top);
	if (o.interval)
		snprintf(itext, sizeof(itext), " Output every %g seconds.", o.interval);
	if (o.cgroup)
		snprintf(ctext, sizeof(ctext), " in cgroup %.80s", o.cgroup);
	if (o.duration > 0)
		out_banner("Tracing%s%s for %g seconds.%s%s..\n", what, ctext, o.duration, ttext,
			   itext);
	else if (o.pid)
		out_banner("Tracing%s%s PID %d.%s%s.. Ctrl-C to end.\n", what, o.failed ? " of" : "",
			   (int)o.pid, ttext, itext);
	else if (child_pid)
		out_banner("Tracing%s while running: \"%s\".%s%s..\n", what, o.cmd_text, ttext,
			   itext);
	else
		out_banner("Tracing%s%s.%s%s.. Ctrl-C to end.\n", what, ctext, ttext, itext);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	msg_init("syscount");
	sig_init();
	parse(argc, argv);
	if (o.cgroup)
		cgscope_open(o.cgroup);
	if (o.show_cg)
		cgscope_show();
	if (o.cmd)
		child_pid = child_start(o.cmd_path, o.cmd);
	else if (o.exec)
		child_pid = child_shell(o.exec);
	session_tracefs();
	if (!session_event_exists("raw_syscalls", ev_name()))
		msg_die(EXIT_ERR, "tracepoint raw_syscalls:%s not found (kernel without "
			"CONFIG_FTRACE_SYSCALLS?)", ev_name());
	/* the rows name processes; the kernel counts by thread always, and the
	 * rows take each thread's process, name and call numbers at the end */
	show_procs = !o.by_call || o.verbose;
	counts = table_new(free);
	strings = table_new(free);

	sess = session_open("syscount");
	choose();
	task_start();		/* the threads that run, before their events are traced */
	setup();
	if (user_why)
		msg_warn("counting in user space (%s): every call is copied", user_why);

	/* counting is on before the banner, the command let go after it */
	stream_begin(sess, 0);
	task_settle();		/* the threads changed since task_start: not known */
	cgscope_started();
	if (in_kernel)
		counting(1);
	banner();
	if (child_pid)
		child_go();

	stream_run(sess, o.duration, o.interval, summary, NULL);
	if (in_kernel)
		counting(0);

	/* the last (or only) summary, also when ended early by Ctrl-C */
	if (!out_broken())
		summary(NULL);
	out_ending();
	if (!in_kernel)
		stream_report_lost(sess);	/* calls not counted */
	else if (stream_lost(sess))
		msg_warn("WARNING: %llu events lost (kernel buffer full): records that name "
			 "threads or start programs, not calls; a thread not named since shows "
			 "as :TID, one whose program is not known its calls as ?:N",
			 stream_lost(sess));
	cgscope_report("calls");
	if (dropped > 0)
		msg_warn("%lld calls were not counted: the kernel's table (%d entries) was full",
			 dropped, table_size());
	if (child_pid && !child_ended())
		msg_warn("the command (PID %d) or a process it started still runs; calls from "
			 "now on are not counted",
			 (int)child_pid);
	return EXIT_OK;
}

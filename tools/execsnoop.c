/* SPDX-License-Identifier: GPL-2.0-only */
/* execsnoop - trace exec()s: new processes with PID, PPID and arguments
 *
 * sched:sched_process_exec reports every successful exec, with the file the
 * kernel ran, and sched:sched_process_fork gives the parent: the process of
 * the forking thread (tgid_at), known from an exec or a task_newtask seen
 * while tracing (a new task is a process of its own, or with CLONE_THREAD a
 * thread of its creator's), or from /proc read at startup; else ?. No event
 * carries the UID: -U shows ?. The arguments are
 * the ones taken in the kernel when exec was called, by the best capture rung
 * this kernel has that proves itself at startup (ladder.h: event probes,
 * kprobes, uprobes on the C library); an exec it did not take shows the file
 * and [?], never arguments read later. Failed execs (-x) come from
 * sys_exit_execve/_execveat, filtered in the kernel to errors. Overhead is
 * small: exec rates are low, and each one costs a few events, each fork
 * two; startup one listing of /proc's threads.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calls.h"
#include "capture.h"
#include "cgscope.h"
#include "child.h"
#include "decode.h"
#include "filter.h"
#include "ladder.h"
#include "line.h"
#include "msg.h"
#include "names.h"
#include "options.h"
#include "output.h"
#include "pidmap.h"
#include "reorder.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "tgid.h"
#include "who.h"
#include "xalloc.h"

static const char usage_text[] =
"USAGE: execsnoop [-hjrtvxTU] [-a argc] [-d secs] [-P PPID] [--exec CMD] [--pcomm]\n"
"                 [--cgroup PATH] [--show-cgroup] [name]\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -a argc         # max args to show (default 20)\n"
"                 -P PPID         # only the children of this parent process\n"
"                 --exec CMD      # run CMD by sh; trace it and all it starts\n"
"                 --cgroup PATH   # only tasks in this cgroup v2, or below it\n"
"                 --pcomm         # include the parent's name (PCOMM)\n"
"                 --show-cgroup   # include each task's cgroup (CGROUP: a\n"
"                                 # container's ID, else the path)\n"
"                 -r              # include re-execs (the default: accepted)\n"
"                 -t              # include time (seconds)\n"
"                 -T              # include wall-clock time (HH:MM:SS)\n"
"                 -U              # include UID\n"
"                 -v              # say how arguments are taken, and why\n"
"                 -x              # include failed exec()s, with the error\n"
"                 -j              # JSON Lines, one object per exec (also --json)\n"
"                 -h              # this usage message\n"
"                 name            # process name to match (REs allowed)\n"
"  eg,\n"
"       execsnoop                 # watch exec()s live (unbuffered)\n"
"       execsnoop -d 1            # trace 1 sec (buffered)\n"
"       execsnoop grep            # trace process names containing grep\n"
"       execsnoop 'udevd$'        # process names ending in \"udevd\"\n"
"       execsnoop -x              # also show exec()s that failed\n"
"       execsnoop -P 1234         # what the process 1234 starts\n"
"       execsnoop --cgroup system.slice/docker-4f2a.scope\n"
"                                 # what runs in one container\n"
"       execsnoop --show-cgroup   # what runs, and in which container\n"
"       execsnoop --exec ./deploy.sh\n"
"                                 # every program a script runs\n"
"\n";

#define MAX_ARGC	32

struct opts {
	double duration;
	unsigned int argc;
	int times, hms, uids, fails, verbose, pcomm, show_cg;
	pid_t ppid, exec_pid;	/* -P; --exec: the command's process */
	const char *name, *exec, *cgroup;
	regex_t re;
};

static struct opts o = { .argc = 20 };

#define OPT_PCOMM 0x200

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "exec", required_argument, NULL, OPT_EXEC },
		{ "pcomm", no_argument, NULL, OPT_PCOMM },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "show-cgroup", no_argument, NULL, OPT_SHOW_CGROUP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = opt_next(argc, argv, "a:d:hjP:rtvxTU", longs, usage_text)) != -1) {
		switch (c) {
		case 'a': o.argc = opt_ulong(optarg, "-a", 1, MAX_ARGC); break;
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'P': o.ppid = opt_pid(optarg, "-P"); break;
		case 'r': break;	/* re-execs are always shown */
		case 't': o.times = 1; break;
		case 'T': o.hms = 1; break;
		case 'U': o.uids = 1; break;
		case 'v': o.verbose = 1; break;
		case 'x': o.fails = 1; break;
		case OPT_EXEC: o.exec = optarg; break;
		case OPT_PCOMM: o.pcomm = 1; break;
		case OPT_CGROUP: o.cgroup = optarg; break;
		case OPT_SHOW_CGROUP: o.show_cg = 1; break;
		}
	}
	o.name = opt_last_regex(argc, argv, &o.re, "name", "one process name at most");
	opt_apart(o.ppid, "-P", o.exec != NULL, "--exec");
	opt_apart(o.exec != NULL, "--exec", o.cgroup != NULL, "--cgroup");
}

static struct capture *cap;
static struct calls *pending;		/* TID -> the pointers of its exec */
static struct pidmap *parent;
static struct pidmap *forker;		/* --pcomm: a new task -> the thread that forked it */
static struct pidmap *tname;		/* --pcomm: a thread -> its name as of now */
static unsigned long long unknown;	/* rows whose arguments were not taken */
static unsigned long long orphans;	/* -P: execs whose parent was not known */
static int mono;			/* timestamps on the mono clock */

/* comm_of - the name the kernel gives a task that runs `path`: its base name */
static void comm_of(const char *path, char *comm, size_t len)
{
	const char *base = strrchr(path, '/');

	snprintf(comm, len, "%.*s", (int)len - 1, base ? base + 1 : path);
}

/* print_line - one exec: [TIME] [TIMEs] [UID] PID PPID [PCOMM] [RET] ARGS;
 * the arguments taken at the call, else the file and [?]; err: a failed
 * exec's; ppid <= 0, uid < 0 or pcomm NULL: unknown */
static void print_line(unsigned long long ts, int pid, int ppid, const char *pcomm, long uid,
		       const char *err, const struct cap_val *v, const char *path)
{
	const char *cg = cgscope_cgroup(pid, ts);	/* in time order, as it is called */
	static struct line line;
	int i, first = v && v->args_known ? 1 : 0, last = v ? v->nstr : 0;

	if (!first && v)	/* the file, and arguments unknown */
		path = v->str[0];
	if (!path && v)
		path = v->str[0];
	line_times(&line, ts, mono, o.hms, o.times);
	if (o.uids && uid < 0)
		col_null(&line, "uid", "?", ALIGN_RIGHT, 6);
	else if (o.uids)
		col_dec(&line, "uid", uid, ALIGN_RIGHT, 6);
	if (o.uids)
		line_add(&line, " ");
	col_dec(&line, "pid", pid, ALIGN_RIGHT, 6);
	line_add(&line, " ");
	if (ppid <= 0)		/* unknown: ?, not the original's 0, which is a PID */
		col_null(&line, "ppid", "?", ALIGN_RIGHT, 6);
	else
		col_dec(&line, "ppid", ppid, ALIGN_RIGHT, 6);
	line_add(&line, " ");
	if (o.pcomm && pcomm)
		col_str(&line, "pcomm", pcomm, ALIGN_LEFT, 16, 16);
	else if (o.pcomm)
		col_null(&line, "pcomm", "?", ALIGN_LEFT, 16);
	if (o.pcomm)
		line_add(&line, " ");
	if (o.fails) {
		col_num(&line, "ret", err ? -1 : 0, err ? err : "0", ALIGN_LEFT, 7);
		if (out_json)		/* JSON only: the text's RET is the name */
			col_str(&line, "error", err, ALIGN_LEFT, 0, -1);
		line_add(&line, " ");
	}
	if (o.show_cg) {
		cgscope_col(&line, cg);
		line_add(&line, " ");
	}
	if (first) {
		if (out_json)		/* JSON only: the text shows the arguments */
			col_str(&line, "file", path && path[0] ? path : NULL, ALIGN_LEFT, 0, -1);
		col_open(&line, "args", '[');
		for (i = first; i < last; i++) {
			if (i > first)
				line_add(&line, " ");
			col_str(&line, NULL, v->str[i], ALIGN_LEFT, 0, -1);
		}
		col_close(&line);
		col_bool(&line, "more", v->more, " [...]");
		if (out_json)
			col_bool(&line, "cut", v->cut, "");
	} else {
		unknown++;
		col_str(&line, "file", path && path[0] ? path : NULL, ALIGN_LEFT, 0, -1);
		col_bool(&line, "cut", v && v->cut, " [cut]");
		if (path && path[0])
			line_add(&line, " ");
		col_null(&line, "args", "[?]", ALIGN_LEFT, 0);
		col_bool(&line, "more", 0, "");
	}
	line_add(&line, "\n");
	line_put(&line);
}

/* name_ok - the process name matches the user's regular expression */
static int name_ok(const char *comm)
{
	return !o.name || regexec(&o.re, comm, 0, NULL, 0) == 0;
}

/* parent_ok - -P's parent is ppid (0: not known, so neither shown nor
 * guessed, but counted) */
static int parent_ok(int ppid)
{
	if (!o.ppid || ppid == o.ppid)
		return 1;
	if (!ppid)
		orphans++;
	return 0;
}

/* on_newtask - a new task's process, known from its creation on (tgid_new),
 * and (--cgroup) its cgroup */
static void on_newtask(const struct stream_rec *r)
{
	cgscope_newtask(r);
	tgid_new(decode_pid(r->ev, r->rec), (int)decode_s64(r->ev, r->rec, "pid"),
		 decode_u64(r->ev, r->rec, "clone_flags"), r->rec->ts);
}

/* name_is - --pcomm: thread tid is named what r's field `field` holds */
static void name_is(int tid, const struct stream_rec *r, const char *field)
{
	char name[16];

	if (tid <= 0)
		return;
	decode_str(r->ev, r->rec, field, name, sizeof(name));
	if (name[0])
		pidmap_put(tname, tid, xstrdup(name));
	else		/* not in the record: no longer known */
		free(pidmap_take(tname, tid));
}

/* on_fork - the new task's parent: the forking thread's process, if known */
static void on_fork(const struct stream_rec *r)
{
	int child = (int)decode_s64(r->ev, r->rec, "child_pid");
	int ppid = tgid_at((int)decode_s64(r->ev, r->rec, "parent_pid"), r->rec->ts);

	if (ppid)
		pidmap_put(parent, child, (void *)(long)ppid);
	else
		pidmap_take(parent, child);
	if (o.pcomm) {
		int ptid = (int)decode_s64(r->ev, r->rec, "parent_pid");

		pidmap_put(forker, child, (void *)(long)ptid);
		name_is(ptid, r, "parent_comm");
		name_is(child, r, "child_comm");
	}
}

/* on_rename - --pcomm: a thread's new name (prctl, /proc/PID/comm, exec) */
static void on_rename(const struct stream_rec *r)
{
	name_is((int)decode_s64(r->ev, r->rec, "pid"), r, "newcomm");
}

/* pcomm_of - --pcomm: the name, as of now, of the thread that forked task tid;
 * NULL if not known */
static const char *pcomm_of(int tid)
{
	long ptid = (long)pidmap_get(forker, tid);

	return ptid > 0 ? pidmap_get(tname, (int)ptid) : NULL;
}

/* on_enter - an exec is called: its pointers wait for its end */
static void on_enter(const struct stream_rec *r)
{
	unsigned long long *ptr = xmalloc(2 * sizeof(*ptr));

	ptr[0] = decode_u64(r->ev, r->rec, "filename");
	ptr[1] = decode_u64(r->ev, r->rec, "argv");
	calls_enter(pending, decode_pid(r->ev, r->rec), ptr);
	capture_enter(cap, r->ev, r->rec);
}

/* take - the strings tid's exec was called with, as taken at the call, or NULL */
static struct cap_val *take(int tid, unsigned long long ts)
{
	static const unsigned long long none[2];
	unsigned long long *ptr = calls_exit(pending, tid);
	struct cap_val *v = capture_take(cap, tid, ptr ? ptr : none, ts);

	free(ptr);
	return v;
}

/* on_fail - an exec that returned an error (the kernel passes only those) */
static void on_fail(const struct stream_rec *r)
{
	int tid = decode_pid(r->ev, r->rec), tgid = tgid_at(tid, r->rec->ts);
	struct cap_val *v = take(tid, r->rec->ts);
	char err[16], comm[16];

	int ppid = tgid ? (int)(long)pidmap_get(parent, tgid) : 0;

	comm_of(v ? v->str[0] : "", comm, sizeof(comm));
	if (o.fails && name_ok(comm) && parent_ok(ppid) && cgscope_in(tid, r->rec->ts))
		print_line(r->rec->ts, tid, ppid, o.pcomm && tgid ? pcomm_of(tgid) : NULL, -1,
			   names_errno((int)decode_s64(r->ev, r->rec, "ret"), err, sizeof(err)), v,
			   NULL);
	capture_free(v);
}

/* on_exec - a successful exec: print it unless filtered */
static void on_exec(const struct stream_rec *r)
{
	int pid = (int)decode_s64(r->ev, r->rec, "pid");
	int old = (int)decode_s64(r->ev, r->rec, "old_pid");
	struct cap_val *v = take(old, r->rec->ts);
	char path[4096], comm[16];
	int ppid;

	/* the caller now leads its process, under the process's ID */
	if (old != pid)
		tgid_put(old, 0, 0);
	tgid_put(pid, pid, r->rec->ts);
	decode_str(r->ev, r->rec, "filename", path, sizeof(path));
	comm_of(path, comm, sizeof(comm));
	ppid = (int)(long)pidmap_get(parent, pid);
	if (name_ok(comm) && parent_ok(ppid) && cgscope_in(pid, r->rec->ts))
		print_line(r->rec->ts, pid, ppid, o.pcomm ? pcomm_of(pid) : NULL, -1, NULL, v, path);
	if (o.pcomm)		/* the name the exec gives, should no rename say it */
		pidmap_put(tname, pid, xstrdup(comm));
	capture_free(v);
}

/*
 * forget_tasks - events were lost (reorder_on_gap, in time order; the execs
 * waiting for their end are forgotten by calls.h): a fork may be among them,
 * giving a PID to a new task, so what is known of parents, threads'
 * processes is dropped, and the threads that run now
 * are read again (valid for forks from now on)
 */
static void forget_tasks(int cpu, unsigned long long ts, void *ctx)
{
	(void)cpu, (void)ts, (void)ctx;
	pidmap_clear(parent);
	tgid_reset();
	if (o.pcomm) {
		pidmap_clear(forker);
		pidmap_clear(tname);
	}
}

/* use - SYS:NAME, without our own events, plus `extra`, to fn in time order (reorder_follow) */
static void use(struct session *s, const char *sys, const char *name, const char *extra,
		stream_fn fn)
{
	char *f = filter_build(0, NULL, extra);

	reorder_follow(s, sys, name, f, fn, NULL);
	free(f);
}

/* follow - the events the run reads, to their handlers; name_filter: -n's glob (NULL: none) */
static void follow(struct session *s, const char *name_filter)
{
	char *self = filter_build(0, NULL, NULL);

	reorder_on_gap(forget_tasks, NULL);
	use(s, "task", "task_newtask", NULL, on_newtask);
	use(s, "sched", "sched_process_fork", NULL, on_fork);
	if (o.pcomm)
		use(s, "task", "task_rename", NULL, on_rename);
	use(s, "sched", "sched_process_exec", name_filter, on_exec);
	capture_follow(cap, self);
	free(self);
	use(s, "syscalls", "sys_enter_execve", NULL, on_enter);
	use(s, "syscalls", "sys_enter_execveat", NULL, on_enter);
	use(s, "syscalls", "sys_exit_execve", "ret < 0", on_fail);
	use(s, "syscalls", "sys_exit_execveat", "ret < 0", on_fail);
}

/* banner - how arguments are taken (ladder_note: once setup has worked, so a
 * failure stays one line), "Tracing exec()s...", then the column header */
static void banner(void)
{
	char comm[96];

	ladder_note(cap, o.verbose);

	snprintf(comm, sizeof(comm), " issued by process name \"%.60s\"", o.name ? o.name : "");
	if (o.cgroup)
		out_tracing(o.duration, "exec()s in cgroup %.80s%s", o.cgroup, o.name ? comm : "");
	else
		out_tracing(o.duration, "exec()s%s", o.name ? comm : "");
	if (out_json)
		return;
	line_time_headers(o.hms, o.times);
	if (o.uids)
		printf("%6s ", "UID");
	printf("%6s %6s ", "PID", "PPID");
	if (o.pcomm)
		printf("%-16s ", "PCOMM");
	if (o.fails)
		printf("%-7s ", "RET");
	if (o.show_cg)
		printf("%-12s ", "CGROUP");
	printf("ARGS\n");
	fflush(stdout);
}

/* own_name - this process's name (the keeper's: it was forked from this one,
 * and neither renames itself); NULL if it cannot be read */
static const char *own_name(void)
{
	static char name[17];
	FILE *f = fopen("/proc/self/comm", "re");
	const char *got = f ? fgets(name, sizeof(name), f) : NULL;

	if (f)
		fclose(f);
	if (!got)
		return NULL;
	name[strcspn(name, "\n")] = '\0';
	return name;
}

int main(int argc, char **argv)
{
	const char *formats[8 + CGSCOPE_NR_FORMATS + 1] = { "sched:sched_process_exec",
		"sched:sched_process_fork", "syscalls:sys_enter_execve",
		"syscalls:sys_enter_execveat", "syscalls:sys_exit_execve",
		"syscalls:sys_exit_execveat", "task:task_newtask", "task:task_rename" };
	char glob[64], *name_filter = NULL;
	struct session *s;

	msg_init("execsnoop");
	sig_init();
	parse(argc, argv);
	if (o.cgroup)
		cgscope_open(o.cgroup);
	if (o.show_cg)
		cgscope_show();
	if (o.exec)
		o.exec_pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	if (!session_event_exists("sched", "sched_process_exec") ||
	    !session_event_exists("sched", "sched_process_fork"))
		msg_die(EXIT_ERR, "tracepoints sched:sched_process_exec/fork not found");

	s = session_open("execsnoop");
	mono = reorder_init(s, o.hms ? "-T" : cgscope_need());
	cap = ladder_open(s, CAP_EXEC, o.argc);
	formats[cgscope_formats(formats, 8)] = NULL;	/* --cgroup: its events too */
	capture_load(cap, formats);
	pending = calls_new(NULL, free);	/* an exec that ends without its entry is not said */
	parent = pidmap_new(NULL);
	forker = pidmap_new(NULL);
	tname = pidmap_new(free);
	if (o.exec_pid) {	/* forked before tracing began, by the keeper */
		pidmap_put(parent, o.exec_pid, (void *)(long)child_keeper());
		pidmap_put(forker, o.exec_pid, (void *)(long)child_keeper());
		if (own_name())
			pidmap_put(tname, child_keeper(), xstrdup(own_name()));
	}
	tgid_start(mono);

	if (o.name && filter_regex_glob(o.name, glob, sizeof(glob)) == 0)
		filter_glob(&name_filter, "comm", glob);
	who_events(s, o.exec_pid);	/* --exec: the command and all it starts */
	follow(s, name_filter);
	free(name_filter);
	cgscope_follow(s, 1);	/* --cgroup: its members (on_newtask hands it the new tasks) */

	stream_begin(s, o.duration > 0);
	cgscope_started();
	tgid_scan();		/* the threads that run now, read while tracing runs */
	banner();
	child_go();	/* --exec: the command runs from here */

	stream_run(s, o.duration, 0, NULL, NULL);

	stream_end(s);
	child_report();
	cgscope_report("execs");
	if (unknown)
		msg_warn("%llu exec%s shown with [?]: no arguments taken at the call", unknown,
			 unknown == 1 ? "" : "s");
	if (orphans)
		msg_warn("%llu exec%s not shown: -P's parent could not be told (forked before "
			 "tracing began, or among lost events)", orphans, orphans == 1 ? "" : "s");
	return EXIT_OK;
}

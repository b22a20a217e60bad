/* SPDX-License-Identifier: GPL-2.0-only */
/* opensnoop - trace open()s: process, file descriptor or error, and path
 *
 * open, openat and openat2 are traced by their syscall entry and exit
 * tracepoints (the FD or error). The path is the one taken in the kernel at
 * the call, by the best capture rung this kernel has that proves itself at
 * startup (ladder.h: the syscall event's own string, event probes, kprobes,
 * uprobes on the C library); an open it did not take shows [?], never a path
 * read later. -p, -L and -n (a plain name) are applied in the kernel; -p
 * follows the threads and children the process starts while traced. COMM is
 * the task's name at the open, from the trace's own records (comm.h).
 * Overhead grows with the open rate: each open is two or three events and a
 * printed line; at more than some thousand opens a second, use -d or a filter.
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
#include "comm.h"
#include "decode.h"
#include "filter.h"
#include "fmt.h"
#include "ladder.h"
#include "line.h"
#include "msg.h"
#include "names.h"
#include "options.h"
#include "output.h"
#include "reorder.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "who.h"
#include "xalloc.h"

static const char usage_text[] =
"USAGE: opensnoop [-htxTejv] [-d secs] [-p PID] [-L TID] [-n name] [--show-cgroup]\n"
"                 [filename]\n"
"       opensnoop [-htxTejv] [-d secs] [-n name] --exec CMD [filename]\n"
"       opensnoop [-htxTejv] [-d secs] [-n name] --cgroup PATH [filename]\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -e              # include the open flags (octal)\n"
"                 -n name         # process name to match on open\n"
"                 -p PID          # PID to match on open (threads, children)\n"
"                 -L TID          # thread id to match on open\n"
"                 --exec CMD      # run CMD by sh; trace it and all it starts\n"
"                 --cgroup PATH   # only tasks in this cgroup v2, or below it\n"
"                 --show-cgroup   # include each task's cgroup (CGROUP: a\n"
"                                 # container's ID, else the path)\n"
"                 -t              # include time (seconds)\n"
"                 -T              # include wall-clock time (HH:MM:SS)\n"
"                 -x              # only show failed opens\n"
"                 -v              # say how paths are taken, and why\n"
"                 -j              # JSON Lines, one object per open (also --json)\n"
"                 -h              # this usage message\n"
"                 filename        # match filename (partials, REs, ok)\n"
"  eg,\n"
"       opensnoop                 # watch open()s live (unbuffered)\n"
"       opensnoop -d 1            # trace 1 sec (buffered)\n"
"       opensnoop -p 181          # trace opens by PID 181 only\n"
"       opensnoop conf            # trace filenames containing \"conf\"\n"
"       opensnoop --cgroup system.slice/cron.service\n"
"                                 # the opens of one service\n"
"       opensnoop --show-cgroup   # which container opened what\n"
"       opensnoop --exec 'make -j2'\n"
"                                 # the opens of a build, start to end\n"
"       opensnoop 'log$'          # filenames ending in \"log\"\n"
"       opensnoop -x -e           # failed opens, with their flags\n"
"\n";

struct opts {
	double duration;
	pid_t pid, tid;
	int times, hms, fails, flags, verbose, show_cg;
	const char *name, *file, *exec, *cgroup;
	regex_t name_re, file_re;
};

static struct opts o;

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = opt_next(argc, argv, "d:ehjn:p:L:tvxT", opt_scope_show, usage_text)) != -1) {
		switch (c) {
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'e': o.flags = 1; break;
		case 'n': o.name = optarg; opt_regex(&o.name_re, optarg, "-n"); break;
		case 'p': o.pid = opt_pid(optarg, "-p"); break;
		case 'L': o.tid = opt_tid(optarg, "-L"); break;
		case 't': o.times = 1; break;
		case 'T': o.hms = 1; break;
		case 'v': o.verbose = 1; break;
		case 'x': o.fails = 1; break;
		case OPT_EXEC: o.exec = optarg; break;
		case OPT_CGROUP: o.cgroup = optarg; break;
		case OPT_SHOW_CGROUP: o.show_cg = 1; break;
		}
	}
	o.file = opt_last_regex(argc, argv, &o.file_re, "filename", "one filename pattern at most");
	opt_apart(o.pid, "-p", o.tid, "-L");
	opt_apart(o.pid, "-p", o.exec != NULL, "--exec");
	opt_apart(o.tid, "-L", o.exec != NULL, "--exec");
	opt_apart(o.pid || o.tid, o.pid ? "-p" : "-L", o.cgroup != NULL, "--cgroup");
	opt_apart(o.exec != NULL, "--exec", o.cgroup != NULL, "--cgroup");
}

/* an open in progress, from its entry event */
struct call {
	unsigned long long ptr[2];	/* the path's user pointer (and 0) */
	unsigned long long flags;
	int has_flags;			/* openat2's flags are behind a pointer */
};

static struct calls *pending;		/* TID -> struct call */
static struct capture *cap;
static unsigned long long unknown;	/* rows whose path was not taken */
static unsigned long long unmatched;	/* opens whose unknown path the pattern could not match */
static unsigned long long unnamed;	/* opens whose unknown name -n could not match */
static struct session *sess;
static int mono;			/* timestamps on the mono clock */

static const char *const calls[] = { "open", "openat", "openat2" };

/* on_enter - an open is called: its pointer and flags wait for its return */
static void on_enter(const struct stream_rec *r)
{
	struct call *c = xcalloc(1, sizeof(*c));

	c->ptr[0] = decode_u64(r->ev, r->rec, "filename");
	c->has_flags = decode_has(r->ev, "flags");
	c->flags = decode_u64(r->ev, r->rec, "flags");
	calls_enter(pending, decode_pid(r->ev, r->rec), c);
	capture_enter(cap, r->ev, r->rec);
}

/* a returned open, held until its task's name at the call is known (comm.h) */
struct row {
	unsigned long long ts;
	int tid;
	long long ret;
	struct call *call;
	struct cap_val *val;
	char *path;		/* the path taken, made printable; NULL: not taken */
	const char *cg;		/* --show-cgroup: the task's cgroup then (NULL: not known) */
};

/* on_return - an open returned: with its call, it waits for its task's name */
static void on_return(const struct stream_rec *r)
{
	static const unsigned long long none[2];
	int tid = decode_pid(r->ev, r->rec);
	struct call *c = calls_exit(pending, tid);
	struct cap_val *v = capture_take(cap, tid, c ? c->ptr : none, r->rec->ts);
	struct row *row;
	size_t n;

	if (!c || !cgscope_in(tid, r->rec->ts)) {
		/* began before tracing did, or its call was lost; or out of --cgroup */
		free(c);
		capture_free(v);
		return;
	}
	row = xcalloc(1, sizeof(*row));
	row->ts = r->rec->ts;
	row->tid = tid;
	row->ret = decode_s64(r->ev, r->rec, "ret");
	row->call = c;
	row->val = v;
	row->cg = cgscope_cgroup(tid, row->ts);
	if (v) {
		n = strlen(v->str[0]);
		row->path = xmalloc(4 * n + 8);
		out_vis(row->path, 4 * n + 8, 0, v->str[0], n);
		if (!c->has_flags && v->has_flags) {
			c->flags = v->flags;
			c->has_flags = 1;
		}
	}
	comm_hold(tid, row->ts, row);
}

/* emit_row - print a returned open with its task's name (NULL: not known), unless filtered */
static void emit_row(void *item, const char *comm, void *ctx)
{
	struct row *r = item;
	struct call *c = r->call;
	long long ret = r->ret;
	static struct line line;
	char buf[32], err[16];
	const char *ename;

	(void)ctx;
	if (o.name && !comm && !(o.fails && ret >= 0))
		unnamed++;
	if ((o.fails && ret >= 0) || (o.name && (!comm || regexec(&o.name_re, comm, 0, NULL, 0))) ||
	    (o.file && (!r->path || regexec(&o.file_re, r->path, 0, NULL, 0)))) {
		if (o.file && !r->path && !(o.fails && ret >= 0))
			unmatched++;
		goto done;
	}
	line_times(&line, r->ts, mono, o.hms, o.times);
	if (comm)
		col_str(&line, "comm", comm, ALIGN_LEFT, 16, 16);
	else
		col_null(&line, "comm", "?", ALIGN_LEFT, 16);
	line_add(&line, " ");
	col_dec(&line, "pid", r->tid, ALIGN_LEFT, 6);
	line_add(&line, " ");
	if (ret >= 0) {
		buf[0] = '0';
		buf[1] = 'x';
		fmt_num(ret, 16, 0, buf + 2, sizeof(buf) - 2);
	}
	ename = names_errno((int)ret, err, sizeof(err));
	col_num(&line, "fd", ret >= 0 ? ret : -1, ret >= 0 ? buf : o.fails ? ename : "-1",
		ALIGN_RIGHT, o.fails ? 7 : 4);
	if (out_json)		/* JSON only: the text shows it with -x */
		col_str(&line, "error", ret < 0 ? ename : NULL, ALIGN_LEFT, 0, -1);
	line_add(&line, " ");
	if (o.flags && c->has_flags)
		col_str(&line, "flags", fmt_num(c->flags, 8, 8, buf, sizeof(buf)), ALIGN_LEFT, 8,
			-1);
	else if (o.flags)
		col_null(&line, "flags", "?", ALIGN_LEFT, 8);
	if (o.flags)
		line_add(&line, " ");
	if (o.show_cg) {
		cgscope_col(&line, r->cg);
		line_add(&line, " ");
	}
	if (r->val)
		col_str(&line, "file", r->val->str[0], ALIGN_LEFT, 0, -1);
	else
		col_null(&line, "file", "[?]", ALIGN_LEFT, 0);
	col_bool(&line, "cut", r->val && r->val->cut, " [cut]");
	line_add(&line, "\n");
	line_put(&line);
	if (!r->path)
		unknown++;
done:
	free(r->path);
	free(c);
	capture_free(r->val);
	free(r);
}

/* build_filter - never ourselves; -p/-L threads; -n as a glob; `extra` */
static char *build_filter(const char *extra)
{
	char *more = NULL, glob[64], *f;

	if (o.name && filter_regex_glob(o.name, glob, sizeof(glob)) == 0)
		filter_glob(&more, "comm", glob);
	if (extra)
		filter_cat(&more, "%s%s", more ? " && " : "", extra);
	f = filter_build(o.tid, NULL, more);
	free(more);
	return f;
}

/* follow_calls - the syscalls' entries and exits, filtered, in time order */
static void follow_calls(const char *filter)
{
	char name[32];
	size_t i;

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "sys_enter_%s", calls[i]);
		reorder_follow(sess, "syscalls", name, filter, on_enter, NULL);
		/* every return, -x too: a return ends its call for the capture's pairing */
		snprintf(name, sizeof(name), "sys_exit_%s", calls[i]);
		reorder_follow(sess, "syscalls", name, filter, on_return, NULL);
	}
}

/* load_formats - the formats of every event the run follows */
static void load_formats(void)
{
	const char *formats[16] = { COMM_FORMATS };
	char fmt[6][48];
	size_t i, n = COMM_NR_FORMATS;

	for (i = 0; i < 3; i++) {
		snprintf(fmt[2 * i], sizeof(fmt[0]), "syscalls:sys_enter_%s", calls[i]);
		snprintf(fmt[2 * i + 1], sizeof(fmt[0]), "syscalls:sys_exit_%s", calls[i]);
		formats[n++] = fmt[2 * i];
		formats[n++] = fmt[2 * i + 1];
	}
	n = cgscope_formats(formats, n);
	formats[n] = NULL;
	capture_load(cap, formats);
}

/* banner - how paths are taken (ladder_note: once setup has worked, so a
 * failure stays one line), "Tracing open()s...", then the column header */
static void banner(void)
{
	char ftext[256];
	size_t at = 0;

	ladder_note(cap, o.verbose);

	ftext[0] = '\0';
	if (o.pid || o.tid)
		at += snprintf(ftext, sizeof(ftext), " issued by %s %d", o.pid ? "PID" : "TID",
			       o.pid ? (int)o.pid : (int)o.tid);
	if (o.cgroup)
		at += snprintf(ftext + at, sizeof(ftext) - at, " in cgroup %.80s", o.cgroup);
	if (o.name)
		at += snprintf(ftext + at, sizeof(ftext) - at, " issued by process name \"%.40s\"",
			       o.name);
	if (o.file)
		snprintf(ftext + at, sizeof(ftext) - at, " for filenames containing \"%.40s\"",
			 o.file);
	out_tracing(o.duration, "open()s%s", ftext);
	if (out_json)
		return;
	line_time_headers(o.hms, o.times);
	printf("%-16.16s %-6s %*s ", "COMM", "PID", o.fails ? 7 : 4, "FD");
	if (o.flags)
		printf("%-8s ", "FLAGS");
	if (o.show_cg)
		printf("%-12s ", "CGROUP");
	printf("FILE\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	char *filter;

	msg_init("opensnoop");
	sig_init();
	parse(argc, argv);
	if (o.cgroup)
		cgscope_open(o.cgroup);
	if (o.show_cg)
		cgscope_show();
	if (o.exec)
		o.pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	if (!session_event_exists("syscalls", "sys_exit_openat"))
		msg_die(EXIT_ERR, "tracepoint syscalls:sys_exit_openat not found "
			"(kernel without CONFIG_FTRACE_SYSCALLS?)");

	sess = session_open("opensnoop");
	mono = reorder_init(sess, o.hms ? "-T" : cgscope_need());
	cap = ladder_open(sess, CAP_OPEN, 0);
	load_formats();
	pending = calls_new("opens", free);

	filter = build_filter(NULL);
	who_events(sess, o.pid);	/* -p: its threads, and those it starts */
	comm_follow(sess, emit_row, NULL);
	capture_follow(cap, filter);
	follow_calls(filter);
	free(filter);
	cgscope_follow(sess, 0);	/* --cgroup: its members, from the kernel's events */

	stream_begin(sess, o.duration > 0);
	cgscope_started();
	banner();
	child_go();	/* --exec: the command runs from here */

	stream_run(sess, o.duration, 0, NULL, NULL);

	stream_end(sess);
	calls_report(pending);
	child_report();
	cgscope_report("opens");
	if (unknown)
		msg_warn("%llu open%s shown with [?]: no path taken at the call", unknown,
			 unknown == 1 ? "" : "s");
	if (unnamed)
		msg_warn("%llu opens by tasks whose name was not seen were not matched against "
			 "\"%s\"", unnamed, o.name);
	if (unmatched)
		msg_warn("%llu opens with no path taken at the call were not matched against "
			 "\"%s\"", unmatched, o.file);
	return EXIT_OK;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* tpoint - trace a tracepoint, optionally filtered, with optional kernel stacks
 *
 * Enables one static tracepoint in a private tracefs instance, reads its records
 * in binary a page at a time, and prints each in ftrace's text form
 * (common/evtext.c), or with -j as a JSON object with every field by name
 * (common/evjson.c). COMM is the task's name at the event, from the
 * records that name tasks (forks, renames, switches: common/comm.c), never
 * read later. The filter, -p and -L are applied in the kernel (-p as
 * the instance's task list, which gains the threads and children the process
 * starts; it tests the task on the CPU when the event fires). Reading
 * the kernel's own text (trace_pipe) instead cost the traced workload about 8%
 * of its speed: the kernel formats and consumes that one event at a time, beside
 * the writer. Overhead is relative to the event rate: check it first with
 * tpoint -d 1 EVENT | wc -l before tracing anything that fires 100k times a
 * second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgscope.h"
#include "child.h"
#include "comm.h"
#include "evjson.h"
#include "evtext.h"
#include "filter.h"
#include "format.h"
#include "kstack.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "reorder.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "who.h"
#include "xalloc.h"

static const char usage_text[] =
"USAGE: tpoint [-hHjsv] [-d secs] [-p PID] [-L TID] tracepoint [filter]\n"
"       tpoint [-hHjs] [-d secs] --exec CMD tracepoint [filter]\n"
"       tpoint [-hHjs] [-d secs] --cgroup PATH tracepoint [filter]\n"
"       tpoint -l\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -p PID          # PID to match on event (threads, children)\n"
"                 -L TID          # thread id to match on event\n"
"                 --exec CMD      # run CMD by sh; trace it and all it starts\n"
"                 --cgroup PATH   # only tasks in this cgroup v2, or below it\n"
"                 -v              # view format file (don't trace)\n"
"                 -H              # include column headers\n"
"                 -l              # list all tracepoints\n"
"                 -s              # show kernel stack traces\n"
"                 -j              # JSON Lines, one object per event (also --json)\n"
"                 -h              # this usage message\n"
"  eg,\n"
"       tpoint -l | grep open\n"
"                                 # find tracepoints containing \"open\"\n"
"       tpoint syscalls:sys_enter_openat\n"
"                                 # trace openat() syscall entry\n"
"       tpoint block:block_rq_issue\n"
"                                 # trace block I/O issue\n"
"       tpoint -s block:block_rq_issue\n"
"                                 # show kernel stacks\n"
"       tpoint -d 5 sched:sched_process_exec 'filename ~ \"*sh\"'\n"
"                                 # 5 s buffered, execs of *sh only\n"
"       tpoint --exec 'tar xf a.tar' block:block_rq_insert\n"
"                                 # the block inserts of one command\n"
"\n";

struct opts {
	double duration;
	pid_t pid, tid;
	int headers, stacks, view, list;
	char sys[128], event[128];
	const char *filter, *exec, *cgroup;
};

static struct opts o;

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	const char *tp, *colon;
	int c;

	while ((c = opt_next(argc, argv, "d:hHjlp:L:sv", opt_scope, usage_text)) != -1) {
		switch (c) {
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'H': o.headers = 1; break;
		case 'l': o.list = 1; break;
		case 'p': o.pid = opt_pid(optarg, "-p"); break;
		case 'L': o.tid = opt_tid(optarg, "-L"); break;
		case 's': o.stacks = 1; break;
		case 'v': o.view = 1; break;
		case OPT_EXEC: o.exec = optarg; break;
		case OPT_CGROUP: o.cgroup = optarg; break;
		}
	}
	opt_apart(out_json, "-j", o.list, "-l");
	opt_apart(o.exec != NULL, "--exec", o.list, "-l");
	opt_apart(o.exec != NULL, "--exec", o.view, "-v");
	opt_apart(out_json, "-j", o.view, "-v");
	if (o.list) {
		if (optind != argc)
			opt_usage("-l takes no tracepoint");
		return;
	}
	opt_operands(argc, 1, 2, "tracepoint (SYSTEM:EVENT; tpoint -l lists them)",
		     "quote the filter");
	opt_apart(o.pid, "-p", o.tid, "-L");
	opt_apart(o.pid, "-p", o.exec != NULL, "--exec");
	opt_apart(o.tid, "-L", o.exec != NULL, "--exec");
	opt_apart(o.pid || o.tid, o.pid ? "-p" : "-L", o.cgroup != NULL, "--cgroup");
	opt_apart(o.exec != NULL, "--exec", o.cgroup != NULL, "--cgroup");
	opt_apart(o.cgroup != NULL, "--cgroup", o.list || o.view, o.list ? "-l" : "-v");
	opt_apart(o.duration > 0, "-d", o.view, "-v");
	tp = argv[optind];
	colon = strchr(tp, ':');
	if (!colon || (size_t)(colon - tp) >= sizeof(o.sys) ||
	    strlen(colon + 1) >= sizeof(o.event))
		opt_usage("tracepoint '%.60s' is not SYSTEM:EVENT", tp);
	memcpy(o.sys, tp, colon - tp);
	o.sys[colon - tp] = '\0';
	strcpy(o.event, colon + 1);
	if (!opt_is_ident(o.sys) || !opt_is_ident(o.event))
		opt_usage("tracepoint '%.60s' is not SYSTEM:EVENT (letters, digits, _)", tp);
	if (optind + 1 < argc) {
		o.filter = argv[optind + 1];
		opt_no_ctrl(o.filter, "filter");
	}
}

static struct session *sess;
static int mono;	/* -j: the records' timestamps on the mono clock */

/* on_record - each record (the event's, and kernel_stack after it with -s), in
 * time order with its task's name then, as a text line or a JSON object */
static void on_record(const struct stream_rec *r)
{
	if (out_json)
		evjson_line(sess, r->ev, r->rec, mono, NULL, 0, r->comm);
	else
		evtext_line(sess, r->ev, r->rec, r->comm);
}

/* cmp_str - qsort order for -l */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* list - print every SYSTEM:EVENT, sorted, one per line */
static void list(void)
{
	char **systems, **events, **all = NULL;
	size_t n = 0, cap = 0, i, j;

	session_tracefs();
	systems = tracefs_event_systems(NULL);
	if (!systems)
		msg_die(EXIT_ERR, "cannot list the event systems:");
	for (i = 0; systems[i]; i++) {
		if (!strcmp(systems[i], "ftrace"))
			continue;	/* the tracers' own records, not tracepoints */
		events = tracefs_system_events(NULL, systems[i]);
		for (j = 0; events && events[j]; j++) {
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				all = xreallocarray(all, cap, sizeof(*all));
			}
			all[n] = xasprintf("%s:%s", systems[i], events[j]);
			n++;
		}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	if (n)		/* qsort wants a real array, even of none */
		qsort(all, n, sizeof(*all), cmp_str);
	for (i = 0; i < n; i++)
		printf("%s\n", all[i]);
	exit(EXIT_OK);
}

/* view - print the event's format file */
static void view(void)
{
	char *fmt = tracefs_event_file_read(NULL, o.sys, o.event, "format", NULL);

	if (!fmt)
		msg_die(EXIT_ERR, "cannot read the format of %s:%s:", o.sys, o.event);
	fputs(fmt, stdout);
	free(fmt);
	exit(EXIT_OK);
}

int main(int argc, char **argv)
{
	struct tep_event *evs[3] = { NULL, NULL, NULL };
	size_t n;
	char spec[300];
	const char *systems[10] = { spec, COMM_FORMATS, NULL, NULL };

	msg_init("tpoint");
	sig_init();
	parse(argc, argv);
	if (o.list)
		list();
	if (o.cgroup)
		cgscope_open(o.cgroup);
	if (o.exec)
		o.pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	if (!session_event_exists(o.sys, o.event))
		msg_die(EXIT_ERR, "tracepoint %s:%s not found (tpoint -l lists them)",
			o.sys, o.event);
	if (o.view)
		view();

	sess = session_open("tpoint");
	snprintf(spec, sizeof(spec), "%s:%s", o.sys, o.event);
	n = 1 + COMM_NR_FORMATS;
	if (o.stacks)
		systems[n++] = "ftrace:kernel_stack";
	n = cgscope_formats(systems, n);
	systems[n] = NULL;
	format_load(sess, systems);
	evs[0] = stream_follow(sess, o.sys, o.event, NULL, comm_row, NULL);
	if (!evs[0])
		msg_die(EXIT_ERR, "cannot parse the format of %s (tpoint -v shows it)", spec);
	session_user_filter(sess, o.sys, o.event, o.tid, o.filter);
	who_events(sess, o.pid);	/* -p: its threads, and those it starts */
	if (o.stacks && !(evs[1] = kstack_enable(sess)))
		msg_die(EXIT_ERR, "kernel stack traces (-s) are not available on this kernel");
	/* names follow the task's renames in time order: one clock for all CPUs */
	mono = reorder_init(sess, cgscope_need()) == 1;
	comm_rows(sess, evs, o.filter || o.tid, on_record, NULL);
	cgscope_follow(sess, 0);	/* --cgroup: its members (comm_rows asks it of each row) */
	stream_begin(sess, o.duration > 0);
	cgscope_started();
	if (o.cgroup)
		out_tracing(o.duration, "%s:%s in cgroup %.80s", o.sys, o.event, o.cgroup);
	else
		out_tracing(o.duration, "%s:%s", o.sys, o.event);
	if (o.headers && !out_json)
		evtext_header(stdout, "nop", spec);
	fflush(stdout);
	child_go();	/* --exec: the command runs from here */

	stream_run(sess, o.duration, 0, NULL, NULL);

	stream_end(sess);
	child_report();
	cgscope_report("events");
	return EXIT_OK;
}

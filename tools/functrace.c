// SPDX-License-Identifier: GPL-2.0-only
/* functrace - trace calls of kernel functions, each with the function it was called from
 *
 * Uses the function tracer: one ftrace:function record per call of the named
 * function(s), holding the function's address and its caller's, read in
 * binary and named from the kernel's symbol table (kallsyms). The tracer runs
 * in a private instance, with the instance's own function list and PID list,
 * where the kernel has it there; else at the top level, taken only when free,
 * every setting saved first and restored exactly at exit. -p traces the
 * process's threads and the threads and children they start (set_ftrace_pid
 * with function-fork).
 * Overhead: only the functions asked for call the tracer, but each of their
 * calls is a record: "tcp*" or "vfs*" on a busy host is many thousands a
 * second. Count them first with funccount.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgscope.h"
#include "child.h"
#include "comm.h"
#include "decode.h"
#include "evtext.h"
#include "format.h"
#include "ftracer.h"
#include "global.h"
#include "line.h"
#include "msg.h"
#include "names.h"
#include "options.h"
#include "output.h"
#include "session.h"
#include "signals.h"
#include "stream.h"

static const char usage_text[] =
"USAGE: functrace [-hHj] [-p PID] [-L TID] [-d secs] [--exec CMD] [--cgroup PATH]\n"
"                 funcstring\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -h              # this usage message\n"
"                 -H              # include column headers\n"
"                 -j              # JSON Lines, one object per call (also --json)\n"
"                 -p PID          # trace when this pid is on-CPU (threads, children)\n"
"                 -L TID          # trace when this thread is on-CPU\n"
"                 --exec CMD      # run CMD by sh; trace it and all it starts\n"
"                 --cgroup PATH   # only tasks in this cgroup v2, or below it\n"
"  eg,\n"
"       functrace do_nanosleep    # trace the do_nanosleep() function\n"
"       functrace '*sleep'        # trace functions ending in \"sleep\"\n"
"       functrace -p 198 'vfs*'   # trace \"vfs*\" funcs for PID 198\n"
"       functrace 'tcp*' > out    # trace all \"tcp*\" funcs to out file\n"
"       functrace -d 1 'tcp*' > out  # trace 1 sec, then write out file\n"
"       functrace --cgroup system.slice/docker-4f2a.scope 'vfs_*'\n"
"                                 # \"vfs_*\" calls of one container\n"
"\n";

struct opts {
	double duration;
	pid_t pid, tid;
	int headers;
	const char *funcs, *exec, *cgroup;
	char **list;		/* the functions funcs matches */
	int n;
};

static struct opts o;

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = opt_next(argc, argv, "d:hHjp:L:", opt_scope, usage_text)) != -1) {
		switch (c) {
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'H': o.headers = 1; break;
		case 'p': o.pid = opt_pid(optarg, "-p"); break;
		case 'L': o.tid = opt_tid(optarg, "-L"); break;
		case OPT_EXEC: o.exec = optarg; break;
		case OPT_CGROUP: o.cgroup = optarg; break;
		}
	}
	opt_operands(argc, 1, 1, "funcstring (a kernel function name or glob)",
		     "quote several functions as one argument");
	opt_apart(o.pid, "-p", o.tid, "-L");
	opt_apart(o.pid, "-p", o.exec != NULL, "--exec");
	opt_apart(o.tid, "-L", o.exec != NULL, "--exec");
	opt_apart(o.pid || o.tid, o.pid ? "-p" : "-L", o.cgroup != NULL, "--cgroup");
	opt_apart(o.exec != NULL, "--exec", o.cgroup != NULL, "--cgroup");
	o.funcs = argv[optind];
	opt_funcs(o.funcs, "a kernel function name or glob");
}

static struct session raw;	/* the run's session, reading where the tracer runs */
static int mono;		/* the trace clock is CLOCK_MONOTONIC's */

/* func_name - the kernel function holding addr, or the address where kallsyms has none */
static const char *func_name(unsigned long long addr, char *buf, size_t len)
{
	const char *name = names_kfunc(&raw, addr);

	if (name)
		return name;
	snprintf(buf, len, "0x%llx", addr);
	return buf;
}

/* on_call - a call of a traced function, in time order with its task's name
 * then (NULL: not known): the kernel's text line, or one JSON object */
static void on_call(const struct stream_rec *r)
{
	static struct line l;
	struct tep_event *ev = r->ev;
	struct tep_record *rec = r->rec;
	char fbuf[24], cbuf[24];
	const char *func, *caller;

	if (!decode_record_ok(ev, rec))
		return;
	func = func_name(decode_u64(ev, rec, "ip"), fbuf, sizeof(fbuf));
	caller = func_name(decode_u64(ev, rec, "parent_ip"), cbuf, sizeof(cbuf));
	if (out_json) {
		line_begin(&l, mono ? rec->ts : LINE_NO_TIME);
		col_str(&l, "comm", r->comm, ALIGN_LEFT, 0, -1);
		col_dec(&l, "pid", decode_pid(ev, rec), ALIGN_LEFT, 0);
		col_dec(&l, "cpu", rec->cpu, ALIGN_LEFT, 0);
		col_str(&l, "func", func, ALIGN_LEFT, 0, -1);
		col_str(&l, "caller", caller, ALIGN_LEFT, 0, -1);
		line_put(&l);
		return;
	}
	evtext_head(&l, ev, rec, r->comm);
	line_add(&l, " ");
	line_add(&l, func);
	line_add(&l, " <-");
	line_add(&l, caller);
	line_add(&l, "\n");
	line_put(&l);
}

/* setup - the tracer on the asked functions alone, for the asked tasks */
static void setup(void)
{
	ftracer_set_or_die("tracing_on", "0");
	/* one clock for all CPUs, which the JSON times convert from */
	mono = ftracer_set("trace_clock", "mono") == 0;
	ftracer_who(o.pid, o.tid);
	ftracer_list("set_ftrace_filter", o.funcs, o.list, o.n);
	ftracer_set_or_die("current_tracer", "function");
	/* a record per call, not a stack trace after each */
	ftracer_option("func_stack_trace", 0);
}

int main(int argc, char **argv)
{
	const char *formats[2 + COMM_NR_FORMATS + CGSCOPE_NR_FORMATS] = { "ftrace:function",
									   COMM_FORMATS };
	struct tep_event *evs[2] = { NULL, NULL };
	struct session *sess;

	msg_init("functrace");
	sig_init();
	parse(argc, argv);
	if (o.cgroup)
		cgscope_open(o.cgroup);
	if (o.exec)
		o.pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	o.n = ftracer_check(0, o.funcs, &o.list);

	sess = session_open("functrace");
	ftracer_place(sess, "function", "set_ftrace_filter", "function tracing");
	/* the membership events are read beside the tracer, on its clock */
	if (o.cgroup && ftracer_top())
		msg_die(EXIT_ERR, "--cgroup: this kernel runs the function tracer at the top "
			"level only, where the events that follow membership are not this run's");
	setup();
	if (o.cgroup && !mono)
		msg_die(EXIT_ERR, "--cgroup: the kernel has no \"mono\" trace clock");
	raw = *sess;
	raw.inst = ftracer_inst();
	raw.tep = NULL;
	formats[cgscope_formats(formats, 1 + COMM_NR_FORMATS)] = NULL;
	format_load(&raw, formats);
	evs[0] = format_event(&raw, "ftrace", "function");
	if (!evs[0])
		msg_die(EXIT_ERR, "cannot read the function tracer's record format "
			"(events/ftrace/function)");
	/* names from the naming events beside the tracer; at the top level
	 * those would be the user's, so there no name is known */
	comm_rows(ftracer_top() ? NULL : &raw, evs, 0, on_call, NULL);
	cgscope_follow(&raw, 0);	/* --cgroup: its members (comm_rows asks it of each call) */
	/* recording from here, before the banner says so; the reader turns
	 * tracing_on on again itself: the run's value too */
	if (ftracer_top())
		global_expect("tracing_on", "1");
	ftracer_set_or_die("tracing_on", "1");
	cgscope_started();

	out_init(o.duration > 0);
	ftracer_banner(o.funcs, o.pid, o.tid, o.cgroup, 0, o.duration);
	if (o.headers && !out_json)
		evtext_header(stdout, "function", o.funcs);
	fflush(stdout);

	child_go();	/* --exec: the command runs from here */
	stream_run(&raw, o.duration, 0, NULL, NULL);
	stream_report_lost(&raw);

	out_ending();
	child_report();
	cgscope_report("calls");
	return EXIT_OK;
}

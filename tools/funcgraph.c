/* SPDX-License-Identifier: GPL-2.0-only */
/* funcgraph - graph a kernel function's calls to its children, with durations
 *
 * Uses the function_graph tracer: the kernel's own indented call graph of each
 * call of the named function(s), with the time each child took. The graph is
 * run in a private instance where the kernel can graph a function there
 * (function_graph and set_graph_function in instances), else at the top level,
 * with every setting saved first and restored exactly at exit; the top level is
 * refused while another tracer holds it. -p graphs the process's threads and
 * the threads and children they start (set_ftrace_pid with function-fork).
 * Overhead: high. Every kernel function gets a call to the tracer while this
 * runs, even when only one is graphed (expect the kernel 50% slower or worse);
 * try funccount first, and graph single functions, not globs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "comm.h"
#include "decode.h"
#include "format.h"
#include "ftracer.h"
#include "global.h"
#include "line.h"
#include "msg.h"
#include "names.h"
#include "options.h"
#include "output.h"
#include "reorder.h"
#include "session.h"
#include "signals.h"
#include "stream.h"

static const char usage_text[] =
"USAGE: funcgraph [-aCDhHjPtT] [-m maxdepth] [-p PID] [-L TID] [-d secs]\n"
"                 [--exec CMD] funcstring\n"
"                 -a              # all info (same as -HPt)\n"
"                 -C              # measure on-CPU time only\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -D              # do not show function duration\n"
"                 -h              # this usage message\n"
"                 -H              # include column headers\n"
"                 -j              # JSON Lines, one object per entry and exit (also --json)\n"
"                 -m maxdepth     # max stack depth to show\n"
"                 -p PID          # trace when this pid is on-CPU (threads, children)\n"
"                 -L TID          # trace when this thread is on-CPU\n"
"                 --exec CMD      # run CMD by sh; trace it and all it starts\n"
"                 -P              # show process names & PIDs\n"
"                 -t              # show timestamps\n"
"                 -T              # comment function tails\n"
"  eg,\n"
"       funcgraph do_nanosleep    # trace do_nanosleep() and children\n"
"       funcgraph -m 3 do_sys_openat2 # trace do_sys_openat2() to 3 levels only\n"
"       funcgraph -a do_sys_openat2 # include timestamps and process name\n"
"       funcgraph -p 198 vfs_read # trace vfs_read() for PID 198 only\n"
"       funcgraph -d 1 do_sys_openat2 >out # trace 1 sec, then write to file\n"
"\n";

struct opts {
	double duration;
	unsigned long maxdepth;
	pid_t pid, tid;
	int cpu_only, no_dur, headers, proc, abstime, tail;
	const char *funcs, *exec;
	char **list;		/* the functions funcs matches */
	int n;
};

static struct opts o;

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = opt_next(argc, argv, "aCd:DhHjm:p:L:PtT", opt_exec, usage_text)) != -1) {
		switch (c) {
		case 'a': o.headers = o.proc = o.abstime = 1; break;
		case 'C': o.cpu_only = 1; break;
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'D': o.no_dur = 1; break;
		case 'H': o.headers = 1; break;
		case 'm': o.maxdepth = opt_ulong(optarg, "-m", 1, 1000); break;
		case 'p': o.pid = opt_pid(optarg, "-p"); break;
		case 'L': o.tid = opt_tid(optarg, "-L"); break;
		case 'P': o.proc = 1; break;
		case 't': o.abstime = 1; break;
		case 'T': o.tail = 1; break;
		case OPT_EXEC: o.exec = optarg; break;
		}
	}
	opt_operands(argc, 1, 1, "funcstring (a kernel function name or glob)",
		     "quote several functions as one argument");
	opt_apart(o.pid, "-p", o.tid, "-L");
	opt_apart(o.pid, "-p", o.exec != NULL, "--exec");
	opt_apart(o.tid, "-L", o.exec != NULL, "--exec");
	o.funcs = argv[optind];
	opt_funcs(o.funcs, "a kernel function name or glob");
}

static struct session *sess;
/* where the graph runs: our instance, or the top level (inst NULL, top 1) */
static struct tracefs_instance *inst;
static int top;
static int mono;		/* -j: the trace clock is CLOCK_MONOTONIC's */
static struct session raw;	/* -j: sess reading the records where the graph runs */
static struct tep_event *exit_ev;	/* -j: ftrace:funcgraph_exit */

/* col_field - the field as a signed number, or null where this kernel has no such field */
static void col_field(struct line *l, struct tep_event *ev, struct tep_record *rec,
		      const char *field)
{
	if (decode_has(ev, field))
		col_dec(l, field, decode_s64(ev, rec, field), ALIGN_LEFT, 0);
	else
		col_null(l, field, "", ALIGN_LEFT, 0);
}

/* on_graph - -j: a funcgraph_entry or funcgraph_exit record as one object, in
 * time order, with its task's name then (NULL: not known) */
static void on_graph(const struct stream_rec *r)
{
	static struct line line;
	struct tep_event *ev = r->ev;
	struct tep_record *rec = r->rec;
	int pid = decode_pid(ev, rec), ret = ev == exit_ev;
	unsigned long long call, back;

	if (!decode_record_ok(ev, rec))
		return;
	line_begin(&line, mono ? rec->ts : LINE_NO_TIME);
	col_str(&line, "comm", r->comm, ALIGN_LEFT, 0, -1);
	col_dec(&line, "pid", pid, ALIGN_LEFT, 0);
	col_dec(&line, "cpu", rec->cpu, ALIGN_LEFT, 0);
	col_str(&line, "type", ret ? "exit" : "entry", ALIGN_LEFT, 0, -1);
	col_str(&line, "func", decode_has(ev, "func") ?
		names_kfunc(&raw, decode_u64(ev, rec, "func")) : NULL, ALIGN_LEFT, 0, -1);
	col_field(&line, ev, rec, "depth");
	if (ret) {
		call = decode_u64(ev, rec, "calltime");
		back = decode_u64(ev, rec, "rettime");
		/* a call time of 0 was never taken (no clock reads 0 after boot) */
		if (decode_has(ev, "calltime") && decode_has(ev, "rettime") && call && back >= call)
			col_dec(&line, "duration_ns", (long long)(back - call), ALIGN_LEFT, 0);
		else
			col_null(&line, "duration_ns", "", ALIGN_LEFT, 0);
		col_field(&line, ev, rec, "retval");
		col_field(&line, ev, rec, "overrun");
	}
	line_put(&line);
}

/* setup - configure the graph; options after the tracer (older kernels need that) */
static void setup(void)
{
	char num[32];

	ftracer_set_or_die("tracing_on", "0");
	/* -j: record times on the clock fmt_iso converts, which all CPUs share
	 * (else "time" is null) */
	mono = out_json && ftracer_set("trace_clock", "mono") == 0;
	/* max_graph_depth is global even where instances graph */
	snprintf(num, sizeof(num), "%lu", o.maxdepth);
	if ((top || o.maxdepth) && global_write("max_graph_depth", num, 1) < 0)
		msg_die(EXIT_ERR, "-m: cannot set max_graph_depth:");
	/* -p: its threads and (function-fork) those it starts; -L: one thread */
	ftracer_who(o.pid, o.tid);
	/* every function traced, so that the graph shows the children */
	ftracer_list("set_ftrace_filter", "", NULL, 0);
	ftracer_list("set_graph_function", o.funcs, o.list, o.n);
	ftracer_set_or_die("current_tracer", "function_graph");
	if (ftracer_option("sleep-time", !o.cpu_only) < 0 && o.cpu_only)
		msg_die(EXIT_ERR, "-C: this kernel has no sleep-time option");
	if (ftracer_option("funcgraph-tail", o.tail) < 0 && o.tail)
		msg_die(EXIT_ERR, "-T: this kernel has no funcgraph-tail option");
	ftracer_option("funcgraph-duration", !o.no_dur);
	ftracer_option("funcgraph-proc", o.proc);
	ftracer_option("funcgraph-abstime", o.abstime);
	ftracer_option("funcgraph-cpu", 1);
	ftracer_option("funcgraph-overhead", 1);
	/* return values where the kernel records them (CONFIG_FUNCTION_GRAPH_RETVAL) */
	ftracer_option("funcgraph-retval", 1);
	/* -j reads funcgraph_entry records, not the return-address kind */
	if (out_json)
		ftracer_option("funcgraph-retaddr", 0);
}

/* json_setup - -j: the graph's record formats, read where the graph runs; dies without them */
static void json_setup(void)
{
	struct tep_event *evs[3] = { NULL, NULL, NULL };

	raw = *sess;
	raw.inst = inst;
	raw.tep = NULL;
	format_load(&raw, (const char *const[]){ "ftrace:funcgraph_entry",
						 "ftrace:funcgraph_exit", COMM_FORMATS, NULL });
	evs[0] = format_event(&raw, "ftrace", "funcgraph_entry");
	evs[1] = exit_ev = format_event(&raw, "ftrace", "funcgraph_exit");
	if (!evs[0] || !exit_ev)
		msg_die(EXIT_ERR, "-j: cannot read the function graph record formats "
			"(events/ftrace/funcgraph_entry, funcgraph_exit)");
	/*
	 * a task's records on two CPUs: in time order only across drains
	 * (reorder), each with its task's name then, from the naming events
	 * in the graph's instance; at the top level those events would be the
	 * user's, so there no name is known (null)
	 */
	if (top) {
		comm_rows(NULL, evs, 0, on_graph, NULL);
		return;
	}
	comm_rows(&raw, evs, 0, on_graph, NULL);
}

int main(int argc, char **argv)
{
	char pidtext[64] = "";

	msg_init("funcgraph");
	sig_init();
	parse(argc, argv);
	if (o.exec)
		o.pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	o.n = ftracer_check(1, o.funcs, &o.list);

	sess = session_open("funcgraph");
	ftracer_place(sess, "function_graph", "set_graph_function", "function graph tracing");
	inst = ftracer_inst();
	top = ftracer_top();
	setup();
	if (out_json)
		json_setup();

	out_init(o.duration > 0);
	if (o.pid)
		snprintf(pidtext, sizeof(pidtext), " for PID %d", (int)o.pid);
	if (o.tid)
		snprintf(pidtext, sizeof(pidtext), " for TID %d", (int)o.tid);
	if (o.duration > 0)
		out_banner("Tracing \"%s\"%s for %g seconds...\n", o.funcs, pidtext, o.duration);
	else
		out_banner("Tracing \"%s\"%s... Ctrl-C to end.\n", o.funcs, pidtext);
	fflush(stdout);

	/* the readers turn tracing_on on themselves: the run's value too */
	if (top)
		global_expect("tracing_on", "1");
	if (o.exec) {	/* recording before the command runs: the reader would a moment later */
		ftracer_set_or_die("tracing_on", "1");
		child_go();
	}
	if (out_json) {
		stream_run(&raw, o.duration, 0, NULL, NULL);
		stream_report_lost(&raw);
	} else if (stream_run_text(inst, o.duration, o.headers) < 0) {
		msg_die(EXIT_ERR, "cannot read trace_pipe:");
	}

	out_ending();
	child_report();
	return EXIT_OK;
}

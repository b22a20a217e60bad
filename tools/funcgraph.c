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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "comm.h"
#include "decode.h"
#include "filter.h"
#include "format.h"
#include "global.h"
#include "kernel.h"
#include "line.h"
#include "msg.h"
#include "names.h"
#include "options.h"
#include "output.h"
#include "probes.h"
#include "reorder.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "who.h"

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

/* has_word - does the space-separated list contain the word */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; list && (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == '\n') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return 1;
	return 0;
}

/* check_kernel - refuse, in one line, a kernel that does not allow the graph */
static void check_kernel(void)
{
	char *filter = global_read("set_ftrace_filter");
	const char *why;

	why = errno == EPERM ? " not permitted, kernel lockdown?" : " unreadable";
	if (!filter && !kernel_has(KF_FUNC_GRAPH))
		msg_die(EXIT_ERR, "this kernel does not allow function graph tracing: "
			"no function_graph tracer (CONFIG_FUNCTION_GRAPH_TRACER) and function "
			"tracing refused (set_ftrace_filter:%s)", why);
	if (!kernel_has(KF_FUNC_GRAPH))
		msg_die(EXIT_ERR, "this kernel does not allow function graph tracing: "
			"no function_graph tracer (needs CONFIG_FUNCTION_GRAPH_TRACER)");
	if (!filter)
		msg_die(EXIT_ERR, "this kernel refuses function tracing "
			"(reading set_ftrace_filter:%s)", why);
	free(filter);
	o.n = probes_funcs(o.funcs, &o.list);
	if (o.n < 0)
		msg_die(EXIT_ERR, "this kernel refuses the list of traceable functions "
			"(available_filter_functions:%s)", errno == EPERM ?
			" not permitted, kernel lockdown?" : " unreadable");
	if (o.n == 0)
		msg_die(EXIT_ERR, "no traceable kernel function matches \"%s\" "
			"(see available_filter_functions)", o.funcs);
}

/* choose_place - instance if the kernel graphs there, else a free top level */
static void choose_place(void)
{
	char *tracers = tracefs_instance_file_read(sess->inst, "available_tracers", NULL);
	char *events;
	long held;

	top = !tracers || !has_word(tracers, "function_graph") ||
	      !tracefs_file_exists(sess->inst, "set_graph_function");
	free(tracers);
	inst = top ? NULL : sess->inst;
	if (!top)
		return;
	global_tracer_free("this kernel graphs only at the top level, so funcgraph will not "
			   "take it");
	events = global_read("set_event");
	if (!events || *events)
		msg_die(EXIT_ERR, "the top-level trace buffer is in use (events enabled in "
			"set_event); this kernel graphs only at the top level");
	/* what is there is someone's recording: not ours to clear */
	held = session_buffer_entries(NULL);
	if (held < 0)
		msg_die(EXIT_ERR, "cannot tell whether the top-level trace buffer is empty "
			"(per_cpu/*/stats); this kernel graphs only at the top level");
	if (held > 0)
		msg_die(EXIT_ERR, "the top-level trace buffer holds %ld events of someone's "
			"recording; this kernel graphs only at the top level, and funcgraph "
			"will not clear it", held);
	/* empty: what is recorded there from now on is ours, and emptied at exit
	 * (by the next run after a SIGKILL, from the journal) */
	if (global_write("trace", "", 1) < 0)
		msg_die(EXIT_ERR, "cannot empty the top-level trace buffer:");
	free(events);
}

/* set - write a file where the graph runs; top-level files are restored at exit */
static int set(const char *file, const char *value)
{
	return session_set(sess, top, file, value);
}

/* set_or_die - set, or end with a line naming the file */
static void set_or_die(const char *file, const char *value)
{
	if (set(file, value) < 0)
		msg_die(EXIT_ERR, errno == EBUSY ? "%s holds function triggers of another user; "
			"not touching it" : "cannot set %s:", file);
}

/* check_list - the function list FILE holds the N functions of LIST, exactly, else die */
static void check_list(const char *file, const char *asked, char **list, int n)
{
	if (probes_list_holds(inst, file, list, n) < 0)
		msg_die(EXIT_ERR, "the kernel did not take \"%s\" as asked: %s does not hold "
			"exactly the %d functions it matches", asked, file, n);
}

/* set_option - trace option of the graph tracer; -1 if this kernel lacks it */
static int set_option(const char *name, int on)
{
	char path[96];

	snprintf(path, sizeof(path), "options/%s", name);
	if (!tracefs_file_exists(inst, path))
		return -1;
	set_or_die(path, on ? "1" : "0");
	return 0;
}

/* setup - configure the graph; options after the tracer (older kernels need that) */
static void setup(void)
{
	char num[32];

	set_or_die("tracing_on", "0");
	/* -j: record times on the clock fmt_iso converts, which all CPUs share
	 * (else "time" is null) */
	mono = out_json && set("trace_clock", "mono") == 0;
	/* max_graph_depth is global even where instances graph */
	snprintf(num, sizeof(num), "%lu", o.maxdepth);
	if ((top || o.maxdepth) && global_write("max_graph_depth", num, 1) < 0)
		msg_die(EXIT_ERR, "-m: cannot set max_graph_depth:");
	/* -p: its threads and (function-fork) those it starts; -L: one thread */
	if (o.pid || o.tid)
		who_ftrace(sess, top, o.pid, o.tid);
	else
		set_or_die("set_ftrace_pid", "");
	/* never graph ourselves reading the trace (5.8+ has notrace_pid) */
	snprintf(num, sizeof(num), "%d", (int)getpid());
	if (!o.pid && !o.tid && tracefs_file_exists(inst, "set_ftrace_notrace_pid"))
		set_or_die("set_ftrace_notrace_pid", num);
	set_or_die("set_ftrace_filter", "");
	check_list("set_ftrace_filter", "", NULL, 0);
	if (set("set_graph_function", o.funcs) < 0)
		msg_die(EXIT_ERR, errno == EBUSY ? "set_graph_function holds another user's "
			"settings; not touching it" : "kernel refused the graph function "
			"\"%s\":", o.funcs);
	/* every function asked for, each entry taken (one per write) */
	check_list("set_graph_function", o.funcs, o.list, o.n);
	set_or_die("current_tracer", "function_graph");
	if (set_option("sleep-time", !o.cpu_only) < 0 && o.cpu_only)
		msg_die(EXIT_ERR, "-C: this kernel has no sleep-time option");
	if (set_option("funcgraph-tail", o.tail) < 0 && o.tail)
		msg_die(EXIT_ERR, "-T: this kernel has no funcgraph-tail option");
	set_option("funcgraph-duration", !o.no_dur);
	set_option("funcgraph-proc", o.proc);
	set_option("funcgraph-abstime", o.abstime);
	set_option("funcgraph-cpu", 1);
	set_option("funcgraph-overhead", 1);
	/* return values where the kernel records them (CONFIG_FUNCTION_GRAPH_RETVAL) */
	set_option("funcgraph-retval", 1);
	/* -j reads funcgraph_entry records, not the return-address kind */
	if (out_json)
		set_option("funcgraph-retaddr", 0);
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
	check_kernel();

	sess = session_open("funcgraph");
	choose_place();
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
		set_or_die("tracing_on", "1");
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * fgraph.c - the function_graph tracer for one run
 *
 * Where the graph runs is ftracer's choice (the run's instance where the
 * kernel graphs there, else the top level, saved and restored). The settings
 * the kernel keeps for every graph alike are handled here: max_graph_depth,
 * and tracing_thresh, which makes the graph record only the returns slower
 * than it (funcslower), and which is never another user's when a run starts.
 * The product is the kernel's own text of the graph, or (-j) the binary
 * funcgraph_entry and funcgraph_exit records as JSON objects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "comm.h"
#include "decode.h"
#include "fgraph.h"
#include "format.h"
#include "ftracer.h"
#include "global.h"
#include "line.h"
#include "msg.h"
#include "names.h"
#include "output.h"
#include "session.h"
#include "stream.h"

static struct fgraph *g;
static int mono;		/* -j: the trace clock is CLOCK_MONOTONIC's */
static struct session raw;	/* -j: the session reading the records where the graph runs */
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
	unsigned long long ns;

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
		if (fgraph_duration(r, &ns) == 1)
			col_dec(&line, "duration_ns", (long long)ns, ALIGN_LEFT, 0);
		else
			col_null(&line, "duration_ns", "", ALIGN_LEFT, 0);
		col_field(&line, ev, rec, "retval");
		col_field(&line, ev, rec, "overrun");
	}
	line_put(&line);
}

/*
 * thresh - tracing_thresh, one for every graph in every kernel: a value
 * someone else set is left alone and the run refused (the graph would hold
 * only the returns slower than it); the run's own is saved first and put
 * back at exit. Set before the tracer: the kernel reads it then.
 */
static void thresh(void)
{
	char *now = global_read("tracing_thresh"), num[32];

	if (!now)
		msg_die(EXIT_ERR, "cannot read tracing_thresh:");
	if (strcmp(now, "0") != 0)
		msg_die(EXIT_ERR, "tracing_thresh is %s us, set by another user or run: a graph "
			"would hold only the returns slower than that; not touching it", now);
	free(now);
	if (!g->thresh_us)
		return;
	snprintf(num, sizeof(num), "%lu", g->thresh_us);
	if (global_write("tracing_thresh", num, 1) < 0)
		msg_die(EXIT_ERR, "cannot set tracing_thresh:");
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
	snprintf(num, sizeof(num), "%lu", g->maxdepth);
	if ((ftracer_top() || g->maxdepth) && global_write("max_graph_depth", num, 1) < 0)
		msg_die(EXIT_ERR, "cannot set max_graph_depth:");
	thresh();
	/* -p: its threads and (function-fork) those it starts; -L: one thread */
	ftracer_who(g->pid, g->tid);
	if (g->children)	/* every function traced, so that the graph shows them */
		ftracer_list("set_ftrace_filter", "", NULL, 0);
	else
		ftracer_list("set_ftrace_filter", g->funcs, g->list, g->n);
	ftracer_list("set_graph_function", g->funcs, g->list, g->n);
	ftracer_set_or_die("current_tracer", "function_graph");
	if (ftracer_option("sleep-time", !g->cpu_only) < 0 && g->cpu_only)
		msg_die(EXIT_ERR, "-C: this kernel has no sleep-time option");
	if (ftracer_option("funcgraph-tail", g->tail) < 0 && g->tail)
		msg_die(EXIT_ERR, "-T: this kernel has no funcgraph-tail option");
	if (ftracer_option("funcgraph-irqs", !g->no_irqs) < 0 && g->no_irqs)
		msg_die(EXIT_ERR, "-I: this kernel has no funcgraph-irqs option");
	/*
	 * the kernel names and shows the arguments from its BTF: the option
	 * exists only where it does (CONFIG_FUNCTION_TRACE_ARGS needs BTF)
	 */
	if ((ftracer_option("funcgraph-args", g->args) < 0 ||
	     access("/sys/kernel/btf/vmlinux", R_OK) != 0) && g->args)
		msg_die(EXIT_ERR, "-A: this kernel records no function arguments "
			"(options/funcgraph-args, 6.16 and later with BTF)");
	ftracer_option("funcgraph-duration", !g->no_dur);
	ftracer_option("funcgraph-proc", g->proc);
	ftracer_option("funcgraph-abstime", g->abstime);
	ftracer_option("funcgraph-cpu", 1);
	ftracer_option("funcgraph-overhead", 1);
	/* return values where the kernel records them (CONFIG_FUNCTION_GRAPH_RETVAL) */
	ftracer_option("funcgraph-retval", 1);
	/* -j reads funcgraph_entry records, not the return-address kind */
	if (out_json || g->records)
		ftracer_option("funcgraph-retaddr", 0);
}

/* json_setup - -j: the graph's record formats, read where the graph runs; dies without them */
static void json_setup(struct session *s)
{
	struct tep_event *evs[3] = { NULL, NULL, NULL };

	raw = *s;
	raw.inst = ftracer_inst();
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
	if (g->records)		/* counted, not printed: no names needed */
		comm_rows(NULL, evs, 0, g->records, NULL);
	else
		comm_rows(ftracer_top() ? NULL : &raw, evs, 0, on_graph, NULL);
}

/* fgraph_duration - see fgraph.h */
int fgraph_duration(const struct stream_rec *r, unsigned long long *ns)
{
	unsigned long long call, back;

	if (r->ev != exit_ev)
		return 0;
	if (!decode_record_ok(r->ev, r->rec) || !decode_has(r->ev, "calltime") ||
	    !decode_has(r->ev, "rettime"))
		return -1;
	call = decode_u64(r->ev, r->rec, "calltime");
	back = decode_u64(r->ev, r->rec, "rettime");
	/* a call time of 0 was never taken (no clock reads 0 after boot) */
	if (!call || back < call)
		return -1;
	*ns = back - call;
	return 1;
}

/* fgraph_start - see fgraph.h */
void fgraph_start(struct session *s, struct fgraph *conf)
{
	g = conf;
	ftracer_place(s, "function_graph", "set_graph_function", "function graph tracing");
	setup();
	if (out_json || g->records)
		json_setup(s);
	/* recording from here, before the banner says so; the readers turn
	 * tracing_on on again themselves: the run's value too */
	if (ftracer_top())
		global_expect("tracing_on", "1");
	ftracer_set_or_die("tracing_on", "1");
}

/* fgraph_run_records - see fgraph.h */
void fgraph_run_records(double duration, double interval, void (*tick)(void *), void *arg)
{
	child_go();	/* --exec: the command runs from here */
	stream_run(&raw, duration, interval, tick, arg);
	stream_report_lost(&raw);
}

/* fgraph_run - see fgraph.h */
void fgraph_run(double duration, int headers)
{
	child_go();	/* --exec: the command runs from here */
	if (out_json) {
		stream_run(&raw, duration, 0, NULL, NULL);
		stream_report_lost(&raw);
	} else if (stream_run_text(ftracer_inst(), duration, headers) < 0) {
		msg_die(EXIT_ERR, "cannot read trace_pipe:");
	}
}

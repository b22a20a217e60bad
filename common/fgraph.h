/* SPDX-License-Identifier: GPL-2.0-only */
/* fgraph.h - the function_graph tracer for one run (funcgraph, funcslower):
 * its settings, and its output as the kernel's text or as JSON Lines */
#ifndef FTT_FGRAPH_H
#define FTT_FGRAPH_H

#include <sys/types.h>

#include "stream.h"

struct session;

struct fgraph {
	const char *funcs;	/* the functions graphed (set_graph_function) */
	char **list;		/* the traceable functions funcs matches */
	int n;
	int children;		/* trace every function, so that calls inside show */
	unsigned long maxdepth;	/* max_graph_depth (0: no limit) */
	unsigned long thresh_us;	/* tracing_thresh: only returns this slow (0: all) */
	int cpu_only, no_dur, proc, abstime, tail;	/* the text's options */
	int no_irqs;		/* leave out what runs in hard interrupts */
	int args;		/* each call's arguments (funcgraph-args: BTF, 6.16+) */
	pid_t pid, tid;		/* -p (with the tasks it starts), -L */
	stream_fn records;	/* else NULL: every entry and exit record, in
				 * binary, to this handler instead of the text or
				 * JSON (fgraph_duration reads an exit's time) */
};

/*
 * fgraph_start - place the graph (the session's instance where the kernel
 * graphs there, else the top level: ftracer_place), set it up as G says and
 * start recording; with out_json, the binary records are what will be read.
 * G must outlive the run.
 */
void fgraph_start(struct session *s, struct fgraph *g);
/*
 * fgraph_run - trace until the end (Ctrl-C, DURATION, the --exec command
 * done): the kernel's text with HEADERS first, or one JSON object per entry
 * and exit; lets a held --exec command run (child_go)
 */
void fgraph_run(double duration, int headers);
/* fgraph_run_records - the same for G's records handler, with TICK(ARG)
 * every INTERVAL seconds (0: none) */
void fgraph_run_records(double duration, double interval, void (*tick)(void *), void *arg);
/*
 * fgraph_duration - for a record of the graph: 1 and *ns the time from the
 * call to the return if it is an exit that holds both, 0 if it is an entry,
 * -1 if it is an exit without them (or a record that does not match its
 * format)
 */
int fgraph_duration(const struct stream_rec *r, unsigned long long *ns);

#endif

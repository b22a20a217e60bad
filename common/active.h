/* SPDX-License-Identifier: GPL-2.0-only */
/* active.h - what is active in tracefs: listed, dead runs' leftovers removed,
 * the top level reset */
#ifndef FTT_ACTIVE_H
#define FTT_ACTIVE_H

/* perf-tools' lock file: its PID, one line, while a bash tool runs */
#define ACTIVE_PERF_LOCK "/var/tmp/.ftrace-lock"

/* one thing found active, or a change made to it */
struct active_item {
	const char *action;	/* "removed", "reset", "active" */
	const char *kind;	/* "instance", "probes", "journal", "setting", "filter",
				 * "trigger", "lock" */
	const char *name;	/* the instance, probe group, journal path, file or lock */
	const char *value;	/* what it holds (now, after a reset); NULL: nothing to say */
	const char *was;	/* reset: what it held before; else NULL */
	const char *tool;	/* a run of this suite it belongs to; NULL if none */
	int pid;		/* that run's PID, or the lock's; 0 if none */
	int running;		/* pid is running (a run of ours: with its start time) */
	const char *note;	/* what is done with it ("left alone"); NULL */
};

typedef void (*active_fn)(const struct active_item *it, void *arg);

/*
 * active_reap - reaper_reap(), and fn once for each instance, probe group and
 * journal of a run that was gone before it and is gone after (removed)
 */
void active_reap(active_fn fn, void *arg);
/*
 * active_reset - the top level as perf-tools' reset-ftrace resets it:
 * current_tracer nop; set_ftrace_filter, set_graph_function and
 * set_ftrace_pid emptied; events/enable 0; tracing_thresh 0; each kprobe
 * removed but those of live runs of this suite; tracing_on 1; then
 * ACTIVE_PERF_LOCK removed. A file the kernel lacks is skipped, one already
 * at its value is not written; fn once per change. Call it holding the
 * suite's lock (journal_lock). 0, or -1 if a write was refused (each one
 * warned with the kernel's reason, errlog_warn).
 */
int active_reset(active_fn fn, void *arg);
/*
 * active_list - fn once per thing active: each top-level file not at its
 * default (tracer, tracing_on, events, dynamic events but those of live runs
 * of ours, function and PID filters, thresholds, the profiler), each
 * top-level event filter and trigger, ACTIVE_PERF_LOCK, each instance (the
 * user's, or a run of ours), each journal left. The number listed.
 */
int active_list(active_fn fn, void *arg);

#endif

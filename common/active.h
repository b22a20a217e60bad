/* SPDX-License-Identifier: GPL-2.0-only */
/* active.h - what is active in tracefs, listed; the item reset-ftrace is told
 * of, and what its three modules share (active, leftover, topreset) */
#ifndef FTT_ACTIVE_H
#define FTT_ACTIVE_H

#include <stddef.h>

/* a value shown in one line: at most this many bytes, then "..." */
#define ACTIVE_SHOWN_MAX 240

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
 * active_list - fn once per thing active: each top-level file not at its
 * default (tracer, tracing_on, events, dynamic events but those of live runs
 * of ours, function and PID filters, thresholds, the profiler), each
 * top-level event filter and trigger, ACTIVE_PERF_LOCK, each instance (the
 * user's, or a run of ours), each journal left. The number listed.
 */
int active_list(active_fn fn, void *arg);

/*
 * active_shown - TEXT as one line: its lines joined by a blank, cut after
 * ACTIVE_SHOWN_MAX bytes with " ... (N lines)"; malloc'd
 */
char *active_shown(const char *text);
/*
 * active_owner_of - the run of this suite a dynamic event NAME ("GROUP/EVENT", or a
 * synthetic event's "EVENT") belongs to: its group, else its event, named
 * "ftt_TOOL_PID_START"; the one that names it in key[len]. 0, or -1 if none.
 */
int active_owner_of(const char *name, char *tool, size_t tlen, int *pid,
		    unsigned long long *start, char *key, size_t len);
/* active_dyn_name - the name of a dynamic event's line, "p:GROUP/EVENT ARGS" or
 * (synthetic_events) "EVENT FIELDS", into buf; NULL for an empty line */
const char *active_dyn_name(const char *line, char *buf, size_t len);
/* active_journal_owner - TOOL-PID-START of a journal's file name; -1 for another name */
int active_journal_owner(const char *name, char *tool, size_t len, int *pid,
			 unsigned long long *start);
/* active_pid_runs - does a process have PID (0: not known) */
int active_pid_runs(int pid);
/* active_perf_lock - does ACTIVE_PERF_LOCK exist; the PID it holds in *pid (0 if none) */
int active_perf_lock(int *pid);

#endif

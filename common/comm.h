/* SPDX-License-Identifier: GPL-2.0-only */
/* comm.h - task names as the trace records them, and rows held until their
 * task's name at the time is known */
#ifndef FTT_COMM_H
#define FTT_COMM_H

#include <tracefs.h>

#include "stream.h"

struct session;

/*
 * Names come from the records that carry them: a fork (parent and child), a
 * rename (prctl, exec, /proc/PID/comm: the old name and the new), a context
 * switch (both tasks). A task that slept from before tracing began is named
 * by its first switch back in, but a kernel may not record that switch (the
 * 6.18 kernel of the test host leaves out every switch from one CPU's idle
 * task), so a row is not printed with a name read elsewhere: it waits for the
 * name its task had then, from the last naming record before it or else the
 * first one after it (a switch out or a rename shows the name the task had
 * since its last rename, and renames are all traced). Lost events end what
 * is known; a row still waiting after HOLD of trace time, at a gap, or at
 * the end is emitted with no name.
 */
#define COMM_HOLD_NS 1000000000ULL

/* the formats comm follows, for a tool's format_load list */
#define COMM_FORMATS "sched:sched_process_fork", "task:task_rename", "sched:sched_switch"
#define COMM_NR_FORMATS 3

/* emit(item, comm, ctx): print a held item with its task's name (NULL: not known), free it */
typedef void (*comm_emit_fn)(void *item, const char *comm, void *ctx);

/*
 * comm_follow - learn names from sched_process_fork, task_rename and
 * sched_switch (the first two without the tool's own tasks), in time order;
 * emit prints what comm_hold holds
 */
void comm_follow(struct session *s, comm_emit_fn emit, void *ctx);
/*
 * comm_rows - every record of the events evs (NULL-ended, enabled by the
 * tool) goes to fn (with ctx) in time order, with the name its task had then
 * in r->comm (NULL: not known), held as comm_hold holds rows; names are
 * followed as comm_follow does. An event of evs that names
 * tasks (a fork, a rename, a switch) names them for comm too; a kernel stack
 * (-s: ftrace:kernel_stack among evs) that the kernel records after one of
 * comm's own records is that record's, and is dropped. `filtered`: the
 * events of evs are filtered in the kernel (a filter, -L), so a task_rename
 * among them may miss renames: then no name is trusted, and every row goes
 * out with none; so it does with s NULL (names are not followed: the naming
 * events could not be enabled).
 */
void comm_rows(struct session *s, struct tep_event *const *evs, int filtered, stream_fn fn,
	       void *ctx);
/*
 * comm_aside - records of ev (one of comm_rows' evs, set before the stream
 * begins) are the tool's own bookkeeping (a new task, an exec), not rows:
 * --cgroup (cgscope.h) does not leave them out, and each is first given to
 * now (if not NULL) in time order, before it may be held for its name. At
 * most two events.
 */
void comm_aside(const struct tep_event *ev, stream_fn now);
/*
 * comm_row - the stream handler comm_rows gives the events evs (ctx NULL): a
 * tool that follows its event with stream_follow (stream.h) gives it this
 * one, and names the event among evs too
 */
void comm_row(const struct stream_rec *r);
/* comm_now - tid's name as of the record being handed on ("<idle>" for 0), or NULL if not known */
const char *comm_now(int tid);
/*
 * comm_hold - item, of task tid at time ts (records handed on in time order):
 * emitted in the order held, each once its name at ts is known (at once when
 * nothing waits before it and the name is known now)
 */
void comm_hold(int tid, unsigned long long ts, void *item);
/* comm_waiting - how many items are held */
unsigned long comm_waiting(void);

#endif

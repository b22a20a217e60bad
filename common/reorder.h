/* SPDX-License-Identifier: GPL-2.0-only */
/* reorder.h - deliver records of all CPUs in time order, across drains */
#ifndef FTT_REORDER_H
#define FTT_REORDER_H

#include <tracefs.h>

#include "stream.h"

/*
 * One drain merges the CPUs by timestamp, but a record committed on one CPU
 * while another CPU's newer records were being read only shows up in the next
 * drain. Tools that pair records of one task (syscall entry and exit, a probe
 * and the exec that follows it) queue them here: records are copied and handed
 * on in timestamp order once every CPU has moved past them: after each drain
 * of stream_run, what every CPU has been read past (stream_horizon) and the
 * drain before had reached (at most two poll periods late), and everything
 * after the final drain. Lost events are handed on the same way (reorder_on_gap).
 */

/*
 * reorder_init - before tracing starts: timestamps every CPU shares. The
 * instance's trace_clock becomes "mono"; the default "local" clock is each
 * CPU's own and can run apart between CPUs (a Debian 6.1 guest under qemu TCG
 * put an open's exit, on another CPU, before its entry). -1 if the kernel
 * lacks the mono clock (then timestamps stay per CPU). 1 on the mono clock,
 * else 0; a tool option that needs it (need, e.g. "-T"; NULL: none) then
 * ends the run with a line naming it.
 */
int reorder_init(struct session *s, const char *need);

/* reorder_on - queue every record of ev, to be handed to fn in time order
 * (a stream handler, stream.h: its cpu is rec->cpu) */
void reorder_on(struct tep_event *ev, stream_fn fn, void *ctx);
/*
 * reorder_follow - stream_follow (stream.h) with the records handed to fn in
 * time order (reorder_on). A handler that must read a record at once (what
 * may be gone later) is given to stream_follow, and queues the record with
 * reorder_push. Returns the event, or NULL (nothing done) if its format is
 * not loaded.
 */
struct tep_event *reorder_follow(struct session *s, const char *sys, const char *name,
				 const char *filter, stream_fn fn, void *ctx);
/* reorder_push - queue one record from a stream handler, for fn with ctx and aux (freed after fn) */
void reorder_push(struct tep_event *ev, struct tep_record *rec, stream_fn fn, void *ctx,
		  void *aux);
/* reorder_keep_aux - called by a handler: it keeps its aux, which is not freed */
void reorder_keep_aux(void);
/*
 * reorder_drained - stream_run calls it after each drain (reorder_push arranges
 * that): hand on, in time order, what the drain before this one had reached;
 * with last, everything
 */
void reorder_drained(int last);

/* a gap hook gets the CPU that lost events and the time of its first record after them */
typedef void (*reorder_gap_fn)(int cpu, unsigned long long ts, void *ctx);
/*
 * reorder_on_gap - call fn(cpu, ts, ctx) at each gap (events lost on a CPU),
 * in time order: after every queued record older than the first record after
 * the loss, before that record. Any state that lost events could have ended
 * or replaced (a call's entry waiting for its exit) is to be forgotten there.
 * Setting the same fn and ctx again does nothing.
 */
void reorder_on_gap(reorder_gap_fn fn, void *ctx);
/* a delivery hook gets the time up to which every record has been handed on */
typedef void (*reorder_delivered_fn)(unsigned long long upto, int last, void *ctx);
/*
 * reorder_on_delivered - call fn(upto, last, ctx) after each hand-on: every
 * record stamped up to `upto` has been handed on (with last, after the final
 * drain: all of them). One hook; a second, other one is an internal error.
 */
void reorder_on_delivered(reorder_delivered_fn fn, void *ctx);
/* reorder_gaps - how many gaps have been handed on so far (see reorder_on_gap) */
unsigned long long reorder_gaps(void);

#endif

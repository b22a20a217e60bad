/* SPDX-License-Identifier: GPL-2.0-only */
/* stream.h - the event loop: drain per-CPU binary buffers, dispatch by event */
#ifndef FTT_STREAM_H
#define FTT_STREAM_H

#include <tracefs.h>

struct session;

/*
 * What a handler is given: one record of the event it was registered for,
 * and what came with it. Every record handler has this one signature, the
 * stream's, reorder's (reorder.h) and comm_rows's (comm.h); each reads only
 * the members it uses.
 */
struct stream_rec {
	struct tep_event *ev;	/* the record's event */
	struct tep_record *rec;	/* the record: its ts, data (and cpu) */
	int cpu;		/* the CPU whose buffer held it */
	void *aux;		/* what reorder_push queued with it (else NULL) */
	void *ctx;		/* the ctx the handler was registered with */
	const char *comm;	/* comm_rows: its task's name then (NULL: not known) */
};
/* a record handler */
typedef void (*stream_fn)(const struct stream_rec *r);

/* stream_on - call fn for every record of ev (NULL ev: every record not claimed);
 * the same ev, fn and ctx again add nothing */
void stream_on(struct tep_event *ev, stream_fn fn, void *ctx);
/* stream_handled - has ev a handler (stream_on) already: its records go there first */
int stream_handled(const struct tep_event *ev);
/*
 * stream_follow - follow the event SYS:NAME in one call: its format (loaded
 * by format_load), the filter (NULL: none set here; the tool's own, refused
 * as a runtime error), its records to fn with ctx as they are read
 * (stream_on), and the event enabled. Returns the event, or NULL (nothing
 * done) if its format is not loaded. reorder_follow (reorder.h) is the same
 * with the records in time order.
 */
struct tep_event *stream_follow(struct session *s, const char *sys, const char *name,
				const char *filter, stream_fn fn, void *ctx);
/*
 * stream_run - turn tracing on, drain the kernel buffers every poll period and
 * dispatch, until a stop is requested or `duration` seconds (0: no limit) pass;
 * every `interval` seconds (0: never) call tick(arg). A drain hands on at most
 * 16384 records or 0.25 s, in time order, so a flood the reader cannot keep up
 * with grows neither the tool's memory nor the time a stop takes: the kernel
 * drops what its buffer cannot hold, and stream_report_lost counts it. Tracing
 * is off on return and everything recorded has been dispatched; after a stop
 * signal, what half a second more of reading could not reach is reported on
 * stderr as not read.
 */
void stream_run(struct session *s, double duration, double interval,
		void (*tick)(void *), void *arg);
/*
 * stream_run_text - the same loop for a tracer whose own text is the product
 * (function_graph): copy inst's trace_pipe (NULL: the top level) to `out` as
 * it comes, until a stop or `duration`; with `headers`, the tracer's '#' header
 * lines from the trace file come first. tracing_on of inst is 1 while it runs.
 * Returns -1 (errno) if trace_pipe cannot be opened, else 0.
 */
int stream_run_text(struct tracefs_instance *inst, double duration, int headers);
/*
 * stream_text_no_switches - stream_run_text leaves out function_graph's
 * context-switch banners (" ------", " 0)  a-1  =>  b-2 ", and the blank
 * line after): where each line names its task (funcgraph-proc), they say
 * nothing more
 */
void stream_text_no_switches(void);
/*
 * stream_wait - nothing to read, nothing to do: wait for a stop, `duration`
 * (0: none) or the reader of stdout to go away (then the stop is requested, as
 * out_batch_end does), in one system call (sig_wait, after sig_hold)
 */
void stream_wait(double duration);
/* stream_idle - nothing to read (in-kernel counts): wait for a stop or `duration`, tick every `interval` */
void stream_idle(double duration, double interval, void (*tick)(void *), void *arg);
/* stream_idle_poll - stream_idle that also calls pollfn(arg) every `poll` seconds (counts to fold in) */
void stream_idle_poll(double duration, double interval, double poll, void (*pollfn)(void *),
		      void (*tick)(void *), void *arg);
/*
 * stream_on_drained - the hook called, fn(last), after each drain of
 * stream_run; last is 1 after the final one, when tracing is already off
 * (reorder hands on its queue). Setting fn again does nothing; a second,
 * other hook is an internal error.
 */
void stream_on_drained(void (*fn)(int last));
/*
 * stream_on_gap - the hook fn(rec, ctx) called, as the drain reaches it, before
 * the first record after events were lost on its CPU (rec: that record, its
 * cpu and ts); one, as stream_on_drained's (reorder.c's, which hands gaps on
 * in time order)
 */
void stream_on_gap(void (*fn)(const struct tep_record *rec, void *ctx), void *ctx);
/*
 * stream_horizon - after a drain: every record of every CPU stamped up to
 * this time has been read (a CPU is read up to the record its reader holds,
 * or, found empty, up to the newest record read when it was found empty at
 * the drain before); ~0 when no CPU is read
 */
unsigned long long stream_horizon(void);
/*
 * stream_size_buffer - grow the instance buffer for bursts the reader cannot
 * keep up with: BUF_KB_CPU per CPU, BUF_KB_ALL in all, 1/BUF_MEM_SHARE of the
 * available memory at most (stream.c); never shrinks a buffer (the kernel
 * default, or a size the tool chose). With the default 1.4 MB, a burst of
 * 500000 opens lost up to half its events; with 8 MB, up to a quarter in some
 * rounds on a busy host; 32 MB holds the whole burst (bench/RESULTS.md).
 * 1/128 of the memory keeps a small machine (or a 2 GB qemu guest: 7 MB per
 * CPU) from paying for it. Call it once, before session_start: a resize
 * empties the buffer, and a second call after the banner would resize again
 * whenever the available memory had grown since the first.
 */
void stream_size_buffer(struct session *s);
/* stream_lost - how many events the kernel dropped in this run (its buffers'
 * stats, or the missed-events marks read, whichever is more) */
unsigned long long stream_lost(struct session *s);
/* stream_report_lost - say on stderr how many events the kernel dropped in this run, if any */
void stream_report_lost(struct session *s);

/*
 * stream_begin - a streaming tool's start: size the buffer (stream_size_buffer,
 * which does nothing once it is sized), record from now on (session_start),
 * and set up the output (out_init)
 */
void stream_begin(struct session *s, int buffered);
/* stream_end - after stream_run: the collected output and its closing line
 * (out_ending), then the report of lost events (stream_report_lost) */
void stream_end(struct session *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* topreset.h - the top level of tracefs reset as perf-tools' reset-ftrace did */
#ifndef FTT_TOPRESET_H
#define FTT_TOPRESET_H

#include "active.h"

/*
 * topreset_run - the top level as perf-tools' reset-ftrace resets it:
 * current_tracer nop; set_ftrace_filter, set_graph_function and
 * set_ftrace_pid emptied; events/enable 0; tracing_thresh 0; each kprobe
 * removed but those of live runs of this suite; tracing_on 1; then
 * ACTIVE_PERF_LOCK removed. A file the kernel lacks is skipped, one already
 * at its value is not written; fn once per change. Call it holding the
 * suite's lock (journal_lock). 0, or -1 if a write was refused (each one
 * warned with the kernel's reason, errlog_warn).
 */
int topreset_run(active_fn fn, void *arg);

#endif

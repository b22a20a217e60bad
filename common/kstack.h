/* SPDX-License-Identifier: GPL-2.0-only */
/* kstack.h - kernel stack traces of events (options/stacktrace, ftrace:kernel_stack) */
#ifndef FTT_KSTACK_H
#define FTT_KSTACK_H

#include <tracefs.h>

struct out_line;
struct session;

/*
 * kstack_enable - record a kernel stack after every event of the instance;
 * returns the ftrace:kernel_stack event (its records follow each event on the
 * same CPU), or NULL if the kernel cannot. "ftrace" must be in format_load.
 */
struct tep_event *kstack_enable(struct session *s);
/* kstack_print - a kernel_stack record as " => symbol+0xoff" lines to out, innermost first */
void kstack_print(struct session *s, struct tep_event *ev, struct tep_record *rec);

/* kstack_json - the record's frames as "stack":["symbol+0xoff",...] (output.h's JSON mode) */
void kstack_json(struct session *s, struct out_line *l, struct tep_event *ev,
		 struct tep_record *rec);

#endif

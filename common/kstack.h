/* SPDX-License-Identifier: GPL-2.0-only */
/* kstack.h - kernel stack traces of events (options/stacktrace, ftrace:kernel_stack) */
#ifndef FTT_KSTACK_H
#define FTT_KSTACK_H

#include <stddef.h>
#include <tracefs.h>

struct line;
struct session;

/*
 * kstack_enable - record a kernel stack after every event of the instance;
 * returns the ftrace:kernel_stack event (its records follow each event on the
 * same CPU), or NULL if the kernel cannot. "ftrace" must be in format_load.
 */
struct tep_event *kstack_enable(struct session *s);
/*
 * kstack_enable_user - record the user stack (options/userstacktrace) after
 * every event of the instance; returns ftrace:user_stack, or NULL. Its frames
 * are return addresses in the task, printed in hex (no symbols: the
 * task's maps may be gone when the record is read). kstack_print and
 * kstack_json take its records too.
 */
struct tep_event *kstack_enable_user(struct session *s);
/* kstack_print - a kernel_stack record as " => symbol+0xoff" lines to out, innermost first */
void kstack_print(struct session *s, struct tep_event *ev, struct tep_record *rec);

/* kstack_json - the record's frames as "stack":["symbol+0xoff",...] (line.h's JSON mode) */
void kstack_json(struct session *s, struct line *l, struct tep_event *ev,
		 struct tep_record *rec);

/*
 * A row and its stack. The kernel writes an event's kernel_stack record right
 * after the event on the same CPU, but the stream merges the CPUs by time, so
 * another CPU's records can come in between: an event's row is held per CPU
 * until the next record on that CPU says whether its stack follows.
 */
/* kstack_hold - the text row (n bytes) of an event on cpu, kept until the record after it there */
void kstack_hold(int cpu, const char *row, size_t n);
/* kstack_under - a kernel_stack record on cpu: the row held there, then the
 * stack under it; a stack with no row held on its CPU is not printed */
void kstack_under(struct session *s, struct tep_event *ev, struct tep_record *rec, int cpu);
/* kstack_release - the row held on cpu, if any, with " => [?]": no stack of its own follows */
void kstack_release(int cpu);
/* kstack_drained - stream_on_drained's hook: rows held through a whole drain
 * are released (their stack never came); at the last, every row */
void kstack_drained(int last);

#endif

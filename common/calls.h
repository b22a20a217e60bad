/* SPDX-License-Identifier: GPL-2.0-only */
/* calls.h - system calls waiting for their return, one per thread
 *
 * A tool that pairs a call's entry record with its exit record keeps the
 * entry here until the exit comes, both handed on in time order (reorder.h).
 * A thread makes one call at a time: its next entry replaces the last. Lost
 * events may hold an exit and the thread's next entry, so at a gap every
 * waiting entry is forgotten: nothing before a gap is paired with an exit
 * after it. An exit that finds no entry (a call under way when tracing began,
 * or whose entry was lost) is counted, and calls_report says so on stderr.
 */
#ifndef FTT_CALLS_H
#define FTT_CALLS_H

struct calls;

/*
 * calls_new - an empty table whose entries free_fn releases (NULL: not
 * freed), forgotten at every gap (reorder_on_gap); what names the calls in
 * calls_report ("opens"; NULL: exits without an entry are not counted)
 */
struct calls *calls_new(const char *what, void (*free_fn)(void *));
/* calls_enter - tid's call began: entry waits for its exit */
void calls_enter(struct calls *c, int tid, void *entry);
/* calls_exit - tid's call returned: its entry (the caller owns it), or NULL,
 * counted as an exit without an entry */
void *calls_exit(struct calls *c, int tid);
/* calls_peek - tid's waiting entry, left waiting; NULL if none */
void *calls_peek(struct calls *c, int tid);
/* calls_miss - count one exit without its entry (one calls_exit paired with
 * another call's) */
void calls_miss(struct calls *c);
/* calls_unpaired - the exits without an entry so far */
unsigned long long calls_unpaired(const struct calls *c);
/* calls_report - on stderr, how many exits had no entry (if any) */
void calls_report(const struct calls *c);

#endif

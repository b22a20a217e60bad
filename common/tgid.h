/* SPDX-License-Identifier: GPL-2.0-only */
/* tgid.h - the process each thread belongs to, as known from a given time */
#ifndef FTT_TGID_H
#define FTT_TGID_H

/* a reading: thread's process tgid, known from time at (ns, trace clock) */
struct tgid {
	int tgid;
	unsigned long long at;
};

/* tgid_start - an empty table; timed: the trace clock is the mono clock, so a
 * /proc reading can be given the time it was made (else none is made) */
void tgid_start(int timed);
/* tgid_scan - read every thread /proc lists now (timed only) */
void tgid_scan(void);
/* tgid_reset - forget all that is known, then tgid_scan */
void tgid_reset(void);
/*
 * tgid_at - the process thread tid belonged to at time ts, or 0 if unknown.
 * A thread's process is fixed for the thread's life, and a thread ID is taken
 * again only by a new task, whose fork replaces what is known of it: a
 * reading made at or before ts is the one of the task at ts.
 */
int tgid_at(int tid, unsigned long long ts);
/* tgid_put - tid belongs to process tgid, as known from `at`; tgid <= 0: not known */
void tgid_put(int tid, int tgid, unsigned long long at);
/* tgid_new - creator (a thread) made child at ts with clone_flags: child's
 * process from then on (task_tgid_of_new, task.h) */
void tgid_new(int creator, int child, unsigned long long clone_flags, unsigned long long ts);
/* tgid_read - /proc's process of tid with the time after the read (malloc'd),
 * or NULL when not timed */
struct tgid *tgid_read(int tid);

#endif

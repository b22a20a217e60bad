/* SPDX-License-Identifier: GPL-2.0-only */
/* clock.h - the one clock the loops and timers read */
#ifndef FTT_CLOCK_H
#define FTT_CLOCK_H

/* clock_s - CLOCK_MONOTONIC in seconds (trace_clock mono counts the same time) */
double clock_s(void);
/* clock_ns - the same clock in ns: a trace timestamp of "now" on the mono trace clock */
unsigned long long clock_ns(void);

/* a loop's end and its next tick, in clock_s seconds */
struct deadline {
	double duration, end;	/* duration 0: no end */
	double interval, next;	/* interval 0: no tick */
	double last;		/* when the last tick (or the start) was */
};

/* deadline_init - the end `duration` s after now, the first tick `interval` s after now */
void deadline_init(struct deadline *d, double now, double duration, double interval);
/* deadline_over - 1 once the end has come (never without a duration) */
int deadline_over(const struct deadline *d, double now);
/*
 * deadline_tick - 1 if a tick is due, and the next one set an interval after
 * this one's time. After a stall of a whole interval or more (the tool
 * stopped, or its output blocked), one tick covers all that time, the next is
 * an interval after now, and a note on stderr gives the interval's real length:
 * never empty intervals back to back for time that was not traced apart.
 */
int deadline_tick(struct deadline *d, double now);
/* deadline_wait - how long to wait: `poll` s, less if the end or the tick comes sooner (<= 0: none) */
double deadline_wait(const struct deadline *d, double poll, double now);
/* deadline_nap - sleep deadline_wait's time from now; a signal cuts it short */
void deadline_nap(const struct deadline *d, double poll);

#endif

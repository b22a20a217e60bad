/* SPDX-License-Identifier: GPL-2.0-only */
/* clock.c - monotonic time in seconds, for deadlines, intervals and cache ages
 *
 * A loop that was held up (SIGSTOP, a blocked pipe) for whole intervals gets
 * one tick for all that time, and a note of its real length on stderr.
 */
#include <time.h>

#include "clock.h"
#include "msg.h"

/* clock_ns - see clock.h */
unsigned long long clock_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

/* clock_s - see clock.h */
double clock_s(void)
{
	return clock_ns() / 1e9;
}

/* deadline_init - see clock.h */
void deadline_init(struct deadline *d, double now, double duration, double interval)
{
	d->duration = duration;
	d->end = now + duration;
	d->interval = interval;
	d->next = now + interval;
	d->last = now;
}

/* deadline_over - see clock.h */
int deadline_over(const struct deadline *d, double now)
{
	return d->duration > 0 && now >= d->end;
}

/* deadline_tick - see clock.h */
int deadline_tick(struct deadline *d, double now)
{
	double took = now - d->last;

	if (d->interval <= 0 || now < d->next)
		return 0;
	d->last = now;
	if (now < d->next + d->interval) {
		d->next += d->interval;
		return 1;
	}
	d->next = now + d->interval;
	msg_warn("note: this interval lasted %.1f s, not %g s (the tool was stopped, "
		 "slowed, or its output was blocked)", took, d->interval);
	return 1;
}

/* deadline_wait - see clock.h */
double deadline_wait(const struct deadline *d, double poll, double now)
{
	double wait = poll;

	if (d->duration > 0 && d->end - now < wait)
		wait = d->end - now;
	if (d->interval > 0 && d->next - now < wait)
		wait = d->next - now;
	return wait;
}

/* deadline_nap - see clock.h */
void deadline_nap(const struct deadline *d, double poll)
{
	double secs = deadline_wait(d, poll, clock_s());
	struct timespec ts;

	if (secs <= 0)
		return;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

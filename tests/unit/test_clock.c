/* SPDX-License-Identifier: GPL-2.0-only */
/* test_clock - the loops' deadline: the end, the ticks and the wait, at given times */
#include "clock.h"
#include "unit.h"

int main(void)
{
	struct deadline d;
	double t0;

	/* neither: the loop runs until a stop, waking every poll period */
	deadline_init(&d, 100, 0, 0);
	CHECK("none: never over", !deadline_over(&d, 100) && !deadline_over(&d, 1e9));
	CHECK("none: never a tick", !deadline_tick(&d, 100) && !deadline_tick(&d, 1e9));
	CHECK("none: the poll period", deadline_wait(&d, 0.25, 100) == 0.25 &&
	      deadline_wait(&d, 0.5, 1e9) == 0.5);

	/* a duration: over at the end, the last wait cut to reach it */
	deadline_init(&d, 100, 2, 0);
	CHECK("end: not before", !deadline_over(&d, 101.875));
	CHECK("end: at it", deadline_over(&d, 102));
	CHECK("end: after it", deadline_over(&d, 102.5));
	CHECK("end: poll when far", deadline_wait(&d, 0.25, 100) == 0.25);
	CHECK("end: cut to the end", deadline_wait(&d, 0.25, 101.875) == 0.125);
	CHECK("end: none past it", deadline_wait(&d, 0.25, 102.5) <= 0);
	CHECK("end: no tick", !deadline_tick(&d, 102));

	/* an interval: a tick each interval from the start, never over */
	deadline_init(&d, 100, 0, 1);
	CHECK("tick: not before", !deadline_tick(&d, 100.5));
	CHECK("tick: at it", deadline_tick(&d, 101));
	CHECK("tick: once", !deadline_tick(&d, 101));
	CHECK("tick: wait cut to the next", deadline_wait(&d, 0.5, 101.75) == 0.25);
	/* a late tick: the next is one interval after the one due, not after now */
	CHECK("tick: late", deadline_tick(&d, 103.5));
	CHECK("tick: late, next already due", deadline_tick(&d, 103.5));
	CHECK("tick: caught up", !deadline_tick(&d, 103.5) && deadline_wait(&d, 1, 103.5) == 0.5);
	CHECK("tick: never over", !deadline_over(&d, 1e9));

	/* both: the wait is the shortest of the three */
	deadline_init(&d, 100, 1.5, 1);
	CHECK("both: poll", deadline_wait(&d, 0.25, 100) == 0.25);
	CHECK("both: the tick first", deadline_wait(&d, 0.5, 100.75) == 0.25);
	CHECK("both: tick", deadline_tick(&d, 101));
	CHECK("both: the end first", deadline_wait(&d, 1, 101) == 0.5);
	CHECK("both: over", deadline_over(&d, 101.5) && !deadline_tick(&d, 101.5));

	/* no wait left: the nap returns at once */
	deadline_init(&d, clock_s() - 10, 1, 0);
	t0 = clock_s();
	deadline_nap(&d, 5);
	CHECK("nap: none past the end", clock_s() - t0 < 1);

	return unit_done("clock");
}

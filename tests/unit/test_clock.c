/* SPDX-License-Identifier: GPL-2.0-only */
/* test_clock - the loops' deadline: the end, the ticks and the wait, at given times */
#include "clock.h"
#include "msg.h"
#include "unit.h"

/* stall - ticks at 101, then at 105.5: the interval that ends then lasted 4.5 s */
static void stall(const void *arg)
{
	struct deadline d;

	(void)arg;
	deadline_init(&d, 100, 0, 1);
	deadline_tick(&d, 101);
	deadline_tick(&d, 105.5);
	deadline_tick(&d, 105.5);
}

/* on_time - ticks a little late: no note */
static void on_time(const void *arg)
{
	struct deadline d;

	(void)arg;
	deadline_init(&d, 100, 0, 1);
	deadline_tick(&d, 101.25);
	deadline_tick(&d, 102.5);
}

int main(void)
{
	char err[512];
	struct deadline d;
	int saved;
	double t0;

	msg_init("test_clock");
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
	/* a tick a little late: the next stays on the schedule */
	CHECK("tick: a little late", deadline_tick(&d, 102.25));
	CHECK("tick: schedule kept", !deadline_tick(&d, 102.25) && deadline_wait(&d, 1, 102.25) == 0.75);
	/* a stall (stopped, or output blocked) past whole intervals: one tick for
	 * all that time, never empty ones back to back; the next an interval on */
	saved = dup(2);	/* its note is checked below, in a child */
	if (freopen("/dev/null", "w", stderr) == NULL)
		return 1;
	CHECK("tick: after a stall", deadline_tick(&d, 105.5));
	CHECK("tick: after a stall, no second", !deadline_tick(&d, 105.5) &&
	      !deadline_tick(&d, 105.75));
	CHECK("tick: the next an interval after it", deadline_wait(&d, 5, 105.5) == 1 &&
	      deadline_tick(&d, 106.5));
	CHECK("tick: never over", !deadline_over(&d, 1e9));
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	/* the stall is said on stderr, with the interval's real length */
	CHECK("tick: a stall noted", unit_exit_status(stall, NULL, err, sizeof(err)) == 0 &&
	      strstr(err, "4.5 s") && strstr(err, "not 1 s") && !strchr(strchr(err, '\n') + 1, '\n'));
	if (!strstr(err, "4.5 s"))
		printf("  stderr: \"%s\"\n", err);
	CHECK("tick: no note when on time", unit_exit_status(on_time, NULL, err, sizeof(err)) == 0 &&
	      !err[0]);

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

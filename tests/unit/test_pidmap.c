/* SPDX-License-Identifier: GPL-2.0-only */
/* test_pidmap - per-PID tables: put, get, take, what is freed, and the bound */
#include "pidmap.h"
#include "unit.h"

#define APART	4096	/* PIDs this far apart */
#define BOUND	65536	/* PIDMAP_MAX in pidmap.c */

static int freed;

/* count_free - a free_fn that counts what the table releases */
static void count_free(void *v)
{
	freed++;
	free(v);
}

/* val - a malloc'd int holding n */
static int *val(int n)
{
	int *p = malloc(sizeof(*p));

	if (!p)
		exit(1);
	*p = n;
	return p;
}

/* is - the value stored for pid is an int holding n */
static int is(struct pidmap *m, int pid, int n)
{
	int *p = pidmap_get(m, pid);

	return p && *p == n;
}

/* drop - take and free every value of pids [from, to), then the table */
static void drop(struct pidmap *m, int from, int to)
{
	int pid;

	for (pid = from; pid < to; pid++)
		free(pidmap_take(m, pid));
	pidmap_free(m);
}

int main(void)
{
	struct pidmap *m = pidmap_new(count_free);
	int *v, pid, ok;
	static int fixed = 5;

	CHECK("empty: get", pidmap_get(m, 1) == NULL);
	CHECK("empty: take", pidmap_take(m, 1) == NULL);

	pidmap_put(m, 100, val(1));
	CHECK("put, get", is(m, 100, 1));
	CHECK("another pid is absent", pidmap_get(m, 101) == NULL);
	freed = 0;
	pidmap_put(m, 100, val(2));
	CHECK("put again: the new value", is(m, 100, 2));
	CHECK("put again: the old value freed", freed == 1);
	v = pidmap_get(m, 100);
	freed = 0;
	pidmap_put(m, 100, v);
	CHECK("put the same value: not freed", freed == 0 && is(m, 100, 2));
	v = pidmap_take(m, 100);
	CHECK("take: the value, not freed", v && *v == 2 && freed == 0);
	free(v);
	CHECK("take: then absent", pidmap_get(m, 100) == NULL && pidmap_take(m, 100) == NULL);

	/* PIDs 4096 apart: each found, one taken from among them, then the first */
	for (pid = 7; pid < 7 + 5 * APART; pid += APART)
		pidmap_put(m, pid, val(pid));
	ok = 1;
	for (pid = 7; pid < 7 + 5 * APART; pid += APART)
		ok &= is(m, pid, pid);
	CHECK("4096 apart: every pid found", ok);
	free(pidmap_take(m, 7 + 2 * APART));
	CHECK("4096 apart: one taken from among them", pidmap_get(m, 7 + 2 * APART) == NULL &&
	      is(m, 7, 7) && is(m, 7 + APART, 7 + APART) &&
	      is(m, 7 + 3 * APART, 7 + 3 * APART) && is(m, 7 + 4 * APART, 7 + 4 * APART));
	free(pidmap_take(m, 7));
	CHECK("4096 apart: the first taken",
	      pidmap_get(m, 7) == NULL && is(m, 7 + APART, 7 + APART));
	for (pid = 7 + APART; pid < 7 + 5 * APART; pid += APART)
		free(pidmap_take(m, pid));
	pidmap_put(m, -1, val(-1));
	pidmap_put(m, 0, val(0));
	CHECK("pid 0 and -1", is(m, -1, -1) && is(m, 0, 0));
	free(pidmap_take(m, -1));
	free(pidmap_take(m, 0));
	pidmap_free(m);

	/* a table full of tasks that never ended is emptied, not grown */
	m = pidmap_new(count_free);
	freed = 0;
	for (pid = 1; pid <= BOUND; pid++)
		pidmap_put(m, pid, val(pid));
	CHECK("bound: full, nothing dropped", freed == 0 && is(m, 1, 1) && is(m, BOUND, BOUND));
	pidmap_put(m, 1, val(-2));
	CHECK("bound: a full table still replaces", freed == 1 && is(m, 1, -2) && is(m, 2, 2));
	freed = 0;
	pidmap_put(m, BOUND + 1, val(0));
	CHECK("bound: one more empties it first", freed == BOUND && pidmap_get(m, 1) == NULL &&
	      pidmap_get(m, BOUND) == NULL && is(m, BOUND + 1, 0));
	drop(m, BOUND + 1, BOUND + 2);

	/* a taken entry makes room */
	m = pidmap_new(count_free);
	for (pid = 1; pid <= BOUND; pid++)
		pidmap_put(m, pid, val(pid));
	free(pidmap_take(m, 5));
	freed = 0;
	pidmap_put(m, BOUND + 1, val(0));
	CHECK("bound: a take makes room", freed == 0 && is(m, 1, 1) && is(m, BOUND + 1, 0));
	drop(m, 1, BOUND + 2);

	/* clear: every value released, the table still in use */
	m = pidmap_new(count_free);
	for (pid = 1; pid <= 3; pid++)
		pidmap_put(m, pid, val(pid));
	freed = 0;
	pidmap_clear(m);
	CHECK("clear: each value freed once", freed == 3 && !pidmap_get(m, 1) && !pidmap_get(m, 3));
	pidmap_put(m, 2, val(7));
	CHECK("clear: the table takes values again", is(m, 2, 7));
	pidmap_clear(m);
	pidmap_clear(m);
	CHECK("clear: twice, nothing more freed", freed == 4);
	pidmap_free(m);

	/* no free_fn: values are the caller's */
	m = pidmap_new(NULL);
	pidmap_put(m, 3, &fixed);
	pidmap_put(m, 3, &fixed);
	CHECK("no free_fn: kept", pidmap_get(m, 3) == &fixed);
	CHECK("no free_fn: taken", pidmap_take(m, 3) == &fixed);
	pidmap_free(m);
	return unit_done("pidmap");
}

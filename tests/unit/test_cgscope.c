/* SPDX-License-Identifier: GPL-2.0-only */
/* test_cgscope - --cgroup's membership: what a path inside the scope is, what
 * the two readings tell (agreed, first only, second only), a new task where
 * its creator is, the time after lost events, and the unknown counted.
 * cgscope.c is built in; its readings are given here, not read. */
#include "unit.h"

#include "../../common/cgscope.c"

/* reading - a reading of the subtree: tids, 0-ended */
static struct pidmap *reading(const int *tids)
{
	struct pidmap *m = pidmap_new(NULL);

	for (; *tids; tids++)
		pidmap_put(m, *tids, (void *)1L);
	return m;
}

int main(void)
{
	snprintf(G.rel, sizeof(G.rel), "/a");
	CHECK("inside: the cgroup itself", inside("/a"));
	CHECK("inside: one below it", inside("/a/b"));
	CHECK("outside: a name it begins", !inside("/ab"));
	CHECK("outside: its parent", !inside("/"));
	snprintf(G.rel, sizeof(G.rel), "/");
	CHECK("inside: the root scope holds all", inside("/x/y"));

	/* 10 in both readings, 11 in the first only, 12 in the second only */
	G.on = 1;
	G.tasks = pidmap_new(free);
	G.first = reading((const int[]){ 10, 11, 0 });
	second = reading((const int[]){ 10, 12, 0 });
	settle(1000);
	CHECK("both readings: inside from the start", state(10, 5) == 1);
	CHECK("first only: not known before the second reading", state(11, 5) == -1);
	CHECK("first only: outside from it", state(11, 1000) == 0);
	CHECK("second only: not known before it", state(12, 999) == -1);
	CHECK("second only: inside from it", state(12, 1000) == 1);
	CHECK("neither: outside", state(13, 5) == 0);

	/* a task 10 makes at 2000, one 13 makes, one 11 makes before the reading */
	know(14, state(10, 2000), 2000);
	know(15, state(13, 2000), 2000);
	know(16, state(11, 500), 500);
	CHECK("new task: inside, as its creator", state(14, 2000) == 1);
	CHECK("new task: outside, as its creator", state(15, 2500) == 0);
	CHECK("new task of a creator not known then: not known", state(16, 3000) == -1);
	/* a move out of the scope at 2500 */
	know(14, 0, 2500);
	CHECK("moved out: outside from the move", state(14, 2500) == 0);
	CHECK("moved out: what came before is no longer told", state(14, 2400) == -1);

	/* events lost at 3000, the subtree read again by 4000 */
	G.blind_from = 3000;
	G.blind_to = 4000;
	CHECK("after a loss: not known until the new reading", state(10, 3500) == -1);
	CHECK("after a loss: known again from it", state(10, 4000) == 1);

	CHECK("cgscope_in: inside", cgscope_in(10, 5) == 1);
	CHECK("cgscope_in: not known is not shown", cgscope_in(11, 5) == 0);
	CHECK("cgscope_in: outside is not shown", cgscope_in(13, 5) == 0);
	CHECK("cgscope_in: the unknown counted, the outside not", G.unknown == 1);
	pidmap_free(G.tasks);
	return unit_done("cgscope");
}

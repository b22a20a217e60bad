/* SPDX-License-Identifier: GPL-2.0-only */
/* test_cgscope - --cgroup's membership and --show-cgroup's cgroups: what a
 * path inside the scope is, what the two readings tell (agreed, moved,
 * first only, second only), a new task where its creator is, the time after
 * lost events, the unknown counted, and the container IDs paths name.
 * cgscope.c is built in; its readings are given here, not read. */
#include "unit.h"

#include "../../common/cgscope.c"

/* given - a reading: tid, cgroup path pairs, 0-ended */
static struct pidmap *given(const int *tids, const char *const *paths)
{
	struct pidmap *m = pidmap_new(NULL);

	for (; *tids; tids++, paths++)
		pidmap_put(m, *tids, (void *)(long)(intern(*paths) + 1));
	return m;
}

/* at - the cgroup path known of tid at ts, or "out", or "?" */
static const char *at(int tid, unsigned long long ts)
{
	int cg = state(tid, ts);

	return cg >= 0 ? G.paths[cg] : cg == CG_OUT ? "out" : "?";
}

#define IS(name, got, want) CHECK(name, !strcmp((got), (want)))

static void container_ids(void)
{
	static const char *const h = "4f2a1b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8";
	char path[512], id[13];

	snprintf(path, sizeof(path), "/system.slice/docker-%s.scope", h);
	CHECK("docker, systemd driver", cgscope_container(path, id) && !strcmp(id, "4f2a1b3c4d5e"));
	snprintf(path, sizeof(path), "/docker/%s", h);
	CHECK("docker, cgroupfs driver", cgscope_container(path, id) && !strcmp(id, "4f2a1b3c4d5e"));
	snprintf(path, sizeof(path),
		 "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234.slice/"
		 "cri-containerd-%s.scope", h);
	CHECK("kubernetes, containerd", cgscope_container(path, id) && !strcmp(id, "4f2a1b3c4d5e"));
	snprintf(path, sizeof(path), "/machine.slice/libpod-%s.scope/container", h);
	CHECK("podman, a cgroup below the container's", cgscope_container(path, id) &&
	      !strcmp(id, "4f2a1b3c4d5e"));
	snprintf(path, sizeof(path), "/crio-%s.scope", h);
	CHECK("cri-o", cgscope_container(path, id) && !strcmp(id, "4f2a1b3c4d5e"));
	CHECK("no container: a service", !cgscope_container("/system.slice/cron.service", id));
	CHECK("no container: the root", !cgscope_container("/", id));
	snprintf(path, sizeof(path), "/docker-%.63s.scope", h);
	CHECK("no container: 63 digits", !cgscope_container(path, id));
	snprintf(path, sizeof(path), "/docker-%s.scopex", h);
	CHECK("no container: another suffix", !cgscope_container(path, id));
	snprintf(path, sizeof(path), "/x%s", h);
	CHECK("no container: another prefix", !cgscope_container(path, id));
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
	snprintf(G.rel, sizeof(G.rel), "/a");

	/* the scope's subtree read: 10 in both readings, 17 in both but moved
	 * below, 11 in the first only, 12 in the second only */
	G.on = 1;
	G.tasks = pidmap_new(free);
	G.first = given((const int[]){ 10, 11, 17, 0 }, (const char *const[]){ "/a", "/a", "/a" });
	second = given((const int[]){ 10, 12, 17, 0 }, (const char *const[]){ "/a", "/a/b", "/a/b" });
	settle(1000);
	IS("both readings: there from the start", at(10, 5), "/a");
	IS("both, moved between: not known before the second reading", at(17, 5), "?");
	IS("both, moved between: known from it", at(17, 1000), "/a/b");
	IS("first only: not known before the second reading", at(11, 5), "?");
	IS("first only: outside from it", at(11, 1000), "out");
	IS("second only: not known before it", at(12, 999), "?");
	IS("second only: there from it", at(12, 1000), "/a/b");
	IS("neither: outside", at(13, 5), "out");

	/* a task 10 makes at 2000, one 13 makes, one 11 makes before the reading */
	know(14, state(10, 2000), 2000);
	know(15, state(13, 2000), 2000);
	know(16, state(11, 500), 500);
	IS("new task: where its creator is", at(14, 2000), "/a");
	IS("new task: outside, as its creator", at(15, 2500), "out");
	IS("new task of a creator not known then: not known", at(16, 3000), "?");
	/* a move out of the scope at 2500 */
	know(14, intern("/c"), 2500);
	IS("moved out: where it went, from the move", at(14, 2500), "/c");
	IS("moved out: what came before is no longer told", at(14, 2400), "?");

	/* events lost at 3000, the subtree read again by 4000 */
	G.blind_from = 3000;
	G.blind_to = 4000;
	IS("after a loss: not known until the new reading", at(10, 3500), "?");
	IS("after a loss: known again from it", at(10, 4000), "/a");

	CHECK("cgscope_in: inside", cgscope_in(10, 5) == 1);
	CHECK("cgscope_in: below it", cgscope_in(12, 1000) == 1);
	CHECK("cgscope_in: moved out of it", cgscope_in(14, 2600) == 0);
	CHECK("cgscope_in: not known is not shown", cgscope_in(11, 5) == 0);
	CHECK("cgscope_in: outside is not shown", cgscope_in(13, 5) == 0);
	CHECK("cgscope_in: the unknown counted, the outside not", G.unknown == 1);
	CHECK("cgscope_cgroup: the path", cgscope_cgroup(12, 1000) &&
	      !strcmp(cgscope_cgroup(12, 1000), "/a/b"));
	CHECK("cgscope_cgroup: outside the subtree read is not known", !cgscope_cgroup(13, 5));
	pidmap_free(G.tasks);

	/* --show-cgroup: the whole tree read; a task in no reading is not known */
	G.on = 0;
	G.show = 1;
	G.blind_from = G.blind_to = 0;
	G.tasks = pidmap_new(free);
	G.first = given((const int[]){ 20, 21, 0 }, (const char *const[]){ "/", "/x" });
	second = given((const int[]){ 20, 0 }, (const char *const[]){ "/" });
	settle(1000);
	IS("whole tree: the root", at(20, 5), "/");
	IS("whole tree: ended between the readings: not known after", at(21, 1000), "?");
	IS("whole tree: in no reading: not known", at(22, 5), "?");
	CHECK("no scope: every event shown", cgscope_in(22, 5) == 1 && G.unknown == 1);
	pidmap_free(G.tasks);

	container_ids();
	return unit_done("cgscope");
}

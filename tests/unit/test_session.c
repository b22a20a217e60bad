/* SPDX-License-Identifier: GPL-2.0-only */
/* test_session - the names a run gives what it makes (its instance, its
 * companions, its probe group and the events in it) and what the reaper reads
 * back from them: the tool, the PID and the start time that tell a live run
 * from a dead one. Companions are made in a directory that stands in for
 * tracefs. */
#include <limits.h>
#include <sys/stat.h>
#include <tracefs.h>

#include "procread.h"
#include "reaper.h"
#include "session.h"
#include "unit.h"

static char dir[128];

/* owner_is - NAME, read with SEP, is the run (TOOL, PID, START) */
static void owner_is(const char *label, const char *name, char sep, const char *tool, int pid,
		     unsigned long long start)
{
	char got[32] = "";
	int gpid = -1;
	unsigned long long gstart = 1;
	int rc = reaper_parse_owner(name, sep, got, sizeof(got), &gpid, &gstart);
	int ok = rc == 0 && !strcmp(got, tool) && gpid == pid && gstart == start;

	CHECK(label, ok);
	if (!ok)
		printf("     %s: rc %d, tool '%s', pid %d, start %llu; wanted '%s' %d %llu\n", name,
		       rc, got, gpid, gstart, tool, pid, start);
}

/* is_dir - does the stand-in tracefs hold the directory REL */
static int is_dir(const char *rel)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* the names of one run, exactly */
static void test_names(void)
{
	struct session s;

	memset(&s, 0, sizeof(s));
	session_names(&s, "opensnoop", 4242, 123456789);
	CHECK("names: the instance", !strcmp(s.name, "ftt-opensnoop-4242-123456789"));
	CHECK("names: the probe group", !strcmp(s.group, "ftt_opensnoop_4242_123456789"));
}

/*
 * every tool, at the largest PID and start time: each name a run makes fits,
 * and reads back as the run's own (instance, companions, probe group, an
 * event in the group, a synthetic event named after the group)
 */
static void test_round_trip(void)
{
	static const char *const tools[] = { "execsnoop", "funccount", "funcgraph", "iolatency",
		"iosnoop", "kprobe", "opensnoop", "tcpretrans", "tpoint" };
	const unsigned long long big = 18446744073709551615ULL;
	char label[128], name[160];
	struct session s;
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		session_names(&s, tools[i], INT_MAX, big);
		snprintf(label, sizeof(label), "round trip: %s's instance", tools[i]);
		owner_is(label, s.name, '-', tools[i], INT_MAX, big);
		snprintf(name, sizeof(name), "%s-proof", s.name);
		snprintf(label, sizeof(label), "round trip: %s's companion", tools[i]);
		owner_is(label, name, '-', tools[i], INT_MAX, big);
		snprintf(label, sizeof(label), "round trip: %s's probe group", tools[i]);
		owner_is(label, s.group, '_', tools[i], INT_MAX, big);
		snprintf(name, sizeof(name), "%s/cap_openat", s.group);
		snprintf(label, sizeof(label), "round trip: %s's probe", tools[i]);
		owner_is(label, name, '_', tools[i], INT_MAX, big);
		snprintf(name, sizeof(name), "%s_lat1", s.group);
		snprintf(label, sizeof(label), "round trip: %s's synthetic event", tools[i]);
		owner_is(label, name, '_', tools[i], INT_MAX, big);
	}
	/* the longest: tcpretrans's, 46 bytes, and with "-proof" 52, of the 63 that fit */
	session_names(&s, "tcpretrans", INT_MAX, big);
	CHECK("round trip: the longest name whole", strlen(s.name) == 46 &&
	      !strcmp(s.name, "ftt-tcpretrans-2147483647-18446744073709551615"));
}

/* companions: NAME-SUFFIX beside the run's instance, the same group (static:
 * the session keeps where its instances are, to remove them at exit) */
static void test_companions(void)
{
	static struct session s, c;
	char rel[160];

	memset(&s, 0, sizeof(s));
	session_names(&s, "iolatency", 300, 4000);
	memset(&c, 0, sizeof(c));
	CHECK("companion: made", session_companion(&s, "k0", &c) == 0 && c.inst);
	CHECK("companion: its name", !strcmp(c.name, "ftt-iolatency-300-4000-k0"));
	CHECK("companion: the run's group", !strcmp(c.group, "ftt_iolatency_300_4000"));
	CHECK("companion: its instance", is_dir("instances/ftt-iolatency-300-4000-k0"));
	owner_is("companion: the run's own", c.name, '-', "iolatency", 300, 4000);
	tracefs_instance_free(c.inst);
	c.inst = NULL;

	/* a name of 63 bytes fits the 64 an instance name has, one more does not:
	 * from one of 60 */
	memset(&s, 0, sizeof(s));
	snprintf(s.name, sizeof(s.name), "ftt-tpoint-1-%047d", 7);
	snprintf(rel, sizeof(rel), "instances/%s-abc", s.name);
	CHECK("companion: 64 bytes refused",
	      session_companion(&s, "abc", &c) == -1 && !is_dir(rel));
	/* nor made under the name cut to fit */
	snprintf(rel, sizeof(rel), "instances/%s-ab", s.name);
	CHECK("companion: nothing made under a cut name", !is_dir(rel));
	CHECK("companion: 63 bytes", session_companion(&s, "ab", &c) == 0 && is_dir(rel) &&
	      strlen(c.name) == 63);
	tracefs_instance_free(c.inst);
	c.inst = NULL;
}

/* dead - is the run that NAME (read with SEP) names dead, as the reaper
 * reads it: 1 or 0, or -1 if the name is not a run's or not PID's */
static int dead(const char *name, char sep, int pid)
{
	char tool[32];
	unsigned long long start;
	int got;

	if (reaper_parse_owner(name, sep, tool, sizeof(tool), &got, &start) < 0 || got != pid)
		return -1;
	return reaper_run_is_dead(got, start);
}

/* dead runs as the reaper tells them: the PID and the start time both */
static void test_dead(void)
{
	struct session s;
	unsigned long long me = proc_start(getpid());
	int child;

	session_names(&s, "tpoint", (int)getpid(), me);
	CHECK("dead: our own run", dead(s.name, '-', getpid()) == 0 &&
	      dead(s.group, '_', getpid()) == 0);
	/* our PID, taken by us after a run that started at another time */
	session_names(&s, "tpoint", (int)getpid(), me + 1);
	CHECK("dead: our PID, another start", dead(s.name, '-', getpid()) == 1 &&
	      dead(s.group, '_', getpid()) == 1);
	/* a run that ended */
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	session_names(&s, "tpoint", child, me);
	CHECK("dead: a PID no process has", dead(s.name, '-', child) == 1 &&
	      dead(s.group, '_', child) == 1);
}

int main(void)
{
	unit_tmpdir(dir, sizeof(dir), "session");
	if (tracefs_set_tracing_dir(dir) < 0) {
		printf("FAIL session: tracefs_set_tracing_dir %s\n", dir);
		return 1;
	}
	unit_put(dir, "instances/.keep", "");
	test_names();
	test_round_trip();
	test_companions();
	test_dead();
	if (unit_rmtree(dir) != 0)
		printf("FAIL session: could not remove %s\n", dir);
	return unit_done("session");
}

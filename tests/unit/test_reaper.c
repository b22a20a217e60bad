/* SPDX-License-Identifier: GPL-2.0-only */
/* test_reaper - the owner (tool, PID, start time) read from an instance,
 * probe group or event name, and the names that are not a run's */
#include "reaper.h"
#include "unit.h"

/* one name, the separator it is read with, and the owner expected (rc -1: none) */
static const struct owner_case {
	const char *name;
	char sep;
	int rc;
	const char *tool;
	int pid;
	unsigned long long start;
} cases[] = {
	/* instances: ftt-TOOL-PID-START, a companion's -SUFFIX after it */
	{ "ftt-execsnoop-12300-5186252", '-', 0, "execsnoop", 12300, 5186252 },
	{ "ftt-execsnoop-12300-5186252-proof", '-', 0, "execsnoop", 12300, 5186252 },
	{ "ftt-iolatency-1-18446744073709551615-k0", '-', 0, "iolatency", 1, 18446744073709551615ULL },
	{ "ftt-tpoint-2147483647-1", '-', 0, "tpoint", 2147483647, 1 },
	/* probe groups and synthetic events: ftt_TOOL_PID_START, "/EVENT" after a group */
	{ "ftt_opensnoop_77_123", '_', 0, "opensnoop", 77, 123 },
	{ "ftt_kprobe_9_88/myprobe", '_', 0, "kprobe", 9, 88 },
	{ "ftt_iolatency_300_4000_lat", '_', 0, "iolatency", 300, 4000 },
	/* an older name without a start time: start 0 */
	{ "ftt-iosnoop-42", '-', 0, "iosnoop", 42, 0 },
	{ "ftt_kprobe_9/myprobe", '_', 0, "kprobe", 9, 0 },
	/* a start time followed by anything else is no start time */
	{ "ftt-tpoint-5-77x", '-', 0, "tpoint", 5, 0 },
	/* a tool name of 31 bytes fits the 32 given */
	{ "ftt-abcdefghijklmnopqrstuvwxyz01234-7-8", '-', 0, "abcdefghijklmnopqrstuvwxyz01234", 7, 8 },

	/* no PID */
	{ "ftt-iosnoop", '-', -1, NULL, 0, 0 },
	{ "ftt-iosnoop-", '-', -1, NULL, 0, 0 },
	{ "ftt_opensnoop", '_', -1, NULL, 0, 0 },
	/* a PID that is not digits */
	{ "ftt-iosnoop-abc", '-', -1, NULL, 0, 0 },
	{ "ftt-iosnoop-x42-5", '-', -1, NULL, 0, 0 },
	{ "ftt-iosnoop--42-5", '-', -1, NULL, 0, 0 },
	{ "ftt-iosnoop-+42-5", '-', -1, NULL, 0, 0 },
	{ "ftt-iosnoop- 42-5", '-', -1, NULL, 0, 0 },
	/* a tool whose name holds the separator; a part of it that is no name */
	{ "ftt-perf-stat-hist-42-5", '-', 0, "perf-stat-hist", 42, 5 },
	{ "ftt_perf-stat-hist_42_5/ev", '_', 0, "perf-stat-hist", 42, 5 },
	{ "ftt-perf--stat-42-5", '-', -1, NULL, 0, 0 },
	{ "ftt-perf-stat7-42-5", '-', -1, NULL, 0, 0 },
	/* another prefix, or none */
	{ "ftx-iosnoop-42-5", '-', -1, NULL, 0, 0 },
	{ "FTT-iosnoop-42-5", '-', -1, NULL, 0, 0 },
	{ "fttiosnoop-42-5", '-', -1, NULL, 0, 0 },
	{ "iosnoop-42-5", '-', -1, NULL, 0, 0 },
	{ "ftt", '-', -1, NULL, 0, 0 },
	{ "", '-', -1, NULL, 0, 0 },
	/* the other separator */
	{ "ftt_iosnoop_42_5", '-', -1, NULL, 0, 0 },
	{ "ftt-iosnoop-42-5", '_', -1, NULL, 0, 0 },
	{ "ftt-iosnoop_42_5", '-', -1, NULL, 0, 0 },
	/* no tool, or one too long for the 32 bytes given */
	{ "ftt--42-5", '-', -1, NULL, 0, 0 },
	{ "ftt-abcdefghijklmnopqrstuvwxyz012345-7-8", '-', -1, NULL, 0, 0 },
	/* numbers that overflow: a PID past int (2^32 + 1 would wrap to 1), a start time past 64 bits */
	{ "ftt-iosnoop-4294967297-5", '-', -1, NULL, 0, 0 },
	{ "ftt-iosnoop-2147483648-5", '-', -1, NULL, 0, 0 },
	{ "ftt-iosnoop-99999999999999999999-5", '-', -1, NULL, 0, 0 },
	{ "ftt-iosnoop-42-18446744073709551616", '-', -1, NULL, 0, 0 },
	{ "ftt_iosnoop_42_99999999999999999999999/ev", '_', -1, NULL, 0, 0 },
};

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct owner_case *c = &cases[i];
		/* what a refused name must leave as it was */
		char tool[32] = "unset";
		int pid = -7;
		unsigned long long start = 7;
		int rc = reaper_parse_owner(c->name, c->sep, tool, sizeof(tool), &pid, &start), ok;

		if (c->rc == 0)
			ok = rc == 0 && !strcmp(tool, c->tool) && pid == c->pid && start == c->start;
		else
			ok = rc == -1 && !strcmp(tool, "unset") && pid == -7 && start == 7;
		CHECK(c->name, ok);
		if (!ok)
			printf("    want rc %d, tool \"%s\", pid %d, start %llu; got rc %d, tool \"%s\", "
			       "pid %d, start %llu\n", c->rc, c->rc ? "unset" : c->tool,
			       c->rc ? -7 : c->pid, c->rc ? 7ULL : c->start, rc, tool, pid, start);
	}
	return unit_done("reaper");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* test_filter - the filters the tools write: globs the kernel matches as strings */
#include <fnmatch.h>

#include "filter.h"
#include "unit.h"

/* glob_as - filter_glob's text for glob must be want */
static void glob_as(const char *glob, const char *want)
{
	char *f = NULL, name[64];

	filter_glob(&f, "rwbs", glob);
	snprintf(name, sizeof(name), "glob '%s'", glob);
	CHECK(name, f && strcmp(f, want) == 0);
	if (f && strcmp(f, want))
		printf("     got: %s\n", f);
	free(f);
}

/* same_matches - the rewritten glob matches exactly the rwbs strings the
 * user's glob matches (fnmatch stands in for the kernel's glob_match) */
static void same_matches(const char *glob)
{
	static const char *const rwbs[] = { "R", "RS", "RA", "RM", "W", "WS", "WFS", "FWS",
					    "D", "DS", "F", "FF", "N", "RSM", "WSM", "",
					    "S-", "-", "WS-x" };
	char *f = NULL, *pat, name[64];
	size_t i, ok = 1;

	filter_glob(&f, "rwbs", glob);
	pat = strchr(f, '"') + 1;
	pat[strlen(pat) - 1] = '\0';
	for (i = 0; i < sizeof(rwbs) / sizeof(rwbs[0]); i++)
		ok &= (fnmatch(glob, rwbs[i], 0) == 0) == (fnmatch(pat, rwbs[i], 0) == 0);
	snprintf(name, sizeof(name), "same matches '%s'", glob);
	CHECK(name, ok);
	free(f);
}

/* build_as - filter_build's text for (tid, user, extra), SELF standing for our PID */
static void build_as(pid_t tid, const char *user, const char *extra, const char *want)
{
	char *f = filter_build(tid, user, extra), self[16], w[256], *at;
	char name[64];

	snprintf(self, sizeof(self), "%d", (int)getpid());
	snprintf(w, sizeof(w), "%s", want);
	at = strstr(w, "SELF");
	if (at) {
		memmove(at + strlen(self), at + 4, strlen(at + 4) + 1);
		memcpy(at, self, strlen(self));
	}
	snprintf(name, sizeof(name), "build tid=%d user=%s extra=%s", (int)tid,
		 user ? user : "-", extra ? extra : "-");
	CHECK(name, f && strcmp(f, w) == 0);
	if (f && strcmp(f, w))
		printf("     got: %s\n", f);
	free(f);
}

int main(void)
{
	const char *const globs[] = { "*R*", "*S", "R*", "W", "*", "**", "*?S", "?S*", "*FS*",
				      "W*S", "*W*S*",
				      "*-", "*S-*" };
	size_t i;

	/* the kernel's substring and suffix matches read past the NUL */
	glob_as("*R*", "rwbs ~ \"*[R]*\"");
	glob_as("*S", "rwbs ~ \"*[S]\"");
	glob_as("*?S", "rwbs ~ \"*?[S]\"");
	glob_as("**W", "rwbs ~ \"**[W]\"");
	glob_as("*ab-c*", "rwbs ~ \"*[a]b-c*\"");
	glob_as("*-x", "rwbs ~ \"*[-]x\"");
	/* prefix, whole and full globs are matched as strings already */
	glob_as("R*", "rwbs ~ \"R*\"");
	glob_as("WS", "rwbs ~ \"WS\"");
	glob_as("W*S", "rwbs ~ \"W*S\"");
	/* nothing to bracket: every string matches either way */
	glob_as("*", "rwbs ~ \"*\"");
	for (i = 0; i < sizeof(globs) / sizeof(globs[0]); i++)
		same_matches(globs[i]);
	/* never ourselves; -L one thread; -p is the instance's task list, not text */
	build_as(0, NULL, NULL, "common_pid != SELF");
	build_as(4242, NULL, NULL, "common_pid != SELF && common_pid == 4242");
	build_as(0, "fd > 3", NULL, "(fd > 3) && common_pid != SELF");
	build_as(7, "fd > 3", "comm ~ \"x*\"",
		 "(fd > 3) && common_pid != SELF && common_pid == 7 && comm ~ \"x*\"");
	build_as(0, NULL, "ret < 0", "common_pid != SELF && ret < 0");
	build_as(9, NULL, "ret < 0", "common_pid != SELF && common_pid == 9 && ret < 0");
	/* the user's || stays inside its parentheses: we stay excluded either way */
	build_as(0, "fd == 3 || fd == 4", NULL, "(fd == 3 || fd == 4) && common_pid != SELF");
	build_as(12, "a || b", "c", "(a || b) && common_pid != SELF && common_pid == 12 && c");
	/* filter_cat appends, from nothing or to what is there */
	{
		char *f = NULL;

		filter_cat(&f, "%s", "");
		CHECK("filter_cat: empty", f && !strcmp(f, ""));
		filter_cat(&f, "a == %d", 1);
		filter_cat(&f, " && b == \"%s\"", "x");
		CHECK("filter_cat: appends", f && !strcmp(f, "a == 1 && b == \"x\""));
		free(f);
	}
	return unit_done("filter");
}

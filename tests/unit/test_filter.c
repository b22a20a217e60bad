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
	return unit_done("filter");
}

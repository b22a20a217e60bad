/* SPDX-License-Identifier: GPL-2.0-only */
/* filter.c - the event filters the tools install
 *
 * Every tool keeps its own process out of what it traces (its reads of
 * tracefs would otherwise show up in opensnoop, say), and -L becomes its
 * thread ID compared in the kernel, so nothing else reaches user space. -p is
 * not a filter: a process's threads are the instance's task list (who.c).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter.h"
#include "xalloc.h"

/* filter_cat - see filter.h */
void filter_cat(char **f, const char *fmt, ...)
{
	char *add, *g;
	va_list ap;

	va_start(ap, fmt);
	add = xvasprintf(fmt, ap);
	va_end(ap);
	g = xasprintf("%s%s", *f ? *f : "", add);
	free(add);
	free(*f);
	*f = g;
}

/* filter_build - see filter.h */
char *filter_build(pid_t tid, const char *user, const char *extra)
{
	char *f = NULL;

	if (user)
		filter_cat(&f, "(%s) && ", user);
	filter_cat(&f, "common_pid != %d", (int)getpid());
	if (tid)
		filter_cat(&f, " && common_pid == %d", (int)tid);
	if (extra)
		filter_cat(&f, " && %s", extra);
	return f;
}

/* filter_glob - see filter.h */
void filter_glob(char **f, const char *field, const char *glob)
{
	size_t k = strspn(glob, "*?");

	if (glob[0] == '*' && glob[k])
		filter_cat(f, "%s ~ \"%.*s[%c]%s\"", field, (int)k, glob, glob[k], glob + k + 1);
	else
		filter_cat(f, "%s ~ \"%s\"", field, glob);
}

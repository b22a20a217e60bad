/* filter.c - the event filters the tools install
 *
 * Every tool keeps its own process out of what it traces (its reads of
 * tracefs would otherwise show up in opensnoop, say), and -p/-L become a list
 * of thread IDs compared in the kernel, so nothing else reaches user space.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter.h"
#include "msg.h"
#include "options.h"

/* filter_cat - see filter.h */
void filter_cat(char **f, const char *fmt, ...)
{
	char *add, *g;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&add, fmt, ap) < 0)
		msg_die(EXIT_ERR, "out of memory");
	va_end(ap);
	if (asprintf(&g, "%s%s", *f ? *f : "", add) < 0)
		msg_die(EXIT_ERR, "out of memory");
	free(add);
	free(*f);
	*f = g;
}

/* filter_build - see filter.h */
char *filter_build(pid_t pid, pid_t tid, const char *user, const char *extra)
{
	pid_t *tids = NULL;
	char *f = NULL;
	int n = 0, i;

	if (user)
		filter_cat(&f, "(%s) && ", user);
	filter_cat(&f, "common_pid != %d", (int)getpid());
	if (pid)
		n = opt_tids(pid, &tids);
	for (i = 0; i < n; i++)
		filter_cat(&f, "%s common_pid == %d", i ? " ||" : " && (", (int)tids[i]);
	if (n)
		filter_cat(&f, ")");
	if (tid)
		filter_cat(&f, " && common_pid == %d", (int)tid);
	if (extra)
		filter_cat(&f, " && %s", extra);
	free(tids);
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

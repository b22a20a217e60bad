/* SPDX-License-Identifier: GPL-2.0-only */
/* filter.c - the event filters the tools install
 *
 * Every tool keeps its own process out of what it traces (its reads of
 * tracefs would otherwise show up in opensnoop, say), and -L becomes its
 * thread ID compared in the kernel, so nothing else reaches user space. -p is
 * not a filter: a process's threads are the instance's task list (who.c).
 * A user's own filter is checked before it is wrapped (filter_check), and a
 * name regex that is a plain word becomes a glob the kernel matches first
 * (filter_regex_glob).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter.h"
#include "options.h"
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

/* filter_regex_glob - a kernel glob matching at least what a plain-word regex matches */
int filter_regex_glob(const char *re, char *glob, size_t len)
{
	size_t n = strlen(re);
	int head = 1, tail = 1;
	const char *p;

	if (n && re[0] == '^') {
		head = 0;
		re++;
		n--;
	}
	if (n && re[n - 1] == '$') {
		tail = 0;
		n--;
	}
	if (n == 0 || n + 3 > len)
		return -1;
	for (p = re; p < re + n; p++)
		if (!isalnum((unsigned char)*p) && !strchr(" _-/:,@=%", *p))
			return -1;
	snprintf(glob, len, "%s%.*s%s", head ? "*" : "", (int)n, re, tail ? "*" : "");
	return 0;
}

/*
 * filter_ok - can a user's event filter be wrapped as "(FILTER) && ..."
 * without escaping the parentheses: no control byte, quotes closed, no
 * backslash before a quote (the kernel and we could disagree on it),
 * parentheses balanced outside quotes. NULL if fine, else the problem.
 */
const char *filter_ok(const char *s)
{
	const char *p;
	int depth = 0;
	char q = 0;

	for (p = s; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return "control character not allowed";
		if (*p == '\\' && (p[1] == '"' || p[1] == '\''))
			return "backslash before a quote not allowed";
		if (q) {
			if (*p == q)
				q = 0;
		} else if (*p == '"' || *p == '\'') {
			q = *p;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')' && --depth < 0) {
			return "unbalanced ')'";
		}
	}
	if (q)
		return "unterminated quote";
	return depth ? "unbalanced '('" : NULL;
}

/* filter_check - refuse (usage) a filter filter_ok finds a problem in */
void filter_check(const char *s, const char *what)
{
	const char *why = filter_ok(s);

	if (why)
		opt_usage("%s '%.60s': %s", what, s, why);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* filter.h - the event filters the tools install: never ourselves, the -L thread, the user's own */
#ifndef FTT_FILTER_H
#define FTT_FILTER_H

#include <sys/types.h>

/* filter_cat - append printf-style text to the malloc'd string *f (NULL: empty) */
void filter_cat(char **f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * filter_build - "common_pid != SELF", then "&& common_pid == TID" (tid 0:
 * none), then "&& extra"; a user's filter goes first as "(user) && ...". The
 * caller frees. The user's text must have passed filter_check, so it cannot
 * escape its parentheses. -p is no part of it: who_events (who.h).
 */
char *filter_build(pid_t tid, const char *user, const char *extra);
/*
 * filter_glob - append 'field ~ "glob"' to *f, the glob made safe for a
 * fixed-size char field (rwbs, comm). The kernel matches "*x*" and "*x"
 * against the whole array, bytes past the string's NUL included, and those
 * bytes are left over from earlier events or names: "*R*" can match a write
 * whose rwbs is "WS". A glob with a bracket is matched as a string, so the
 * first character after a leading '*' that is not a wildcard goes in brackets
 * ("*[R]*"), which matches the same strings. The glob must have no quote,
 * backslash, '[', ']' or '!' (checked by the caller).
 */
void filter_glob(char **f, const char *field, const char *glob);
/* filter_ok - NULL if a user's filter cannot escape its "(FILTER) && ..." wrapper, else the problem */
const char *filter_ok(const char *s);
/* filter_check - refuse (usage) a filter with control bytes, open quotes or unbalanced parentheses */
void filter_check(const char *s, const char *what);
/*
 * filter_regex_glob - a kernel filter glob that matches at least what the extended
 * regex re matches, when re is a plain word with optional ^ and $ anchors
 * ("conf" -> "*conf*", "^ba" -> "ba*"); -1 when it is not that simple
 */
int filter_regex_glob(const char *re, char *glob, size_t len);

#endif

/* filter.h - the event filters the tools install: never ourselves, the -p/-L threads, the user's own */
#ifndef FTT_FILTER_H
#define FTT_FILTER_H

#include <sys/types.h>

/* filter_cat - append printf-style text to the malloc'd string *f (NULL: empty) */
void filter_cat(char **f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * filter_build - "common_pid != SELF", then "&& (common_pid == T || ...)" for
 * every thread of pid (0: none) or for tid alone (0: none), then "&& extra";
 * a user's filter goes first as "(user) && ...". The caller frees. The user's
 * text must have passed opt_filter, so it cannot escape its parentheses.
 */
char *filter_build(pid_t pid, pid_t tid, const char *user, const char *extra);

#endif

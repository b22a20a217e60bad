/* SPDX-License-Identifier: GPL-2.0-only */
/* fieldhist.h - a numeric field of any event counted into buckets, in the kernel or here */
#ifndef FTT_FIELDHIST_H
#define FTT_FIELDHIST_H

#include <stdio.h>

struct session;
struct line;

/* the most bucket edges a histogram takes */
#define FIELDHIST_EDGES 64

/*
 * What is counted: SYS:EV's numeric FIELD, where FILTER (the user's, or
 * NULL) holds, into buckets: bucket 0 below edge[0], bucket i in
 * [edge[i-1], edge[i]), bucket nedge from edge[nedge-1] up. With GROUP (a
 * string field, such as comm) there is one histogram per value of it.
 */
struct fieldhist_spec {
	const char *sys, *ev, *field, *group, *filter;
	long long edge[FIELDHIST_EDGES];
	int nedge;
};

/* one histogram: its group's value (NULL without a group) and nedge + 1 counts */
struct fieldhist_group {
	const char *name;
	unsigned long long count[FIELDHIST_EDGES + 1];
};

/*
 * fieldhist_check - before any tracing state changes: SYS:EV exists and FIELD
 * is a number in it (GROUP, if given, a string); else one line and
 * exit(EXIT_USAGE). The event's format is kept for fieldhist_setup.
 */
void fieldhist_check(const struct fieldhist_spec *sp);
/* fieldhist_edges - parse "E1 E2 ..." (increasing integers, min..max each) into sp; exits EXIT_USAGE */
void fieldhist_edges(struct fieldhist_spec *sp, const char *text, const char *what,
		     long long min, long long max);
/*
 * fieldhist_setup - count in the run's instance: in the kernel (a hist trigger
 * keyed by the exact value, and the group, trusted only after it counted known
 * calls of our own exactly: khist_prove), else each record in user space,
 * which stderr is told. The user's filter is installed first: one the kernel
 * refuses is named and exits EXIT_USAGE. FTT_COUNT=user or kernel forces a
 * way (kernel: dies if it cannot). Dies if the setup fails.
 */
void fieldhist_setup(struct session *s, const struct fieldhist_spec *sp);
/* fieldhist_start - counting on (then the tool's banner); dies if refused */
void fieldhist_start(struct session *s);
/* fieldhist_run - count until `duration` seconds (0: no limit) or a stop; then the counts are final */
void fieldhist_run(struct session *s, double duration);
/* fieldhist_groups - the histograms, *n of them, groups by name (at least one without a group) */
const struct fieldhist_group *fieldhist_groups(size_t *n);
/* fieldhist_report - on stderr: events lost or left uncounted (a full kernel table) */
void fieldhist_report(struct session *s);
/*
 * fieldhist_print - the perf-tools table of g: a header "Range Count
 * Distribution" (HEAD and LABEL), one row per bucket; edges are shown
 * divided by scale: scale 1 as integers (a bucket up to the next edge less
 * one), else with one decimal (up to the next edge less 0.1)
 */
void fieldhist_print(FILE *f, const struct fieldhist_group *g, const char *head,
		     const char *label, long long scale);
/* fieldhist_json - g's buckets as the array KEY of l: {"min","max","count"}, bounds inclusive or null */
void fieldhist_json(struct line *l, const char *key, const struct fieldhist_group *g);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* kcount.h - calls of chosen kernel functions, counted in the kernel */
#ifndef FTT_KCOUNT_H
#define FTT_KCOUNT_H

struct session;

/*
 * One run's counters. The kernel counts in one of two ways:
 *  - the function profiler (CONFIG_FUNCTION_PROFILER): the top-level
 *    set_ftrace_filter and trace_stat, saved, journaled and put back; one
 *    run at a time;
 *  - one kprobe per function in the run's group, its hits read from
 *    kprobe_profile: private to the run, with the hits the kernel missed.
 * Neither records anything or leaves a task out.
 */
struct kcount {
	char **list;			/* the functions, sorted (probes_funcs) */
	int n;
	int profiler;			/* 1: the function profiler; 0: kprobes */
	unsigned long long *hits;	/* per function: calls counted since setup */
	unsigned long long *missed;	/* per function: calls the kernel missed (kprobes) */
	int probed;			/* functions counted (kprobes some cannot take) */
	/* private */
	struct session *sess;
	int onoff;
};

/*
 * kcount_setup - count LIST's N functions (GLOBS: what matched them, for the
 * profiler's filter) the way k->profiler says, switched off; exits in one
 * line on what the kernel refuses. A function kprobes cannot take is named
 * once on stderr and not counted.
 */
void kcount_setup(struct kcount *k, struct session *s, const char *globs, char **list, int n);
/* kcount_switch - counting on or off: one write(); exits if it cannot start */
void kcount_switch(struct kcount *k, int on);
/* kcount_read - the kernel's totals into k->hits and k->missed; exits if unreadable */
void kcount_read(struct kcount *k);

#endif

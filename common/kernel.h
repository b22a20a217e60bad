/* SPDX-License-Identifier: GPL-2.0-only */
/* kernel.h - what this kernel's tracefs offers, asked in one place */
#ifndef FTT_KERNEL_H
#define FTT_KERNEL_H

/*
 * Each answer comes from a tracefs file or the tracing README, read once, the
 * way the kernel's own ftracetest decides what to test. That a kernel offers
 * a feature does not prove it works: what must work is proven by use (the
 * capture rungs are checked with a known call, ladder.c).
 */
enum kernel_feature {
	KF_KPROBES,		/* kprobe_events */
	KF_UPROBES,		/* uprobe_events */
	KF_EPROBES,		/* dynamic_events, and the README documents event probes */
	KF_USTRING,		/* the README documents the ustring fetch type */
	KF_UDEREF,		/* ... user-memory dereferences, +u<offset>() */
	KF_ARGN,		/* ... $arg<N> */
	KF_ARGNAME,		/* ... <argname> (BTF argument names) */
	KF_HIST,		/* ... hist triggers (CONFIG_HIST_TRIGGERS) */
	KF_HIST_BUCKETS,	/* ... hist trigger .buckets */
	KF_SYNTH,		/* synthetic_events */
	KF_FUNC_PROFILER,	/* function_profile_enabled */
	KF_FUNC_GRAPH,		/* available_tracers lists function_graph */
	KF_SYSCALL_STRINGS,	/* syscall entry events carry their strings (6.19+) */
	KF_EVENT_FORK,		/* set_event_pid and options/event-fork */
	KF_FUNC_FORK,		/* set_ftrace_pid and options/function-fork */
	KF_NFEATURES
};

/* kernel_has - 1 if this kernel offers f, else 0 (answers are kept) */
int kernel_has(enum kernel_feature f);
/* kernel_lacks - "no X (CONFIG_Y) in Linux RELEASE": why f is missing, for messages */
const char *kernel_lacks(enum kernel_feature f);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* kernel.c - what this kernel's tracefs offers, asked in one place
 *
 * Reads README and a few files once per run; every later question is a table
 * lookup.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <tracefs.h>

#include "kernel.h"

static const struct {
	const char *name;	/* what it is, for messages */
	const char *file;	/* a top-level tracefs file that must exist, or NULL */
	const char *readme;	/* text the tracing README must hold, or NULL */
} features[KF_NFEATURES] = {
	[KF_KPROBES] = { "kprobes (CONFIG_KPROBE_EVENTS)", "kprobe_events", NULL },
	[KF_UPROBES] = { "uprobes (CONFIG_UPROBE_EVENTS)", "uprobe_events", NULL },
	[KF_EPROBES] = { "event probes (CONFIG_EPROBE_EVENTS)", "dynamic_events", "e[:[<group>/" },
	[KF_USTRING] = { "the ustring fetch type", NULL, "ustring" },
	[KF_UDEREF] = { "user-memory dereferences in probes", NULL, "[u]<offset>" },
	[KF_ARGN] = { "$argN probe arguments", NULL, "$arg<N>" },
	[KF_ARGNAME] = { "BTF argument names in probes", NULL, "<argname>" },
	[KF_HIST] = { "hist triggers (CONFIG_HIST_TRIGGERS)", NULL, "hist:keys=" },
	[KF_HIST_BUCKETS] = { "hist trigger buckets", NULL, ".buckets" },
	[KF_SYNTH] = { "synthetic events", "synthetic_events", NULL },
	[KF_FUNC_PROFILER] = { "the function profiler (CONFIG_FUNCTION_PROFILER)",
			       "function_profile_enabled", NULL },
	[KF_FUNC_GRAPH] = { "the function_graph tracer (CONFIG_FUNCTION_GRAPH_TRACER)",
			    NULL, NULL },
	[KF_SYSCALL_STRINGS] = { "strings in the syscall events (6.19+)", NULL, NULL },
	[KF_EVENT_FORK] = { "event filtering by task that follows forks (set_event_pid, "
			    "options/event-fork: 4.5+)", "set_event_pid", NULL },
	[KF_FUNC_FORK] = { "function tracing by task that follows forks (set_ftrace_pid, "
			   "options/function-fork: 4.14+)", "set_ftrace_pid", NULL },
};

static signed char answer[KF_NFEATURES];	/* 0 unasked, 1 yes, -1 no */

/* has_word - does the space-separated list hold w */
static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = list; p && (p = strstr(p, w)); p += n)
		if ((p == list || strchr(" \n", p[-1])) && strchr(" \n", p[n]))
			return 1;
	return 0;
}

/* ask - find out whether the kernel offers f */
static int ask(enum kernel_feature f)
{
	static char *readme;
	char *text;
	int yes;

	if (features[f].file && !tracefs_file_exists(NULL, features[f].file))
		return 0;
	if (features[f].readme) {
		if (!readme)
			readme = tracefs_instance_file_read(NULL, "README", NULL);
		if (!readme || !strstr(readme, features[f].readme))
			return 0;
	}
	switch (f) {
	case KF_FUNC_GRAPH:
		text = tracefs_instance_file_read(NULL, "available_tracers", NULL);
		yes = has_word(text, "function_graph");
		free(text);
		return yes;
	case KF_SYSCALL_STRINGS:
		text = tracefs_event_file_read(NULL, "syscalls", "sys_enter_openat", "format", NULL);
		yes = text && strstr(text, " __filename_val;");
		free(text);
		return yes;
	case KF_EVENT_FORK:
		return tracefs_file_exists(NULL, "options/event-fork");
	case KF_FUNC_FORK:
		return tracefs_file_exists(NULL, "options/function-fork");
	default:
		return 1;
	}
}

/* kernel_has - see kernel.h */
int kernel_has(enum kernel_feature f)
{
	if (f < 0 || f >= KF_NFEATURES)
		return 0;
	if (!answer[f])
		answer[f] = ask(f) ? 1 : -1;
	return answer[f] > 0;
}

/* kernel_lacks - see kernel.h */
const char *kernel_lacks(enum kernel_feature f)
{
	static char buf[200];
	struct utsname u;

	if (uname(&u) < 0)
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(buf, sizeof(buf), "no %s in Linux %s",
		 f >= 0 && f < KF_NFEATURES ? features[f].name : "?", u.release);
	return buf;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* probes.h - dynamic kprobes owned by one run: unique names, always removed */
#ifndef FTT_PROBES_H
#define FTT_PROBES_H

#include <stddef.h>
#include <tracefs.h>

struct session;

/*
 * probe_add - define a kprobe (ret == 0) or kretprobe in the session's group
 * ftt_TOOL_PID as GROUP/NAME at `addr` with `fetchargs` (may be NULL); its
 * removal is pushed on the session's undo stack. On failure returns -1 with
 * the kernel's reason left in error_log (print it with msg_kernel).
 */
int probe_add(struct session *s, const char *name, int ret, const char *addr,
	      const char *fetchargs);
/*
 * probes_hits - for every probe of this run listed in kprobe_profile, call
 * fn(event name, hits since creation); in-kernel counts, exact per probe.
 * Returns -1 (errno) if kprobe_profile cannot be read.
 */
int probes_hits(struct session *s,
		void (*fn)(const char *event, unsigned long long hits, void *ctx), void *ctx);
/*
 * probes_funcs - the traceable kernel functions (available_filter_functions)
 * matching any of the space-separated globs (fnmatch: * ? [..]), sorted and
 * unique, into *list (NULL-terminated; free with probes_funcs_free). Returns
 * the count, or -1 with errno if the kernel refuses the list (EPERM: lockdown).
 */
int probes_funcs(const char *globs, char ***list);
/* probes_funcs_free - free a list from probes_funcs */
void probes_funcs_free(char **list);
/* probe_add_ret - probe_add for a kretprobe with `maxactive` instances (0: the kernel's default) */
int probe_add_ret(struct session *s, const char *name, const char *addr, const char *fetchargs,
		  unsigned int maxactive);
/*
 * probes_profiler_hits - the function profiler's counts (trace_stat/function<CPU>):
 * fn(function, hits on one CPU) per function and CPU. -1 (errno) if unreadable.
 */
int probes_profiler_hits(void (*fn)(const char *func, unsigned long long hits, void *ctx),
			 void *ctx);
/* probes_function_exists - is NAME a traceable kernel function (available_filter_functions) */
int probes_function_exists(const char *name);
/*
 * probe_add_eprobe - define an event probe GROUP/NAME on the tracepoint
 * SYS:EVENT (fetchargs name its fields as $field), removed at exit like
 * probe_add; -1 when refused (no CONFIG_EPROBE_EVENTS, or a bad fetcharg)
 */
int probe_add_eprobe(struct session *s, const char *name, const char *sys, const char *event,
		     const char *fetchargs);
/*
 * probe_add_uprobe - define a uprobe GROUP/NAME at FILE:OFFSET (a file offset
 * in an executable or library; FILE an absolute path of plain characters),
 * removed at exit like probe_add; -1 when refused
 */
int probe_add_uprobe(struct session *s, const char *name, const char *file,
		     unsigned long long offset, const char *fetchargs);
/* probes_mark - a mark for probes_unwind: how many probes this run holds */
size_t probes_mark(void);
/* probes_unwind - remove the probes this run made since probes_mark returned mark */
void probes_unwind(size_t mark);
/* probe_name_ok - a probe/event name the kernel accepts: [A-Za-z_][A-Za-z0-9_]{0,63} */
int probe_name_ok(const char *name);

#endif

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
 * the kernel's reason left in error_log (print it with errlog_warn).
 */
int probe_add(struct session *s, const char *name, int ret, const char *addr,
	      const char *fetchargs);
/*
 * probes_hits - for every probe of this run listed in kprobe_profile, call
 * fn(event name, hits since creation, hits missed since creation); in-kernel
 * counts, exact per probe where none were missed.
 * Returns -1 (errno) if kprobe_profile cannot be read.
 */
int probes_hits(struct session *s,
		void (*fn)(const char *event, unsigned long long hits, unsigned long long missed,
			   void *ctx), void *ctx);
/*
 * probes_funcs - the traceable kernel functions (available_filter_functions)
 * matching any of the space-separated globs (fnmatch: * ? [..]), sorted and
 * unique, into *list (NULL-terminated; free with probes_funcs_free). Returns
 * the count, or -1 with errno if the kernel refuses the list (EPERM: lockdown).
 */
int probes_funcs(const char *globs, char ***list);
/*
 * probes_list_holds - does the function list FILE (set_ftrace_filter,
 * set_graph_function) of INST (NULL: the top level) hold exactly the N
 * functions of LIST: 0, else -1
 */
int probes_list_holds(struct tracefs_instance *inst, const char *file, char **list, int n);
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
/* the function profiler shows a name's first PROBES_PROFILER_NAME bytes only */
#define PROBES_PROFILER_NAME 30
/*
 * probes_profiler_find - the function of the sorted LIST (N names) whose
 * name the profiler shows as NAME (its first PROBES_PROFILER_NAME bytes): the
 * first of them if several share it (probes_profiler_label); -1 if none
 */
int probes_profiler_find(char *const *list, int n, const char *name);
/*
 * probes_profiler_label - the name to show for list[i] (sorted LIST of N)
 * counted by the profiler: the whole name if no other function of the list
 * has the same first PROBES_PROFILER_NAME bytes, else those bytes and '*'
 * (the calls of all of them, which the profiler does not tell apart)
 */
void probes_profiler_label(char *const *list, int n, int i, char *buf, size_t len);
/*
 * probes_profile_line - a kprobe_profile line "[GROUP/]EVENT HITS MISSED":
 * the event (with its group, if shown) into name[len], its hits and the hits
 * the kernel missed (the probe not run: a probe already running on that CPU).
 * 0, or -1 if the line is not one
 */
int probes_profile_line(const char *line, char *name, size_t len, unsigned long long *hits,
			unsigned long long *missed);
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
/* probe_add_uretprobe - probe_add_uprobe for the function's return */
int probe_add_uretprobe(struct session *s, const char *name, const char *file,
			unsigned long long offset, const char *fetchargs);
/* probes_mark - a mark for probes_unwind: how many probes this run holds */
size_t probes_mark(void);
/* probes_unwind - remove the probes this run made since probes_mark returned mark */
void probes_unwind(size_t mark);
/* probe_name_ok - a probe/event name the kernel accepts: [A-Za-z_][A-Za-z0-9_]{0,63} */
int probe_name_ok(const char *name);

#endif

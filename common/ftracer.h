/* SPDX-License-Identifier: GPL-2.0-only */
/* ftracer.h - a kernel function tracer (function, function_graph) for one run:
 * in the run's instance where the kernel allows it there, else at the top
 * level, taken only when free and put back exactly at exit */
#ifndef FTT_FTRACER_H
#define FTT_FTRACER_H

#include <sys/types.h>
#include <tracefs.h>

struct session;

/*
 * ftracer_check - die, in one line, unless the kernel lets this run trace
 * functions (with `graph`, graph them: the function_graph tracer); then the
 * traceable functions matching the space-separated globs FUNCS into *list
 * (probes_funcs), dying when none does. Returns their count.
 */
int ftracer_check(int graph, const char *funcs, char ***list);
/*
 * ftracer_place - run TRACER where FILE (a file it needs, such as
 * set_graph_function) exists beside it: s's instance if its available_tracers
 * lists TRACER and FILE is there, else the top level, taken only if its tracer
 * is nop, no event is on and its buffer is empty (emptied again at exit);
 * dies naming what holds it. WHAT names the tracing in those messages.
 */
void ftracer_place(struct session *s, const char *tracer, const char *file, const char *what);
/* ftracer_top - the tracer runs at the top level */
int ftracer_top(void);
/* ftracer_inst - the instance it runs in (NULL: the top level) */
struct tracefs_instance *ftracer_inst(void);
/* ftracer_set - write FILE where the tracer runs (top-level files are restored
 * at exit); -1 with errno */
int ftracer_set(const char *file, const char *value);
/* ftracer_set_or_die - ftracer_set, or end with a line naming the file */
void ftracer_set_or_die(const char *file, const char *value);
/* ftracer_list - write the function list FILE (set_ftrace_filter,
 * set_graph_function) from ASKED, then make sure it holds exactly the N
 * functions of LIST, else die; ASKED "" empties it (N 0) */
void ftracer_list(const char *file, const char *asked, char **list, int n);
/* ftracer_option - options/NAME where the tracer runs; -1 if the kernel lacks it */
int ftracer_option(const char *name, int on);
/*
 * ftracer_banner - the run's "Tracing ..." line, as perf-tools words it:
 * Tracing "FUNCS"[ for PID N| for TID N| in cgroup CGROUP][ slower than T
 * us] then " for D seconds..." or "... Ctrl-C to end." (out_banner)
 */
void ftracer_banner(const char *funcs, pid_t pid, pid_t tid, const char *cgroup,
		    unsigned long thresh_us, double duration);
/*
 * ftracer_who - trace PID's threads and those they start, or TID alone
 * (who_ftrace); neither: every task but this process, which reads the trace
 * (set_ftrace_notrace_pid, 5.8+)
 */
void ftracer_who(pid_t pid, pid_t tid);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftracer.c - a kernel function tracer for one run, where the kernel allows it
 *
 * The function tracers (function, function_graph) run in the run's own
 * instance where the kernel has them there, with the instance's own function
 * lists and PID files. Older kernels graph only at the top level: it is taken
 * then only when nobody uses it (tracer nop, no event on, buffer empty), every
 * file written there is saved first and put back at exit (global, journaled
 * against a SIGKILL), and the buffer is emptied again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftracer.h"
#include "global.h"
#include "kernel.h"
#include "msg.h"
#include "output.h"
#include "probes.h"
#include "session.h"
#include "who.h"
#include "xalloc.h"

static struct session *sess;
static struct tracefs_instance *inst;	/* where the tracer runs; NULL: the top level */
static int top;

/* has_word - does the space-separated list contain the word */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; list && (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == '\n') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return 1;
	return 0;
}

/* each_matches - die naming the first of the space-separated globs that
 * matches no traceable function: the kernel would refuse the whole list */
static void each_matches(const char *funcs)
{
	char *copy = xstrdup(funcs), *word, *save = NULL, **list;
	int n;

	for (word = strtok_r(copy, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
		n = probes_funcs(word, &list);
		if (n > 0)
			probes_funcs_free(list);
		if (n == 0)
			msg_die(EXIT_ERR, "no traceable kernel function matches \"%s\" of \"%s\" "
				"(see available_filter_functions)", word, funcs);
	}
	free(copy);
}

/* ftracer_check - see ftracer.h */
int ftracer_check(int graph, const char *funcs, char ***list)
{
	char *filter = global_read("set_ftrace_filter");
	const char *why = errno == EPERM ? " not permitted, kernel lockdown?" : " unreadable";
	const char *what = graph ? "function graph tracing" : "function tracing";
	int n;

	if (graph && !filter && !kernel_has(KF_FUNC_GRAPH))
		msg_die(EXIT_ERR, "this kernel does not allow function graph tracing: "
			"no function_graph tracer (CONFIG_FUNCTION_GRAPH_TRACER) and function "
			"tracing refused (set_ftrace_filter:%s)", why);
	if (graph && !kernel_has(KF_FUNC_GRAPH))
		msg_die(EXIT_ERR, "this kernel does not allow function graph tracing: "
			"no function_graph tracer (needs CONFIG_FUNCTION_GRAPH_TRACER)");
	if (!filter)
		msg_die(EXIT_ERR, "this kernel refuses %s (reading set_ftrace_filter:%s)",
			graph ? "function tracing" : what, why);
	free(filter);
	n = probes_funcs(funcs, list);
	if (n < 0)
		msg_die(EXIT_ERR, "this kernel refuses the list of traceable functions "
			"(available_filter_functions:%s)", errno == EPERM ?
			" not permitted, kernel lockdown?" : " unreadable");
	if (n == 0)
		msg_die(EXIT_ERR, "no traceable kernel function matches \"%s\" "
			"(see available_filter_functions)", funcs);
	if (strchr(funcs, ' '))
		each_matches(funcs);
	return n;
}

/* ftracer_place - see ftracer.h */
void ftracer_place(struct session *s, const char *tracer, const char *file, const char *what)
{
	char *tracers = tracefs_instance_file_read(s->inst, "available_tracers", NULL);
	char *events, *why;
	long held;

	sess = s;
	top = !tracers || !has_word(tracers, tracer) || !tracefs_file_exists(s->inst, file);
	free(tracers);
	inst = top ? NULL : s->inst;
	if (!top)
		return;
	tracers = global_read("available_tracers");
	if (!tracers || !has_word(tracers, tracer))
		msg_die(EXIT_ERR, "this kernel does not allow %s: no %s tracer", what, tracer);
	free(tracers);
	why = xasprintf("this kernel allows %s only at the top level, so this run will not "
			"take it", what);
	global_tracer_free(why);
	free(why);
	events = global_read("set_event");
	if (!events || *events)
		msg_die(EXIT_ERR, "the top-level trace buffer is in use (events enabled in "
			"set_event); this kernel allows %s only at the top level", what);
	free(events);
	/* what is there is someone's recording: not ours to clear */
	held = session_buffer_entries(NULL);
	if (held < 0)
		msg_die(EXIT_ERR, "cannot tell whether the top-level trace buffer is empty "
			"(per_cpu/*/stats); this kernel allows %s only at the top level", what);
	if (held > 0)
		msg_die(EXIT_ERR, "the top-level trace buffer holds %ld events of someone's "
			"recording; this kernel allows %s only at the top level, and this "
			"run will not clear it", held, what);
	/* empty: what is recorded there from now on is ours, and emptied at exit
	 * (by the next run after a SIGKILL, from the journal) */
	if (global_write("trace", "", 1) < 0)
		msg_die(EXIT_ERR, "cannot empty the top-level trace buffer:");
}

/* ftracer_top - see ftracer.h */
int ftracer_top(void)
{
	return top;
}

/* ftracer_inst - see ftracer.h */
struct tracefs_instance *ftracer_inst(void)
{
	return inst;
}

/* ftracer_set - see ftracer.h */
int ftracer_set(const char *file, const char *value)
{
	return session_set(sess, top, file, value);
}

/* ftracer_set_or_die - see ftracer.h */
void ftracer_set_or_die(const char *file, const char *value)
{
	if (ftracer_set(file, value) < 0)
		msg_die(EXIT_ERR, errno == EBUSY ? "%s holds function triggers of another user; "
			"not touching it" : "cannot set %s:", file);
}

/* ftracer_list - see ftracer.h */
void ftracer_list(const char *file, const char *asked, char **list, int n)
{
	if (ftracer_set(file, asked) < 0)
		msg_die(EXIT_ERR, errno == EBUSY ? "%s holds another user's settings; not "
			"touching it" : "the kernel refused \"%s\" in %s:", *asked ? asked : file,
			file);
	/* every function asked for, each entry taken (one per write) */
	if (probes_list_holds(inst, file, list, n) < 0)
		msg_die(EXIT_ERR, "the kernel did not take \"%s\" as asked: %s does not hold "
			"exactly the %d functions it matches", asked, file, n);
}

/* ftracer_option - see ftracer.h */
int ftracer_option(const char *name, int on)
{
	char path[96];

	snprintf(path, sizeof(path), "options/%s", name);
	if (!tracefs_file_exists(inst, path))
		return -1;
	ftracer_set_or_die(path, on ? "1" : "0");
	return 0;
}

/* ftracer_banner - see ftracer.h */
void ftracer_banner(const char *funcs, pid_t pid, pid_t tid, const char *cgroup,
		    unsigned long thresh_us, double duration)
{
	char who[112] = "", slow[64] = "";

	if (pid)
		snprintf(who, sizeof(who), " for PID %d", (int)pid);
	if (tid)
		snprintf(who, sizeof(who), " for TID %d", (int)tid);
	if (cgroup)
		snprintf(who, sizeof(who), " in cgroup %.80s", cgroup);
	if (thresh_us)
		snprintf(slow, sizeof(slow), " slower than %lu us", thresh_us);
	if (duration > 0)
		out_banner("Tracing \"%s\"%s%s for %g seconds...\n", funcs, who, slow, duration);
	else
		out_banner("Tracing \"%s\"%s%s... Ctrl-C to end.\n", funcs, who, slow);
	fflush(stdout);
}

/* ftracer_who - see ftracer.h */
void ftracer_who(pid_t pid, pid_t tid)
{
	char num[32];

	if (pid || tid) {
		who_ftrace(sess, top, pid, tid);
		return;
	}
	ftracer_set_or_die("set_ftrace_pid", "");
	snprintf(num, sizeof(num), "%d", (int)getpid());
	if (tracefs_file_exists(inst, "set_ftrace_notrace_pid"))
		ftracer_set_or_die("set_ftrace_notrace_pid", num);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* kcount.c - calls of chosen kernel functions, counted in the kernel
 *
 * The counts are the kernel's: nothing reaches user space per call. Counting
 * is switched on and off by one write each on a file opened before, so a
 * tool can keep everything else it does outside the counted span.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "errlog.h"
#include "global.h"
#include "kcount.h"
#include "msg.h"
#include "probes.h"
#include "session.h"
#include "signals.h"
#include "xalloc.h"

/* setup_profiler - the function profiler (top level, restored at exit) */
static void setup_profiler(struct kcount *k, const char *globs)
{
	char *prof;

	global_tracer_free("the function profiler shares its filter, so it will not be taken");
	prof = global_read("function_profile_enabled");
	if (!prof || strcmp(prof, "0"))
		msg_die(EXIT_ERR, "the function profiler is on already (function_profile_enabled=%s): "
			"someone else's counts; not resetting them", prof ? prof : "unreadable");
	free(prof);
	if (global_write("set_ftrace_filter", globs, 1) < 0)
		msg_die(EXIT_ERR, errno == EBUSY ? "set_ftrace_filter holds another user's "
			"function triggers; not touching it" : "cannot set set_ftrace_filter:");
	/* every function asked for, each entry taken */
	if (probes_list_holds(NULL, "set_ftrace_filter", k->list, k->n) < 0)
		msg_die(EXIT_ERR, "the kernel did not take \"%s\" as asked: set_ftrace_filter "
			"does not hold exactly the %d functions it matches", globs, k->n);
	/* saved and journaled now; the switch is flipped by one write each way */
	if (global_write("function_profile_enabled", "0", 1) < 0)
		msg_die(EXIT_ERR, "cannot set function_profile_enabled:");
	global_expect("function_profile_enabled", "1");
	global_expect("function_profile_enabled", "0");
	k->onoff = session_file_fd(k->sess, 1, "function_profile_enabled");
	if (k->onoff < 0)
		msg_die(EXIT_ERR, "cannot open function_profile_enabled:");
	k->probed = k->n;
}

/* setup_probes - one kprobe "fPID_I" per function I in the run's group; the
 * instance's tracing_on stays 0 (hit counts, no records), and the switch is
 * the group's enable file there */
static void setup_probes(struct kcount *k)
{
	char name[64], file[160];
	int i, skipped = 0;
	double t0 = clock_s(), secs;

	for (i = 0; i < k->n && !sig_stop; i++) {
		snprintf(name, sizeof(name), "f%d_%d", (int)getpid(), i);
		if (probe_add(k->sess, name, 0, k->list[i], NULL) < 0) {
			if (!skipped++)
				errlog_warn(NULL, "cannot probe %s, not counted", k->list[i]);
			continue;
		}
	}
	if (sig_stop)
		exit(EXIT_OK);
	secs = clock_s() - t0;
	if (skipped > 1)
		msg_warn("%d of %d functions cannot be probed and are not counted",
			 skipped, k->n);
	if (secs > 1.0)
		msg_warn("setting up %d probes took %.1f s", k->n - skipped, secs);
	k->probed = k->n - skipped;
	snprintf(file, sizeof(file), "events/%s/enable", k->sess->group);
	k->onoff = session_file_fd(k->sess, 0, file);
	if (k->onoff < 0)
		msg_die(EXIT_ERR, "cannot open %s:", file);
}

void kcount_setup(struct kcount *k, struct session *s, const char *globs, char **list, int n)
{
	k->sess = s;
	k->list = list;
	k->n = n;
	k->hits = xcalloc(n + 1, sizeof(*k->hits));
	k->missed = xcalloc(n + 1, sizeof(*k->missed));
	if (k->profiler)
		setup_profiler(k, globs);
	else
		setup_probes(k);
}

void kcount_switch(struct kcount *k, int on)
{
	if (session_flip(k->onoff, on) == 0)
		return;
	if (on)
		msg_die(EXIT_ERR, "cannot start counting:");
	msg_warn("cannot stop counting, so the counts may include this tool's own reads "
		 "of them:");
}

/* on_probe_hits - a probe's totals: probe "fPID_I" counts function I */
static void on_probe_hits(const char *event, unsigned long long hits, unsigned long long missed,
			  void *ctx)
{
	struct kcount *k = ctx;
	const char *idx = strrchr(event, '_');
	long i = idx ? strtol(idx + 1, NULL, 10) : -1;

	if (i >= 0 && i < k->n) {
		k->hits[i] = hits;
		k->missed[i] = missed;
	}
}

/*
 * on_profile_hits - one CPU's profiler count of a function: summed. The
 * profiler shows a name's first 30 bytes: the one function with that cut,
 * or the first of those that share it, which counts for all of them
 */
static void on_profile_hits(const char *func, unsigned long long hits, void *ctx)
{
	struct kcount *k = ctx;
	int i = probes_profiler_find(k->list, k->n, func);

	if (i >= 0)
		k->hits[i] += hits;
}

void kcount_read(struct kcount *k)
{
	int i, rc;

	for (i = 0; k->profiler && i < k->n; i++)
		k->hits[i] = 0;
	rc = k->profiler ? probes_profiler_hits(on_profile_hits, k)
			 : probes_hits(k->sess, on_probe_hits, k);
	if (rc < 0)
		msg_die(EXIT_ERR, "cannot read the kernel's counts:");
}

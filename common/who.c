/* SPDX-License-Identifier: GPL-2.0-only */
/* who.c - who -p traces: a process's threads now and the threads and children they start
 *
 * The one place that says which tasks a tool traces. The kernel keeps the set
 * itself where it can: set_event_pid (events) and set_ftrace_pid (function
 * tracers) hold the process's threads, and the event-fork / function-fork
 * options make the kernel add each thread or child a member starts (and drop
 * each that exits). A list of every thread in an event filter, as before,
 * outgrows the page the kernel accepts for a filter at some 300 threads and
 * never sees a thread started later. For events that fire in another task's
 * context the same set is kept in user space from the fork and exit events.
 * Cost: the kernel tests one bit at each context switch and one per event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter.h"
#include "kernel.h"
#include "msg.h"
#include "pidmap.h"
#include "procread.h"
#include "session.h"
#include "who.h"

/* a write to a pid list holds at most this much (whole numbers only) */
#define CHUNK 1024
/* rounds of "list the threads again" before giving up on a process that
 * starts threads faster than we can list them */
#define MAX_ROUNDS 100

static struct pidmap *tracked;	/* who_track's set */
static struct pidmap *listed;	/* the threads written to a kernel list */

/* write_list - add the numbers in text to FILE, CHUNK bytes at a time; the
 * first write of a run replaces the list (trunc) */
static int write_list(struct session *s, int top, const char *file, const char *text,
		      int *trunc)
{
	char buf[CHUNK + 16];
	size_t n;

	while (*text) {
		n = strlen(text);
		if (n > CHUNK) {
			n = CHUNK;
			while (n > 0 && text[n] != ' ')
				n--;
		}
		memcpy(buf, text, n);
		buf[n] = '\0';
		if ((*trunc ? session_set(s, top, file, buf) : session_append(s, top, file, buf)) < 0)
			return -1;
		*trunc = 0;
		text += n;
		text += strspn(text, " ");
	}
	return 0;
}

/*
 * add_threads - put every thread of pid in FILE (and in listed). A thread
 * started while the list is written, by one not yet in it, is not followed
 * by the kernel: list again until a listing finds nothing new. What a member
 * starts once it is in the list, the kernel adds itself (the fork option).
 */
static void add_threads(struct session *s, int top, const char *file, pid_t pid)
{
	int round, i, n, fresh, trunc = 1;
	pid_t *tids;
	char *text;

	if (!listed)
		listed = pidmap_new(NULL);
	for (round = 0; round < MAX_ROUNDS; round++) {
		n = proc_tids(pid, &tids);
		text = NULL;
		for (i = fresh = 0; i < n; i++) {
			if (pidmap_get(listed, tids[i]))
				continue;
			pidmap_put(listed, tids[i], (void *)1);
			filter_cat(&text, "%s%d", fresh++ ? " " : "", (int)tids[i]);
		}
		free(tids);
		if (!fresh)
			return;
		if (write_list(s, top, file, text, &trunc) < 0) {
			if (errno == EBUSY)
				msg_die(EXIT_ERR, "%s holds another user's settings; not "
					"touching it", file);
			msg_die(EXIT_ERR, "cannot write the threads of PID %d to %s:",
				(int)pid, file);
		}
		free(text);
	}
	msg_die(EXIT_ERR, "PID %d starts threads faster than they can be listed", (int)pid);
}

/*
 * check_listed - read FILE back: every thread written to it that still runs
 * must be there, or the kernel did not take the list (the write alone proves
 * nothing). A thread that ended meanwhile has left the list (the fork option
 * drops it), so one missing is looked up in /proc after the read.
 */
static void check_listed(struct session *s, int top, const char *file, pid_t pid)
{
	char *text = tracefs_instance_file_read(top ? NULL : s->inst, file, NULL);
	char path[96], *p, *end;
	struct pidmap *in = pidmap_new(NULL);
	pid_t *tids;
	int i, n;
	long v;

	if (!text)
		msg_die(EXIT_ERR, "-p: cannot read %s back:", file);
	for (p = text; *p; p = end > p ? end : p + 1) {
		v = strtol(p, &end, 10);
		if (v > 0)
			pidmap_put(in, (int)v, (void *)1);
	}
	free(text);
	n = proc_tids(pid, &tids);
	for (i = 0; i < n; i++) {
		if (pidmap_get(in, tids[i]) || !pidmap_get(listed, tids[i]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)pid, (int)tids[i]);
		if (access(path, F_OK) == 0)
			msg_die(EXIT_ERR, "-p: the kernel did not keep thread %d in %s", (int)tids[i],
				file);
	}
	free(tids);
	pidmap_free(in);
}

/* who_events - see who.h */
void who_events(struct session *s, pid_t pid)
{
	if (!pid)
		return;
	if (!kernel_has(KF_EVENT_FORK))
		msg_die(EXIT_ERR, "-p: %s", kernel_lacks(KF_EVENT_FORK));
	/* the option first: a thread started from a member once listed is added */
	if (session_option(s, "event-fork", 1) < 0)
		msg_die(EXIT_ERR, "-p: cannot set options/event-fork in instance %s:", s->name);
	add_threads(s, 0, "set_event_pid", pid);
	check_listed(s, 0, "set_event_pid", pid);
}

/* who_ftrace - see who.h */
void who_ftrace(struct session *s, int top, pid_t pid, pid_t tid)
{
	char num[32];

	if (tid) {
		snprintf(num, sizeof(num), "%d", (int)tid);
		if (session_set(s, top, "set_ftrace_pid", num) < 0)
			msg_die(EXIT_ERR, errno == EBUSY ? "set_ftrace_pid holds another user's "
				"settings; not touching it" : "cannot set set_ftrace_pid:");
		return;
	}
	if (!pid)
		return;
	if (!kernel_has(KF_FUNC_FORK) ||
	    !tracefs_file_exists(top ? NULL : s->inst, "options/function-fork"))
		msg_die(EXIT_ERR, "-p: %s", kernel_lacks(KF_FUNC_FORK));
	if (session_set(s, top, "options/function-fork", "1") < 0)
		msg_die(EXIT_ERR, "-p: cannot set options/function-fork:");
	add_threads(s, top, "set_ftrace_pid", pid);
	check_listed(s, top, "set_ftrace_pid", pid);
}

/* who_track - see who.h */
void who_track(pid_t pid)
{
	pid_t *tids;
	int i, n;

	if (!tracked)
		tracked = pidmap_new(NULL);
	n = proc_tids(pid, &tids);
	for (i = 0; i < n; i++)
		pidmap_put(tracked, tids[i], (void *)1);
	free(tids);
}

/* who_fork - see who.h */
void who_fork(int parent, int child)
{
	if (tracked && pidmap_get(tracked, parent))
		pidmap_put(tracked, child, (void *)1);
}

/* who_exit - see who.h */
void who_exit(int tid)
{
	if (tracked)
		pidmap_take(tracked, tid);
}

/* who_has - see who.h */
int who_has(int tid)
{
	return tracked && pidmap_get(tracked, tid);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* session.c - a private tracefs instance, set up and removed at exit
 *
 * Every run owns one instance named ftt-TOOL-PID-START, so tools run side by
 * side and the user's own tracing is never touched. Whatever must be undone is
 * pushed on the undo stack (undo.c), which runs in reverse from atexit(), so
 * every exit path (normal end, signal, error) restores tracefs. A run killed
 * by SIGKILL leaves its instance, probes and journal (journal.c) behind: the
 * next run of any tool reaps them (reaper.c). Top-level settings are saved
 * and put back by global.c, event formats parsed by format.c.
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "errlog.h"
#include "filter.h"
#include "global.h"
#include "leftover.h"
#include "msg.h"
#include "options.h"
#include "procread.h"
#include "reaper.h"
#include "session.h"
#include "setting.h"
#include "undo.h"

#define MAX_MADE 8	/* instances of one run: its own and its companions */

static struct session the_session;

/* session_tracefs - find or mount tracefs; die with the reason if impossible */
void session_tracefs(void)
{
	if (geteuid() != 0)
		msg_die(EXIT_ERR, "must be run as root (tracing needs tracefs write access)");
	if (!tracefs_tracing_dir() || !tracefs_file_exists(NULL, "trace"))
		msg_die(EXIT_ERR, "tracefs not found and cannot be mounted (kernel without CONFIG_FTRACE?)");
}

/* the instances this run made and has not removed yet */
static struct session *made[MAX_MADE];

/* session_events_off - see session.h */
void session_events_off(void)
{
	int i;

	for (i = 0; i < MAX_MADE; i++)
		if (made[i] && made[i]->inst)
			tracefs_instance_file_write(made[i]->inst, "events/enable", "0");
}

/* destroy_instance - undo action: remove the private instance */
static void destroy_instance(void *arg)
{
	struct session *s = arg;
	int i;

	for (i = 0; i < MAX_MADE; i++)
		if (made[i] == s)
			made[i] = NULL;
	if (!s->inst)
		return;
	tracefs_instance_file_write(s->inst, "tracing_on", "0");
	if (reaper_destroy(s->inst) < 0)
		msg_warn("could not remove tracefs instance %s:", s->name);
	tracefs_instance_free(s->inst);
	s->inst = NULL;
}

/* make_instance - s's instance, named s->name, removed at exit; nothing is
 * recorded in it until the tool has set everything up. -1 if refused */
static int make_instance(struct session *s)
{
	int i;

	s->inst = tracefs_instance_create(s->name);
	if (!s->inst)
		return -1;
	undo_defer(destroy_instance, s);
	for (i = 0; i < MAX_MADE; i++)
		if (!made[i]) {
			made[i] = s;
			break;
		}
	tracefs_instance_file_write(s->inst, "tracing_on", "0");
	return 0;
}

/* session_companion - see session.h */
int session_companion(struct session *s, const char *suffix, struct session *c)
{
	*c = *s;
	if (snprintf(c->name, sizeof(c->name), "%s-%s", s->name, suffix) >= (int)sizeof(c->name))
		return -1;
	return make_instance(c);
}

/* session_names - see session.h */
void session_names(struct session *s, const char *tool, int pid, unsigned long long start)
{
	/* the PID with its start time: other runs tell a live run from a dead one by both */
	snprintf(s->name, sizeof(s->name), REAPER_PREFIX "-%s-%d-%llu", tool, pid, start);
	snprintf(s->group, sizeof(s->group), REAPER_PREFIX "_%s_%d_%llu", tool, pid, start);
}

/* what dead runs left, by run, for one stderr line each */
struct reaped {
	char tool[32], what[400];
	int pid;
};

/* on_reaped - leftover_reap's callback: an instance, probe group or journal removed */
static void on_reaped(const struct active_item *it, void *arg)
{
	struct reaped *r = arg;
	size_t i, n;

	for (i = 0; i < 8 && r[i].pid; i++)
		if (r[i].pid == it->pid && !strcmp(r[i].tool, it->tool ? it->tool : "?"))
			break;
	if (i == 8)
		return;		/* more runs than lines: the first ones are said */
	if (!r[i].pid) {
		snprintf(r[i].tool, sizeof(r[i].tool), "%s", it->tool ? it->tool : "?");
		r[i].pid = it->pid;
	}
	n = strlen(r[i].what);
	snprintf(r[i].what + n, sizeof(r[i].what) - n, "%s%s %s", n ? ", " : "", it->kind,
		 it->name);
}

/*
 * reap - remove what runs of this suite that are gone left (reaper.h), and
 * say it on stderr, one line a run: a run killed (SIGKILL) leaves its
 * instance, its probes, and its journal where it changed the top level
 */
static void reap(void)
{
	struct reaped r[8];
	int i;

	memset(r, 0, sizeof(r));
	leftover_reap(on_reaped, r);
	for (i = 0; i < 8 && r[i].pid; i++)
		msg_warn("removed what a run that ended without cleaning up (%s, PID %d) left: %s",
			 r[i].tool, r[i].pid, r[i].what);
}

/* session_open - mount, reap dead runs' leftovers, create the private instance */
struct session *session_open(const char *tool)
{
	struct session *s = &the_session;
	unsigned long long start = proc_start(getpid());

	session_tracefs();
	if (!start)
		msg_die(EXIT_ERR, "cannot read /proc/self/stat (is /proc mounted?)");
	/* elsewhere our PIDs are not the ones tracing records, nor other runs' ours */
	if (!proc_pidns_initial())
		msg_die(EXIT_ERR, "runs in a PID namespace of its own: tracing sees the "
			"host's PIDs (run it in the host's PID namespace)");
	session_names(s, tool, (int)getpid(), start);
	/* ps shows the tool's name even when the executable is a renamed copy */
	prctl(PR_SET_NAME, tool, 0, 0, 0);
	global_owner(tool);	/* the lock and the journal name it */
	reap();
	atexit(undo_run);	/* the single place cleanup starts from, whatever the exit path */
	if (make_instance(s) < 0)
		msg_die(EXIT_ERR, "cannot create tracefs instance %s:", s->name);
	return s;
}

/* session_event_exists - does SYSTEM:EVENT exist in this kernel (no state touched) */
int session_event_exists(const char *sys, const char *ev)
{
	if (!opt_is_ident(sys) || !opt_is_ident(ev))
		return 0;
	return tracefs_event_file_exists(NULL, sys, ev, "format");
}

/* session_filter - install a filter on an event; die with the kernel's reason naming `shown` */
void session_filter(struct session *s, const char *sys, const char *ev, const char *filter,
		    const char *shown)
{
	if (!filter || !*filter)
		return;
	/* the user's part must not close the parentheses it is wrapped in */
	if (shown)
		filter_check(shown, "filter");
	tracefs_error_clear(s->inst);	/* the instance's own log: ours */
	errlog_mark(s->inst);
	if (tracefs_event_file_write(s->inst, sys, ev, "filter", filter) < 0) {
		int err = errno;

		errlog_warn(s->inst, "filter '%.80s' refused for %s:%s", shown ? shown : filter,
			    sys, ev);
		/* a filter the user wrote that the kernel cannot parse is a usage
		 * error; any other refusal (EBUSY, ENOMEM, ENOENT) is a runtime one */
		exit(shown && err == EINVAL ? EXIT_USAGE : EXIT_ERR);
	}
}

/* session_user_filter - see session.h */
void session_user_filter(struct session *s, const char *sys, const char *ev, pid_t tid,
			 const char *user)
{
	char *filter = filter_build(tid, user, NULL);

	session_filter(s, sys, ev, filter, user);
	free(filter);
}

/* session_enable - enable an event in the instance; die if refused */
void session_enable(struct session *s, const char *sys, const char *ev)
{
	if (tracefs_event_file_write(s->inst, sys, ev, "enable", "1") < 0)
		msg_die(EXIT_ERR, "cannot enable %s:%s:", sys, ev);
}

/* session_option - set options/NAME in the instance; -1 if the kernel lacks it */
int session_option(struct session *s, const char *name, int on)
{
	char path[128];

	snprintf(path, sizeof(path), "options/%s", name);
	if (!tracefs_file_exists(s->inst, path))
		return -1;
	return tracefs_instance_file_write(s->inst, path, on ? "1" : "0") < 0 ? -1 : 0;
}

/* session_buffer_kb - per-CPU ring buffer size of the instance */
void session_buffer_kb(struct session *s, int kb)
{
	char v[32];

	snprintf(v, sizeof(v), "%d", kb);
	if (tracefs_instance_file_write(s->inst, "buffer_size_kb", v) < 0)
		msg_warn("could not set buffer_size_kb to %d:", kb);
}

/* session_set - write a file in the instance, or at the top level saved and restored */
int session_set(struct session *s, int top, const char *file, const char *value)
{
	if (top)
		return global_write(file, value, 1);
	return setting_write(s->inst, file, value);
}

/* session_append - see session.h */
int session_append(struct session *s, int top, const char *file, const char *value)
{
	if (top)
		return global_append(file, value);
	return tracefs_instance_file_append(s->inst, file, value) < 0 ? -1 : 0;
}

/* session_buffer_entries - see session.h */
long session_buffer_entries(struct tracefs_instance *inst)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), sum = 0, cpu;
	char path[64], *text, *e;
	int seen = 0;

	for (cpu = 0; cpu < ncpu && cpu < 8192; cpu++) {
		snprintf(path, sizeof(path), "per_cpu/cpu%ld/stats", cpu);
		if (!tracefs_file_exists(inst, path))
			continue;
		text = tracefs_instance_file_read(inst, path, NULL);
		if (!text)
			return -1;
		e = strstr(text, "entries:");
		if (e)
			sum += strtol(e + 8, NULL, 10);
		seen += e != NULL;
		free(text);
	}
	return seen ? sum : -1;
}

/* close_fd - undo: an open tracefs file closed (it holds its instance: no rmdir while open) */
static void close_fd(void *arg)
{
	close((int)(intptr_t)arg);
}

/* session_file_fd - see session.h */
int session_file_fd(struct session *s, int top, const char *file)
{
	char *path = tracefs_instance_get_file(top ? NULL : s->inst, file);
	int fd;

	if (!path)
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	tracefs_put_tracing_file(path);
	if (fd >= 0)
		undo_defer(close_fd, (void *)(intptr_t)fd);
	return fd;
}

/* session_flip - see session.h */
int session_flip(int fd, int on)
{
	return write(fd, on ? "1" : "0", 1) == 1 ? 0 : -1;
}

/* session_clock - the instance's trace_clock (e.g. "mono"); -1 if the kernel lacks it */
int session_clock(struct session *s, const char *clock)
{
	return tracefs_instance_file_write(s->inst, "trace_clock", clock) < 0 ? -1 : 0;
}

/* session_start - record from now on (before the banner: what the user starts after it is seen) */
void session_start(struct session *s)
{
	if (tracefs_instance_file_write(s->inst, "tracing_on", "1") < 0)
		msg_die(EXIT_ERR, "cannot turn tracing on in instance %s:", s->name);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* reaper.c - what runs that no longer exist left in tracefs, removed
 *
 * Every run names what it makes after itself: its instances
 * ftt-TOOL-PID-START[-SUFFIX], its probe group and synthetic events
 * ftt_TOOL_PID_START..., its journal (journal.c) TOOL-PID-START, START the
 * run's start time (proc_start). A run killed by SIGKILL leaves them behind;
 * the next run of any tool finds the runs that are gone and removes what they
 * left: the top-level settings their journals hold are written back first,
 * as a run's own exit does, then their instances (with any triggers still in
 * them) and their probes and synthetic events go. Costs one listing of the
 * instances and of each dynamic event file at startup.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "journal.h"
#include "procread.h"
#include "reaper.h"
#include "xalloc.h"

/*
 * reaper_run_is_dead - is the run with PID, started at START, gone?
 *
 * A PID is reused and a name is anyone's to take: the owner is the process
 * with that PID and that start time (proc_start). A name without a start time
 * (made by an older version) is taken as live while its PID exists.
 */
int reaper_run_is_dead(int pid, unsigned long long start)
{
	unsigned long long now;

	if (pid <= 0)
		return 0;
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return 1;
	if (!start)
		return 0;
	now = proc_start(pid);
	return now && now != start;
}

/*
 * reaper_parse_owner - split "ftt?TOOL?PID?START..." (sep '-' or '_') into
 * tool, pid and start; start is 0 in an older name, "ftt?TOOL?PID..."
 */
int reaper_parse_owner(const char *name, char sep, char *tool, size_t len, int *pid,
		       unsigned long long *start)
{
	const char *p = name + strlen(REAPER_PREFIX), *q;
	unsigned long long st = 0;
	char *end;
	long num;
	size_t n;

	if (strncmp(name, REAPER_PREFIX, strlen(REAPER_PREFIX)) || *p != sep)
		return -1;
	p++;
	q = strchr(p, sep);
	/* TOOL may hold the separator (perf-stat-hist): its parts after the first are letters */
	while (q && !isdigit((unsigned char)q[1])) {
		const char *r = q + 1;

		while (isalpha((unsigned char)*r))
			r++;
		if (r == q + 1 || *r != sep)
			return -1;
		q = r;
	}
	if (!q)
		return -1;
	n = q - p;
	if (n == 0 || n >= len)
		return -1;
	/* a number past what a run writes (a PID past int) is no run's */
	errno = 0;
	num = strtol(q + 1, &end, 10);
	if (errno || num > INT_MAX)
		return -1;
	if (*end == sep && isdigit((unsigned char)end[1])) {
		q = end + 1;
		st = strtoull(q, &end, 10);
		if (errno)
			return -1;
		/* what follows: a companion's suffix ("-k0"), an event ("/EVENT") */
		if (*end && *end != sep && *end != '/')
			st = 0;
	}
	memcpy(tool, p, n);
	tool[n] = '\0';
	*pid = (int)num;
	*start = st;
	return 0;
}

/* strip_pass - remove what triggers can go now; the number removed */
static int strip_pass(struct tracefs_instance *inst)
{
	char *dir = tracefs_instance_get_dir(inst), **systems, **events;
	int i, j, removed = 0;

	if (!dir)
		return 0;
	systems = tracefs_event_systems(dir);
	for (i = 0; systems && systems[i]; i++) {
		events = tracefs_system_events(dir, systems[i]);
		for (j = 0; events && events[j]; j++) {
			char *path = xasprintf("events/%s/%s/trigger", systems[i], events[j]),
			     *text, *line, *save = NULL;

			text = tracefs_instance_file_read(inst, path, NULL);
			for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
			     line = strtok_r(NULL, "\n", &save)) {
				char *cmd, *tail = NULL, *p;

				if (line[0] == '#')
					continue;
				/* the state the kernel appends: " [active]", " [paused]" */
				for (p = strstr(line, " ["); p; p = strstr(p + 1, " ["))
					tail = p;
				if (tail)
					*tail = '\0';
				if (asprintf(&cmd, "!%s\n", line) < 0)
					continue;
				if (tracefs_instance_file_append(inst, path, cmd) >= 0)
					removed++;
				free(cmd);
			}
			free(text);
			free(path);
		}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	tracefs_put_tracing_file(dir);
	return removed;
}

/* reaper_destroy - see reaper.h */
int reaper_destroy(struct tracefs_instance *inst)
{
	/* triggers (hist, with variables) keep an instance from going */
	if (tracefs_instance_destroy(inst) >= 0)
		return 0;
	/* a trigger that refers to another's variable must go first: repeat */
	while (strip_pass(inst) > 0)
		;
	return tracefs_instance_destroy(inst);
}

/* reap_instances - remove ftt-* instances whose run is gone */
static void reap_instances(void)
{
	/* all names: reaper_parse_owner checks the prefix (libtracefs 1.6.4 leaks a regex) */
	char **names = tracefs_instances(NULL);
	char tool[32];
	unsigned long long start;
	int i, pid;

	for (i = 0; names && names[i]; i++) {
		struct tracefs_instance *inst;

		if (reaper_parse_owner(names[i], '-', tool, sizeof(tool), &pid, &start) ||
		    !reaper_run_is_dead(pid, start))
			continue;
		inst = tracefs_instance_create(names[i]);
		if (!inst)
			continue;
		reaper_destroy(inst);
		tracefs_instance_free(inst);
	}
	tracefs_list_free(names);
}

/* reap_dynevents - remove ftt_* kprobes and synthetic events whose run is gone */
static void reap_dynevents(const char *file)
{
	char *text, *line, *save = NULL, tool[32], cmd[256];
	unsigned long long start;
	int pid;

	if (!tracefs_file_exists(NULL, file))
		return;
	text = tracefs_instance_file_read(NULL, file, NULL);
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *name = strchr(line, ':'), *end, *ev;

		if (!name)
			continue;
		name++;
		end = name + strcspn(name, " \t");
		*end = '\0';
		/* "GROUP/EVENT" for probes, "EVENT" for synthetic events */
		ev = strchr(name, '/');
		if (reaper_parse_owner(name, '_', tool, sizeof(tool), &pid, &start) &&
		    (!ev || reaper_parse_owner(ev + 1, '_', tool, sizeof(tool), &pid, &start)))
			continue;
		if (!reaper_run_is_dead(pid, start))
			continue;
		snprintf(cmd, sizeof(cmd), "-:%s\n", name);
		tracefs_instance_file_append(NULL, file, cmd);
	}
	free(text);
}

/* reaper_reap - remove instances and probes left by runs that no longer exist */
void reaper_reap(void)
{
	journal_reap(reaper_run_is_dead);	/* top-level settings first, as a run's exit does */
	reap_instances();
	reap_dynevents("kprobe_events");
	reap_dynevents("synthetic_events");
	reap_dynevents("dynamic_events");	/* event probes are listed only here */
}

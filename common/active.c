/* SPDX-License-Identifier: GPL-2.0-only */
/* active.c - what is active in tracefs, listed; the names and files the
 * reset-ftrace modules share
 *
 * The state reset-ftrace(8) shows. The top level is everyone's: it is listed
 * file by file against the kernel's defaults (topreset.c resets it). An
 * instance is never touched here: the user's and live runs' are listed, dead
 * runs' are the reaper's (leftover.c names what it removed). A value a live
 * run of ours left at the top level (its journal's "=FILE" records,
 * journal.c) is named as that run's. Costs a read of each top-level settings
 * file and of every top-level event's filter and trigger (a few thousand
 * small reads), once. The helpers below active_list read the names runs of
 * this suite give (reaper.c), dynamic events' lines and perf-tools' lock, for
 * all three modules.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>

#include "active.h"
#include "journal.h"
#include "reaper.h"
#include "setting.h"
#include "xalloc.h"

/* a value a live run of ours left in a top-level file (its journal's "=FILE") */
struct left {
	char file[64];
	char *value;
	char tool[32];
	int pid;
};

struct lefts {
	struct left *v;
	int n;
	const char *tool;
	int pid;
};

static void left_add(const char *file, const char *content, int left, void *arg)
{
	struct lefts *l = arg;

	if (!left)
		return;
	l->v = xreallocarray(l->v, l->n + 1, sizeof(*l->v));
	snprintf(l->v[l->n].file, sizeof(l->v[l->n].file), "%s", file);
	l->v[l->n].value = xstrdup(content);
	snprintf(l->v[l->n].tool, sizeof(l->v[l->n].tool), "%s", l->tool);
	l->v[l->n].pid = l->pid;
	l->n++;
}

/* live_lefts - the values live runs' journals say they left at the top level */
static void live_lefts(struct lefts *l)
{
	unsigned long long start;
	struct dirent *d;
	char tool[32];
	DIR *dir = opendir(JOURNAL_DIR);
	int pid;

	while (dir && (d = readdir(dir))) {
		char path[300], *text;
		struct stat st;
		ssize_t n;
		int fd;

		if (active_journal_owner(d->d_name, tool, sizeof(tool), &pid, &start) ||
		    reaper_run_is_dead(pid, start))
			continue;
		snprintf(path, sizeof(path), "%s/%s", JOURNAL_DIR, d->d_name);
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (1 << 24)) {
			text = xmalloc((size_t)st.st_size + 1);
			n = read(fd, text, (size_t)st.st_size);
			l->tool = tool;
			l->pid = pid;
			if (n == st.st_size)
				journal_parse(text, (size_t)n, left_add, l);
			free(text);
		}
		close(fd);
	}
	if (dir)
		closedir(dir);
}

/* emit - fn for one active item */
static int emit(active_fn fn, void *arg, const char *kind, const char *name, const char *value,
		const char *tool, int pid, int running, const char *note)
{
	struct active_item it = { .action = "active", .kind = kind, .name = name, .value = value,
				  .tool = tool, .pid = pid, .running = running, .note = note };

	fn(&it, arg);
	return 1;
}

/* list_dynamic - FILE's dynamic events but those of live runs of ours (in
 * dynamic_events, only the kinds no other file lists: not kprobes, uprobes,
 * synthetic events) */
static int list_dynamic(const char *file, active_fn fn, void *arg)
{
	char *text, *line, *save = NULL, name[256], tool[32], key[256], *rest, *s;
	unsigned long long start;
	size_t len = 0;
	int pid, n = 0;

	if (!tracefs_file_exists(NULL, file) ||
	    !(text = tracefs_instance_file_read(NULL, file, NULL)))
		return 0;
	rest = xcalloc(1, strlen(text) + 1);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!active_dyn_name(line, name, sizeof(name)))
			continue;
		if (!strcmp(file, "dynamic_events") && strchr("prs", line[0]) && line[1] == ':')
			continue;
		if (!active_owner_of(name, tool, sizeof(tool), &pid, &start, key, sizeof(key)) &&
		    !reaper_run_is_dead(pid, start))
			continue;
		len += sprintf(rest + len, "%s%s", len ? "\n" : "", line);
	}
	if (len) {
		s = active_shown(rest);
		n = emit(fn, arg, "setting", file, s, NULL, 0, 0, NULL);
		free(s);
	}
	free(rest);
	free(text);
	return n;
}

/* list_events - each top-level event's filter and trigger that is set */
static int list_events(active_fn fn, void *arg)
{
	char **systems = tracefs_event_systems(NULL), **events;
	int i, j, n = 0;

	for (i = 0; systems && systems[i]; i++) {
		events = tracefs_system_events(NULL, systems[i]);
		for (j = 0; events && events[j]; j++) {
			char *f = tracefs_event_file_read(NULL, systems[i], events[j], "filter", NULL);
			char *t = tracefs_event_file_read(NULL, systems[i], events[j], "trigger", NULL);
			char *name, *s, *line, *save = NULL;
			size_t len = 0;

			if (f && strncmp(f, "none", 4)) {
				name = xasprintf("events/%s/%s/filter", systems[i], events[j]);
				s = active_shown(f);
				n += emit(fn, arg, "filter", name, s, NULL, 0, 0, NULL);
				free(s);
				free(name);
			}
			/* "# Available triggers:" and its list: none set */
			for (line = t ? strtok_r(t, "\n", &save) : NULL; line;
			     line = strtok_r(NULL, "\n", &save))
				if (line[0] != '#')
					len += sprintf(t + len, "%s%s", len ? "\n" : "", line);
			if (len) {
				t[len] = '\0';
				name = xasprintf("events/%s/%s/trigger", systems[i], events[j]);
				s = active_shown(t);
				n += emit(fn, arg, "trigger", name, s, NULL, 0, 0, NULL);
				free(s);
				free(name);
			}
			free(f);
			free(t);
		}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	return n;
}

/* inst_summary - what a user's instance does: its tracer, events, tracing_on
 * (never made: an instance removed meanwhile stays removed); malloc'd, "" if
 * nothing */
static char *inst_summary(const char *name)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	char *tracer, *events, *on, *s;

	if (!inst)
		return xstrdup("");
	tracer = setting_read(inst, "current_tracer");
	events = setting_read(inst, "set_event");
	on = setting_read(inst, "tracing_on");
	s = xasprintf("%s%s%s%s%s", tracer && strcmp(tracer, "nop") ? "current_tracer=" : "",
		      tracer && strcmp(tracer, "nop") ? tracer : "",
		      events && events[0] ? (tracer && strcmp(tracer, "nop") ? ", set_event=" : "set_event=") : "",
		      events ? events : "", on && !strcmp(on, "0") ? ", tracing_on=0" : "");
	free(tracer);
	free(on);
	free(events);
	tracefs_instance_free(inst);
	events = active_shown(s[0] == ',' ? s + 2 : s);
	free(s);
	return events;
}

/* list_instances - every instance: the user's, and the runs of ours still there */
static int list_instances(active_fn fn, void *arg)
{
	char **list = tracefs_instances(NULL), tool[32];
	unsigned long long start;
	int i, pid, n = 0;

	for (i = 0; list && list[i]; i++) {
		if (!reaper_parse_owner(list[i], '-', tool, sizeof(tool), &pid, &start)) {
			int live = !reaper_run_is_dead(pid, start);

			n += emit(fn, arg, "instance", list[i], NULL, tool, pid, live,
				  live ? "a live run; left alone" : "its run ended; it could not be removed");
		} else {
			char *what = inst_summary(list[i]);

			n += emit(fn, arg, "instance", list[i], what[0] ? what : NULL, NULL, 0, 0,
				  "not this suite's; left alone");
			free(what);
		}
	}
	tracefs_list_free(list);
	return n;
}

/* list_journals - the journals still in JOURNAL_DIR */
static int list_journals(active_fn fn, void *arg)
{
	unsigned long long start;
	struct dirent *d;
	char tool[32], path[300];
	DIR *dir = opendir(JOURNAL_DIR);
	int pid, n = 0, live;

	while (dir && (d = readdir(dir))) {
		size_t len = strlen(d->d_name);

		snprintf(path, sizeof(path), "%s/%s", JOURNAL_DIR, d->d_name);
		if (len > 4 && !strcmp(d->d_name + len - 4, ".bad")) {
			n += emit(fn, arg, "journal", path, NULL, NULL, 0, 0,
				  "not a journal this suite wrote; kept aside, nothing of it written back");
			continue;
		}
		if (active_journal_owner(d->d_name, tool, sizeof(tool), &pid, &start))
			continue;
		live = !reaper_run_is_dead(pid, start);
		n += emit(fn, arg, "journal", path, NULL, tool, pid, live,
			  live ? "a live run's top-level settings, put back when it ends"
			       : "its run ended; put back once the lock is free");
	}
	if (dir)
		closedir(dir);
	return n;
}

/* the top-level files listed when not at their default */
static const struct {
	const char *file, *def;
} top[] = {
	{ "current_tracer", "nop" },
	{ "tracing_on", "1" },
	{ "set_event", "" },
	{ "set_event_pid", "" },
	{ "set_event_notrace_pid", "" },
	{ "set_ftrace_filter", "" },
	{ "set_ftrace_notrace", "" },
	{ "set_graph_function", "" },
	{ "set_graph_notrace", "" },
	{ "set_ftrace_pid", "" },
	{ "set_ftrace_notrace_pid", "" },
	{ "tracing_thresh", "0" },
	{ "max_graph_depth", "0" },
	{ "function_profile_enabled", "0" },
};

/* active_list - see active.h */
int active_list(active_fn fn, void *arg)
{
	struct lefts l = { 0 };
	size_t i;
	int n = 0, pid, j;

	live_lefts(&l);
	for (i = 0; i < sizeof(top) / sizeof(*top); i++) {
		const char *tool = NULL;
		char *now, *s;
		int who = 0;

		if (!tracefs_file_exists(NULL, top[i].file) ||
		    !(now = setting_read(NULL, top[i].file)))
			continue;
		if (!setting_same(top[i].file, now, top[i].def)) {
			for (j = 0; j < l.n && !tool; j++)
				if (!strcmp(l.v[j].file, top[i].file) &&
				    setting_same(top[i].file, now, l.v[j].value)) {
					tool = l.v[j].tool;
					who = l.v[j].pid;
				}
			s = active_shown(now);
			n += emit(fn, arg, "setting", top[i].file, s, tool, who, tool != NULL,
				  tool ? "a live run's; left alone" : NULL);
			free(s);
		}
		free(now);
	}
	n += list_dynamic("kprobe_events", fn, arg);
	n += list_dynamic("uprobe_events", fn, arg);
	n += list_dynamic("synthetic_events", fn, arg);
	n += list_dynamic("dynamic_events", fn, arg);
	n += list_events(fn, arg);
	if (active_perf_lock(&pid))
		n += emit(fn, arg, "lock", ACTIVE_PERF_LOCK, NULL, NULL, pid, active_pid_runs(pid),
			  "perf-tools' lock; -f removes it");
	n += list_instances(fn, arg);
	n += list_journals(fn, arg);
	for (j = 0; j < l.n; j++)
		free(l.v[j].value);
	free(l.v);
	return n;
}

/* active_shown - see active.h */
char *active_shown(const char *text)
{
	size_t n = strlen(text), i, o = 0;
	char *s = xmalloc(ACTIVE_SHOWN_MAX + 48);
	int lines = 1;

	while (n && text[n - 1] == '\n')
		n--;
	for (i = 0; i < n; i++)
		lines += text[i] == '\n';
	for (i = 0; i < n && o < ACTIVE_SHOWN_MAX; i++)
		s[o++] = text[i] == '\n' || text[i] == '\t' ? ' ' : text[i];
	if (i < n)
		o += sprintf(s + o, " ... (%d lines)", lines);
	s[o] = '\0';
	return s;
}

/* active_owner_of - see active.h */
int active_owner_of(const char *name, char *tool, size_t tlen, int *pid,
		    unsigned long long *start, char *key, size_t len)
{
	const char *ev = strchr(name, '/');

	if (!reaper_parse_owner(name, '_', tool, tlen, pid, start)) {
		snprintf(key, len, "%.*s", ev ? (int)(ev - name) : (int)strlen(name), name);
		return 0;
	}
	if (ev && !reaper_parse_owner(ev + 1, '_', tool, tlen, pid, start)) {
		snprintf(key, len, "%s", ev + 1);
		return 0;
	}
	return -1;
}

/* active_dyn_name - see active.h */
const char *active_dyn_name(const char *line, char *buf, size_t len)
{
	const char *p = strchr(line, ':'), *sp = line + strcspn(line, " \t");

	if (p && p < sp)
		line = p + 1;
	snprintf(buf, len, "%.*s", (int)strcspn(line, " \t"), line);
	return buf[0] ? buf : NULL;
}

/* active_journal_owner - see active.h */
int active_journal_owner(const char *name, char *tool, size_t len, int *pid,
			 unsigned long long *start)
{
	char full[300];

	if (strchr(name, '.') || strlen(name) > 256)
		return -1;
	snprintf(full, sizeof(full), "%s-%s", REAPER_PREFIX, name);
	if (reaper_parse_owner(full, '-', tool, len, pid, start) < 0)
		return -1;
	/* nothing after START: not a companion's name */
	return strspn(strrchr(full, '-') + 1, "0123456789") == strlen(strrchr(full, '-') + 1) ?
		0 : -1;
}

/* active_pid_runs - see active.h */
int active_pid_runs(int pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/* active_perf_lock - see active.h */
int active_perf_lock(int *pid)
{
	char buf[32];
	struct stat st;
	ssize_t n;
	int fd;

	*pid = 0;
	if (lstat(ACTIVE_PERF_LOCK, &st) < 0)
		return 0;
	/* a link or anything but a file is not followed: only its existence counts */
	fd = open(ACTIVE_PERF_LOCK, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		char *end;
		long v;

		buf[n] = '\0';
		v = strtol(buf, &end, 10);
		if (end != buf && (*end == '\n' || !*end) && v > 0 && v <= 0x7fffffff)
			*pid = (int)v;
	}
	if (fd >= 0)
		close(fd);
	return 1;
}

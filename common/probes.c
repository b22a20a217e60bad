/* SPDX-License-Identifier: GPL-2.0-only */
/* probes.c - dynamic kprobes owned by one run: unique names, always removed
 *
 * Probe definitions are global even when the events are enabled only in our
 * instance, so each run defines its probes in its own group (ftt_TOOL_PID), keeps
 * the handle, and removes exactly those probes on exit. Other users' probes are
 * never listed for removal.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errlog.h"
#include "global.h"
#include "msg.h"
#include "options.h"
#include "probes.h"
#include "session.h"
#include "setting.h"
#include "undo.h"
#include "xalloc.h"

/* probe_name_ok - a probe/event name the kernel accepts */
int probe_name_ok(const char *name)
{
	return opt_is_ident(name) && strlen(name) < 64;
}

/* names of the probes this run created, sorted, for probes_hits */
static char **own_names;
static size_t nr_own, cap_own;

/* cmp_name - strcmp order for the name tables */
static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* remember_name - add a created probe's name to own_names, keeping it sorted */
static void remember_name(const char *name)
{
	size_t i;

	if (nr_own == cap_own) {
		cap_own = cap_own ? cap_own * 2 : 64;
		own_names = xreallocarray(own_names, cap_own, sizeof(*own_names));
	}
	for (i = nr_own; i > 0 && strcmp(own_names[i - 1], name) > 0; i--)
		own_names[i] = own_names[i - 1];
	own_names[i] = xstrdup(name);
	nr_own++;
}

/* probes_profile_line - see probes.h */
int probes_profile_line(const char *line, char *name, size_t len, unsigned long long *hits,
			unsigned long long *missed)
{
	char word[160];

	/* "  [GROUP/]EVENT   HITS   MISSED" (the group is shown on newer kernels) */
	if (sscanf(line, " %159s %llu %llu", word, hits, missed) != 3)
		return -1;
	snprintf(name, len, "%s", word);
	return 0;
}

/* probes_hits - per-probe hit counts of this run's probes, from kprobe_profile */
int probes_hits(struct session *s,
		void (*fn)(const char *event, unsigned long long hits, unsigned long long missed,
			   void *ctx), void *ctx)
{
	char *text = global_read("kprobe_profile"), *line, *save = NULL;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[160], *ev;
		unsigned long long hits, missed;

		if (probes_profile_line(line, name, sizeof(name), &hits, &missed) < 0)
			continue;
		ev = strchr(name, '/');
		if (ev) {
			*ev++ = '\0';
			if (strcmp(name, s->group))
				continue;
		} else {
			ev = name;
		}
		if (bsearch(&ev, own_names, nr_own, sizeof(*own_names), cmp_name))
			fn(ev, hits, missed, ctx);
	}
	free(text);
	return 0;
}

/* probes_profiler_hits - the function profiler's per-CPU counts */
int probes_profiler_hits(void (*fn)(const char *func, unsigned long long hits, void *ctx),
			 void *ctx)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), cpu;
	int nread = 0;

	for (cpu = 0; cpu < ncpu; cpu++) {
		char path[64], *text, *line, *save = NULL;

		snprintf(path, sizeof(path), "trace_stat/function%ld", cpu);
		text = global_read(path);
		if (!text)
			continue;
		nread++;
		/* "  Function   Hit   Time   Avg   s^2", a "----" line, then rows */
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char name[160];
			unsigned long long hits;

			if (sscanf(line, " %159s %llu", name, &hits) == 2)
				fn(name, hits, ctx);
		}
		free(text);
	}
	return nread ? 0 : -1;
}

/* probes_profiler_find - see probes.h */
int probes_profiler_find(char *const *list, int n, const char *name)
{
	int lo = 0, hi = n, mid;

	if (strlen(name) > PROBES_PROFILER_NAME)
		return -1;
	/* sorted by whole name, so sorted by cut too: the first with this cut */
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (strncmp(list[mid], name, PROBES_PROFILER_NAME) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strncmp(list[lo], name, PROBES_PROFILER_NAME) ? lo : -1;
}

/* probes_profiler_label - see probes.h */
void probes_profiler_label(char *const *list, int n, int i, char *buf, size_t len)
{
	/* sorted: the functions with the same cut are next to each other */
	if ((i > 0 && !strncmp(list[i - 1], list[i], PROBES_PROFILER_NAME)) ||
	    (i + 1 < n && !strncmp(list[i + 1], list[i], PROBES_PROFILER_NAME)))
		snprintf(buf, len, "%.*s*", PROBES_PROFILER_NAME, list[i]);
	else
		snprintf(buf, len, "%s", list[i]);
}

/* probes_function_exists - is NAME a line ("NAME" or "NAME [module]") of the list */
int probes_function_exists(const char *name)
{
	static char *text;
	size_t n = strlen(name);
	const char *p;

	if (!text)
		text = global_read("available_filter_functions");
	if (!text || !n)
		return 0;
	for (p = text; (p = strstr(p, name)); p += n)
		if ((p == text || p[-1] == '\n') && strchr(" \n", p[n]))
			return 1;
	return 0;
}

/* probes_funcs - traceable kernel functions matching the globs, sorted, unique */
int probes_funcs(const char *globs, char ***list)
{
	char *text = global_read("available_filter_functions"), *line, *save = NULL;
	char *pats = strdup(globs), *pat[64], *p, *psave = NULL, **v;
	size_t n = 0, cap = 256, np = 0, i, j;

	if (!text || !pats) {
		free(text);
		free(pats);
		return -1;
	}
	for (p = strtok_r(pats, " \t", &psave); p && np < 64; p = strtok_r(NULL, " \t", &psave))
		pat[np++] = p;
	v = xreallocarray(NULL, cap, sizeof(*v));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, " \t")] = '\0';	/* "func [module]" */
		for (i = 0; i < np && fnmatch(pat[i], line, 0); i++)
			;
		if (i == np)
			continue;
		if (n + 1 == cap) {
			cap *= 2;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[n++] = xstrdup(line);
	}
	free(text);
	free(pats);
	qsort(v, n, sizeof(*v), cmp_name);
	for (i = j = 0; i < n; i++) {
		if (j && !strcmp(v[j - 1], v[i]))
			free(v[i]);
		else
			v[j++] = v[i];
	}
	v[j] = NULL;
	*list = v;
	return (int)j;
}

/* probes_list_holds - see probes.h */
int probes_list_holds(struct tracefs_instance *inst, const char *file, char **list, int n)
{
	char *now = setting_read(inst, file);
	int same = now && setting_holds(now, list, n);

	free(now);
	return same ? 0 : -1;
}

/* probes_funcs_free - free a list from probes_funcs */
void probes_funcs_free(char **list)
{
	size_t i;

	for (i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

/* this run's kprobes, removed together by one undo action (newest first) */
static struct tracefs_dynevent **own_evs;
static size_t nr_evs, cap_evs;

/* probes_mark - how many probes this run holds, for probes_unwind */
size_t probes_mark(void)
{
	return nr_evs;
}

/*
 * probes_unwind - remove the probes made since probes_mark returned mark,
 * newest first. Once the run's instances have their events off
 * (session_events_off) a plain delete works; only if a probe is still
 * enabled somewhere else is it disabled everywhere first, a walk of every
 * event directory of every instance (seconds for a reader starved of CPU by
 * the flood it traces)
 */
void probes_unwind(size_t mark)
{
	struct tracefs_dynevent *ev;

	while (nr_evs > mark) {
		ev = own_evs[--nr_evs];
		if (tracefs_dynevent_destroy(ev, false) < 0 &&
		    tracefs_dynevent_destroy(ev, true) < 0)
			msg_warn("could not remove a probe of this run:");
		tracefs_dynevent_free(ev);
	}
}

/* remove_probes - undo action: delete every probe of this run */
static void remove_probes(void *arg)
{
	(void)arg;
	session_events_off();
	probes_unwind(0);
}

/*
 * probe_create - create an allocated probe; on success it is kept for
 * removal, and the first one arms the undo action
 */
static void probe_keep(struct tracefs_dynevent *ev, const char *name);

static int probe_create(struct tracefs_dynevent *ev, const char *name)
{
	if (!ev)
		return -1;
	errlog_mark(NULL);	/* a refusal is logged at the top level: the user's log */
	if (tracefs_dynevent_create(ev) < 0) {
		int err = errno;

		tracefs_dynevent_free(ev);
		errno = err;
		return -1;
	}
	probe_keep(ev, name);
	return 0;
}

/*
 * probe_create_max - a kretprobe with maxactive instances, defined here:
 * libtracefs 1.6.4 writes it "rN::GROUP/EVENT", which the kernel refuses.
 * Then taken as the library's object, kept for removal like the others.
 */
static int probe_create_max(struct session *s, const char *name, const char *addr,
			    const char *fetchargs, unsigned int maxactive)
{
	struct tracefs_dynevent *ev;
	char *def;
	int rc;

	if (strpbrk(addr, "\n\r") || (fetchargs && strpbrk(fetchargs, "\n\r"))) {
		errno = EINVAL;
		return -1;
	}
	def = xasprintf("r%u:%s/%s %s%s%s\n", maxactive, s->group, name, addr,
			fetchargs ? " " : "", fetchargs ? fetchargs : "");
	errlog_mark(NULL);
	rc = tracefs_instance_file_append(NULL, "kprobe_events", def);
	free(def);
	if (rc < 0)
		return -1;
	ev = tracefs_dynevent_get(TRACEFS_DYNEVENT_KRETPROBE, s->group, name);
	if (!ev) {
		def = xasprintf("-:%s/%s\n", s->group, name);
		tracefs_instance_file_append(NULL, "kprobe_events", def);
		free(def);
		errno = ENOENT;
		return -1;
	}
	probe_keep(ev, name);
	return 0;
}

/* probe_keep - a probe made: kept for removal; the first one arms the undo action */
static void probe_keep(struct tracefs_dynevent *ev, const char *name)
{
	if (!cap_evs)
		undo_defer(remove_probes, NULL);
	if (nr_evs == cap_evs) {
		cap_evs = cap_evs ? cap_evs * 2 : 64;
		own_evs = xreallocarray(own_evs, cap_evs, sizeof(*own_evs));
	}
	own_evs[nr_evs++] = ev;
	remember_name(name);
}

/* probe_add - define a kprobe or kretprobe in the session's group */
int probe_add(struct session *s, const char *name, int ret, const char *addr,
	      const char *fetchargs)
{
	if (ret)
		return probe_add_ret(s, name, addr, fetchargs, 0);
	if (!probe_name_ok(name))
		return -1;
	return probe_create(tracefs_kprobe_alloc(s->group, name, addr, fetchargs), name);
}

/* probe_add_ret - a kretprobe with `maxactive` instances (0: the kernel's default) */
int probe_add_ret(struct session *s, const char *name, const char *addr, const char *fetchargs,
		  unsigned int maxactive)
{
	if (!probe_name_ok(name))
		return -1;
	if (maxactive)
		return probe_create_max(s, name, addr, fetchargs, maxactive);
	return probe_create(tracefs_kretprobe_alloc(s->group, name, addr, fetchargs, 0), name);
}

/* probe_add_eprobe - define an event probe on a tracepoint in the session's group */
int probe_add_eprobe(struct session *s, const char *name, const char *sys, const char *event,
		     const char *fetchargs)
{
	if (!probe_name_ok(name) || !opt_is_ident(sys) || !opt_is_ident(event))
		return -1;
	return probe_create(tracefs_eprobe_alloc(s->group, name, sys, event, fetchargs), name);
}

/* path_ok - a file name that can go into a probe definition as one word */
static int path_ok(const char *p)
{
	if (*p != '/' || strlen(p) >= 1024)
		return 0;
	for (; *p; p++)
		if (!(isalnum((unsigned char)*p) || strchr("/._+-", *p)))
			return 0;
	return 1;
}

/* probe_add_uprobe - define a uprobe at FILE:OFFSET in the session's group */
int probe_add_uprobe(struct session *s, const char *name, const char *file,
		     unsigned long long offset, const char *fetchargs)
{
	if (!probe_name_ok(name) || !path_ok(file))
		return -1;
	return probe_create(tracefs_uprobe_alloc(s->group, name, file, offset, fetchargs), name);
}

/* probe_add_uretprobe - a return uprobe at FILE:OFFSET in the session's group */
int probe_add_uretprobe(struct session *s, const char *name, const char *file,
			unsigned long long offset, const char *fetchargs)
{
	if (!probe_name_ok(name) || !path_ok(file))
		return -1;
	return probe_create(tracefs_uretprobe_alloc(s->group, name, file, offset, fetchargs), name);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* leftover.c - what dead runs of this suite left in tracefs, removed and named
 *
 * Leftovers of runs of this suite that are gone are the reaper's (reaper.c):
 * what it removed is found by listing the runs' instances, probe groups and
 * journals before and after, and each is named once, as reset-ftrace(8)
 * shows it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "active.h"
#include "journal.h"
#include "leftover.h"
#include "reaper.h"
#include "xalloc.h"

/* a set of names */
struct names {
	char **v;
	int n, cap;
};

static int names_has(const struct names *s, const char *name)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], name))
			return 1;
	return 0;
}

static void names_add(struct names *s, const char *name)
{
	if (names_has(s, name))
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
	}
	s->v[s->n++] = xstrdup(name);
}

static void names_free(struct names *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/*
 * leftovers - the names of what runs of this suite made and left: instances,
 * probe groups (or synthetic events) and journals; with GONE only those of
 * runs that are gone
 */
static void leftovers(struct names *inst, struct names *groups, struct names *jour, int gone)
{
	static const char *const files[] = { "kprobe_events", "uprobe_events", "dynamic_events",
					     "synthetic_events" };
	char **list = tracefs_instances(NULL), tool[32], key[256], buf[256];
	unsigned long long start;
	struct dirent *d;
	size_t f;
	DIR *dir;
	int i, pid;

	for (i = 0; list && list[i]; i++)
		if (!reaper_parse_owner(list[i], '-', tool, sizeof(tool), &pid, &start) &&
		    (!gone || reaper_run_is_dead(pid, start)))
			names_add(inst, list[i]);
	tracefs_list_free(list);
	for (f = 0; f < sizeof(files) / sizeof(*files); f++) {
		char *text, *line, *save = NULL;

		if (!tracefs_file_exists(NULL, files[f]) ||
		    !(text = tracefs_instance_file_read(NULL, files[f], NULL)))
			continue;
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (active_dyn_name(line, buf, sizeof(buf)) &&
			    !active_owner_of(buf, tool, sizeof(tool), &pid, &start, key,
					     sizeof(key)) &&
			    (!gone || reaper_run_is_dead(pid, start)))
				names_add(groups, key);
		free(text);
	}
	dir = opendir(JOURNAL_DIR);
	while (dir && (d = readdir(dir)))
		if (!active_journal_owner(d->d_name, tool, sizeof(tool), &pid, &start) &&
		    (!gone || reaper_run_is_dead(pid, start)))
			names_add(jour, d->d_name);
	if (dir)
		closedir(dir);
}

/* gone_items - fn for each name of BEFORE that AFTER no longer has */
static void gone_items(const struct names *before, const struct names *after, const char *kind,
		       char sep, active_fn fn, void *arg)
{
	char tool[32], path[300];
	unsigned long long start;
	int i, pid;

	for (i = 0; i < before->n; i++) {
		struct active_item it = { .action = "removed", .kind = kind, .name = before->v[i] };

		if (names_has(after, before->v[i]))
			continue;
		if (sep == 'j') {
			active_journal_owner(before->v[i], tool, sizeof(tool), &pid, &start);
			snprintf(path, sizeof(path), "%s/%s", JOURNAL_DIR, before->v[i]);
			it.name = path;
			it.note = "its top-level settings put back";
		} else if (sep == '_') {
			active_owner_of(before->v[i], tool, sizeof(tool), &pid, &start, path,
					sizeof(path));
		} else {
			reaper_parse_owner(before->v[i], sep, tool, sizeof(tool), &pid, &start);
		}
		it.tool = tool;
		it.pid = pid;
		fn(&it, arg);
	}
}

/* leftover_reap - see leftover.h */
void leftover_reap(active_fn fn, void *arg)
{
	struct names bi = { 0 }, bg = { 0 }, bj = { 0 }, ai = { 0 }, ag = { 0 }, aj = { 0 };

	leftovers(&bi, &bg, &bj, 1);
	reaper_reap();
	leftovers(&ai, &ag, &aj, 0);
	/* journals first: the reaper puts their settings back first */
	gone_items(&bj, &aj, "journal", 'j', fn, arg);
	gone_items(&bi, &ai, "instance", '-', fn, arg);
	gone_items(&bg, &ag, "probes", '_', fn, arg);
	names_free(&bi);
	names_free(&bg);
	names_free(&bj);
	names_free(&ai);
	names_free(&ag);
	names_free(&aj);
}

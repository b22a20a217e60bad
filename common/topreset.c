/* SPDX-License-Identifier: GPL-2.0-only */
/* topreset.c - the top level of tracefs reset as perf-tools' reset-ftrace did
 *
 * reset-ftrace -f. The top level is everyone's: it is reset only in the
 * files perf-tools' reset-ftrace wrote, each only if it is not at its value
 * already, kprobes one by one so that a live run's stay. An instance is
 * never touched here. Each change is named with what the file held before
 * and holds after; a write the kernel refused is warned with its reason.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "active.h"
#include "errlog.h"
#include "msg.h"
#include "reaper.h"
#include "setting.h"
#include "topreset.h"
#include "xalloc.h"

static int failed;

/* reset_file - write WANT to the top-level FILE unless it holds it already */
static void reset_file(const char *file, const char *want, active_fn fn, void *arg)
{
	char *was, *now, *set_event = NULL, *sw, *sn, *sv = NULL;

	if (!tracefs_file_exists(NULL, file) || !(was = setting_read(NULL, file)))
		return;
	if (setting_same(file, was, want)) {
		free(was);
		return;
	}
	if (!strcmp(file, "events/enable"))
		set_event = setting_read(NULL, "set_event");
	errlog_mark(NULL);
	if (setting_write(NULL, file, want) < 0) {
		errlog_warn(NULL, "cannot reset %s", file);
		failed = 1;
	}
	now = setting_read(NULL, file);
	/* a function list keeps its triggers ("FUNC:CMD[:COUNT]"): each taken out */
	if (now && setting_is_list(file) && strchr(now, ':')) {
		char *line, *save = NULL, *copy = xstrdup(now);

		for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *cmd, *last;

			if (!strchr(line, ':'))
				continue;
			last = strrchr(line, ':');
			if (last != strchr(line, ':') &&
			    (!strcmp(last + 1, "unlimited") || strspn(last + 1, "0123456789") == strlen(last + 1)))
				*last = '\0';
			cmd = xasprintf("!%s\n", line);
			errlog_mark(NULL);
			if (tracefs_instance_file_append(NULL, file, cmd) < 0) {
				errlog_warn(NULL, "cannot remove %s from %s", line, file);
				failed = 1;
			}
			free(cmd);
		}
		free(copy);
		free(now);
		now = setting_read(NULL, file);
	}
	if (!now || !setting_same(file, now, want)) {
		sn = active_shown(now ? now : "");
		msg_warn("%s still holds \"%s\" after the reset", file, sn);
		free(sn);
		failed = 1;
	}
	if (set_event && set_event[0])
		sv = active_shown(set_event);
	sw = active_shown(was);
	sn = active_shown(now ? now : "");
	{
		struct active_item it = { .action = "reset", .kind = "setting", .name = file,
					  .value = sn, .was = sw, .note = sv };
		fn(&it, arg);
	}
	free(sv);
	free(sw);
	free(sn);
	free(set_event);
	free(was);
	free(now);
}

/* reset_kprobes - every kprobe removed, one by one, but those of live runs of ours */
static void reset_kprobes(active_fn fn, void *arg)
{
	char *text, *line, *save = NULL, name[256], tool[32], key[256];
	unsigned long long start;
	int pid;

	if (!tracefs_file_exists(NULL, "kprobe_events") ||
	    !(text = tracefs_instance_file_read(NULL, "kprobe_events", NULL)))
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct active_item it = { .action = "removed", .kind = "kprobe", .name = name,
					  .value = line };
		char *cmd;

		if (!active_dyn_name(line, name, sizeof(name)))
			continue;
		if (!active_owner_of(name, tool, sizeof(tool), &pid, &start, key, sizeof(key)) &&
		    !reaper_run_is_dead(pid, start))
			continue;	/* a live run's */
		cmd = xasprintf("-:%s\n", name);
		errlog_mark(NULL);
		if (tracefs_instance_file_append(NULL, "kprobe_events", cmd) < 0) {
			errlog_warn(NULL, "cannot remove kprobe %s", name);
			failed = 1;
		} else {
			fn(&it, arg);
		}
		free(cmd);
	}
	free(text);
}

/* topreset_run - see topreset.h */
int topreset_run(active_fn fn, void *arg)
{
	int pid;

	failed = 0;
	reset_file("current_tracer", "nop", fn, arg);
	reset_file("set_ftrace_filter", "", fn, arg);
	reset_file("set_graph_function", "", fn, arg);
	reset_file("set_ftrace_pid", "", fn, arg);
	reset_file("events/enable", "0", fn, arg);
	reset_file("tracing_thresh", "0", fn, arg);
	reset_kprobes(fn, arg);
	reset_file("tracing_on", "1", fn, arg);
	if (active_perf_lock(&pid)) {
		struct active_item it = { .action = "removed", .kind = "lock",
					  .name = ACTIVE_PERF_LOCK, .pid = pid,
					  .running = active_pid_runs(pid) };

		if (unlink(ACTIVE_PERF_LOCK) < 0 && errno != ENOENT) {
			msg_warn("cannot remove %s:", ACTIVE_PERF_LOCK);
			failed = 1;
		} else {
			fn(&it, arg);
		}
	}
	return failed ? -1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* global.c - top-level tracefs settings a run changes, saved and put back
 *
 * Some things the kernel does only at the top level of tracefs, which is
 * everyone's: the function profiler, function_graph on kernels without it in
 * instances, the function filters. A run that changes such a file reads its
 * content first, once, keeps it in memory and in the run's journal
 * (journal.c), and pushes an undo action that writes it back at exit; a run
 * killed before that has it written back by the next run (reaper.c). One run
 * at a time changes top-level settings: the first change takes the journal's
 * lock, and a dead run's settings are put back under it before any change.
 * Costs a read and a journal write per file changed, at setup only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "global.h"
#include "journal.h"
#include "msg.h"
#include "reaper.h"
#include "undo.h"
#include "xalloc.h"

#define MAX_GLOBAL 24

/* a top-level file this run changed, and the content to put back */
struct global_saved {
	char file[64];
	char *content;
};

static struct global_saved globals[MAX_GLOBAL];
static int nr_globals;
static char owner[32];	/* the tool the lock and the journal name; "": msg_prog */

/* global_owner - name the tool this run is (the session's) */
void global_owner(const char *tool)
{
	snprintf(owner, sizeof(owner), "%s", tool);
}

/* global_read - a top-level file's content without '#' comment lines (trace_clock: the clock in use) */
char *global_read(const char *file)
{
	char *path = tracefs_get_tracing_file(file), *text = NULL, *line, *save = NULL, *res;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd, err;

	fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	err = errno;
	tracefs_put_tracing_file(path);
	if (fd < 0) {
		errno = err;
		return NULL;
	}
	do {
		if (cap - len < 4096) {
			cap += 65536;
			text = xrealloc(text, cap);
		}
		n = read(fd, text + len, cap - len - 1);
		if (n > 0)
			len += n;
	} while (n > 0);
	err = errno;
	close(fd);
	if (n < 0) {
		free(text);
		errno = err;
		return NULL;
	}
	text[len] = '\0';
	res = xcalloc(1, len + 1);
	len = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* "#### all functions enabled ####", "no pid": the empty state */
		if (line[0] == '#' || !strcmp(line, "no pid"))
			continue;
		len += sprintf(res + len, "%s%s", len ? "\n" : "", line);
	}
	free(text);
	/* trace_clock lists every clock, the one in use in brackets: that one */
	if (!strcmp(file, "trace_clock") && (line = strchr(res, '[')) && strchr(line, ']')) {
		len = strcspn(line + 1, "]");
		memmove(res, line + 1, len);
		res[len] = '\0';
	}
	return res;
}

/* restore_global - undo action: put a saved top-level file back as it was */
static void restore_global(void *arg)
{
	struct global_saved *g = arg;

	if (tracefs_instance_file_write(NULL, g->file, g->content) < 0)
		msg_warn("could not restore %s to its previous value:", g->file);
}

/*
 * global_lock - make this run the one that changes top-level settings
 * (journal_lock), putting back first what a dead run left; another run holding
 * it: one line naming it, exit 1
 */
static void global_lock(void)
{
	static int held;
	char holder[64];

	if (held)
		return;
	if (journal_lock(owner[0] ? owner : msg_prog, holder, sizeof(holder)) < 0) {
		if (errno == EWOULDBLOCK)
			msg_die(EXIT_ERR, "another run changes top-level tracing settings now: %s; "
				"one at a time", holder[0] ? holder : "unknown");
		msg_die(EXIT_ERR, "cannot lock %s/lock (top-level tracing settings):", JOURNAL_DIR);
	}
	/* a run that died since the start left settings: back first, under the lock */
	journal_reap(reaper_run_is_dead);
	held = 1;
}

/* global_save - first change of a top-level file: its content saved (memory and
 * journal) and put back at exit; nothing if saved already. -1 with errno */
static int global_save(const char *file)
{
	struct global_saved *g;
	char *old;
	int i;

	for (i = 0; i < nr_globals; i++)
		if (!strcmp(globals[i].file, file))
			return 0;	/* saved already: the first content wins */
	if (nr_globals == MAX_GLOBAL)
		msg_die(EXIT_ERR, "internal: too many global settings");
	old = global_read(file);
	if (!old)
		return -1;
	if (!strncmp(file, "set_", 4) && strchr(old, ':')) {
		free(old);
		errno = EBUSY;
		return -1;
	}
	/* on disk too, for the run after a SIGKILL (best effort) */
	journal_note(owner[0] ? owner : msg_prog, file, old);
	g = &globals[nr_globals++];
	snprintf(g->file, sizeof(g->file), "%s", file);
	g->content = old;
	undo_defer(restore_global, g);
	return 0;
}

/* global_tracer_free - see global.h */
void global_tracer_free(const char *why)
{
	char *cur;

	global_lock();	/* no other run of ours: a tracer on now is someone else's */
	cur = global_read("current_tracer");
	if (!cur || strcmp(cur, "nop"))
		msg_die(EXIT_ERR, "the top-level tracer is in use (current_tracer=%s); %s",
			cur ? cur : "unreadable", why);
	free(cur);
}

/* global_write - write a top-level file, restoring its saved content at exit */
int global_write(const char *file, const char *value, int restore)
{
	global_lock();	/* one run at a time at the top level */
	if (restore && global_save(file) < 0)
		return -1;
	return tracefs_instance_file_write(NULL, file, value) < 0 ? -1 : 0;
}

/* global_append - append to a top-level file, restoring its saved content at exit */
int global_append(const char *file, const char *value)
{
	global_lock();
	if (global_save(file) < 0)
		return -1;
	return tracefs_instance_file_append(NULL, file, value) < 0 ? -1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* global.c - top-level tracefs settings a run changes, saved and put back
 *
 * Some things the kernel does only at the top level of tracefs, which is
 * everyone's: the function profiler, function_graph on kernels without it in
 * instances, the function filters. A run that changes such a file reads its
 * content first, once, keeps it in memory and in the run's journal
 * (journal.c) with each value it writes, and pushes an undo action that writes
 * it back (a function list one entry per write, setting.c) and reads it back
 * to check, at exit; a run
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
#include "setting.h"
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

/* global_read - a top-level file's content as setting_read gives it */
char *global_read(const char *file)
{
	return setting_read(NULL, file);
}

/* restore_global - undo action: put a saved top-level file back as it was */
static void restore_global(void *arg)
{
	struct global_saved *g = arg;
	char *now;

	if (setting_write(NULL, g->file, g->content) < 0) {
		msg_warn("could not restore %s to its previous value:", g->file);
		return;
	}
	if (!strcmp(g->file, "trace"))
		return;
	/* read back: what the kernel holds must be what was there */
	now = global_read(g->file);
	if (!now || !setting_same(g->file, now, g->content))
		msg_warn("could not restore %s exactly: it held \"%s\", it holds \"%s\"",
			 g->file, g->content, now ? now : "(unreadable)");
	free(now);
}

/* left - journal the value a file holds now, as the kernel shows it (not of
 * the trace buffer: its records are not a setting) */
static void left(const char *file)
{
	char *now;

	if (!strcmp(file, "trace"))
		return;
	now = global_read(file);
	if (now)
		journal_left(owner[0] ? owner : msg_prog, file, now);
	free(now);
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
	int rc, err;

	global_lock();	/* one run at a time at the top level */
	if (restore && global_save(file) < 0)
		return -1;
	/* journaled before and after: the reaper puts back only what holds these */
	journal_left(owner[0] ? owner : msg_prog, file, value);
	rc = setting_write(NULL, file, value);
	err = errno;
	left(file);
	errno = err;
	return rc;
}

/* global_expect - see global.h */
void global_expect(const char *file, const char *value)
{
	journal_left(owner[0] ? owner : msg_prog, file, value);
}

/* global_append - append to a top-level file, restoring its saved content at exit */
int global_append(const char *file, const char *value)
{
	int rc, err;

	global_lock();
	if (global_save(file) < 0)
		return -1;
	rc = tracefs_instance_file_append(NULL, file, value) < 0 ? -1 : 0;
	err = errno;
	left(file);
	errno = err;
	return rc;
}

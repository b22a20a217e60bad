/* SPDX-License-Identifier: GPL-2.0-only */
/* reset-ftrace - show what is active in ftrace, remove what dead runs left, reset with -f
 *
 * Without -f: what runs of this suite that are gone left behind (instances,
 * probe groups, journals) is removed and named (reaper.c), and everything
 * else active is listed, one line each, for the user to decide: the top
 * level's settings that are not the kernel's defaults, dynamic events,
 * event filters and triggers, perf-tools' lock file, instances. With -f the
 * top level is also reset as perf-tools' reset-ftrace did, under the suite's
 * lock so that no live run of ours is changed under it; instances are never
 * touched, but dead runs of ours. Costs a few thousand small tracefs reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "active.h"
#include "clock.h"
#include "journal.h"
#include "leftover.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "session.h"
#include "topreset.h"

static const char usage_text[] =
"USAGE: reset-ftrace [-fhjq]\n"
"                 -f              # force: reset the top level, remove the lock file\n"
"                 -j              # JSON Lines, one object per item (also --json)\n"
"                 -q              # quiet: say nothing\n"
"                 -h              # this usage message\n"
"  eg,\n"
"       reset-ftrace              # remove dead runs' leftovers, list what is active\n"
"       reset-ftrace -f           # also reset the top level of ftrace\n"
"\n";

struct opts {
	int force, quiet;
};

static struct opts o;
static int shown;	/* lines printed */

/* parse - options only; no arguments */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = opt_next(argc, argv, "fhjq", NULL, usage_text)) != -1) {
		switch (c) {
		case 'f': o.force = 1; break;
		case 'q': o.quiet = 1; break;
		}
	}
	if (optind < argc)
		opt_usage("unexpected argument '%.40s'", argv[optind]);
}

/* on_item - one line: "ACTION KIND NAME: VALUE (TOOL PID N, running; NOTE)" */
static void on_item(const struct active_item *it, void *arg)
{
	static struct line line;
	int paren = 0;

	(void)arg;
	if (o.quiet)
		return;
	line_begin(&line, clock_ns());
	col_str(&line, "action", it->action, ALIGN_LEFT, 8, -1);
	line_add(&line, " ");
	col_str(&line, "kind", it->kind, ALIGN_LEFT, 0, -1);
	line_add(&line, " ");
	col_str(&line, "name", it->name, ALIGN_LEFT, 0, -1);
	if (it->was) {
		line_add(&line, ": ");
		col_str(&line, "was", it->was, ALIGN_LEFT, 0, -1);
		if (!it->was[0])
			line_add(&line, "(empty)");
		line_add(&line, " -> ");
	} else if (it->value) {
		line_add(&line, ": ");
	}
	if (it->value) {
		col_str(&line, "value", it->value, ALIGN_LEFT, 0, -1);
		if (!it->value[0])
			line_add(&line, "(empty)");
	} else {
		col_null(&line, "value", "", ALIGN_LEFT, 0);
	}
	if (it->tool) {
		line_add(&line, " (");
		col_str(&line, "owner", it->tool, ALIGN_LEFT, 0, -1);
		line_add(&line, " PID ");
		paren = 1;
	} else {
		col_null(&line, "owner", "", ALIGN_LEFT, 0);
		if (it->pid) {
			line_add(&line, " (PID ");
			paren = 1;
		}
	}
	if (it->pid) {
		col_dec(&line, "pid", it->pid, ALIGN_LEFT, 0);
		line_add(&line, it->running ? ", running" : ", not running");
		col_bool(&line, "running", it->running, "");
	} else {
		col_null(&line, "pid", "", ALIGN_LEFT, 0);
		col_null(&line, "running", "", ALIGN_LEFT, 0);
	}
	if (it->note) {
		line_add(&line, paren ? "; " : " (");
		paren = 1;
		col_str(&line, "note", it->note, ALIGN_LEFT, 0, -1);
	} else {
		col_null(&line, "note", "", ALIGN_LEFT, 0);
	}
	if (paren)
		line_add(&line, ")");
	line_add(&line, "\n");
	line_put(&line);
	shown++;
}

int main(int argc, char **argv)
{
	char holder[64];
	int rc = 0;

	msg_init("reset-ftrace");
	parse(argc, argv);
	out_init(0);
	session_tracefs();
	if (o.force && journal_lock("reset-ftrace", holder, sizeof(holder)) < 0) {
		if (errno == EWOULDBLOCK)
			msg_die(EXIT_ERR, "-f refused: a live run of this suite changes top-level "
				"tracing settings now: %s; nothing changed",
				holder[0] ? holder : "unknown");
		msg_die(EXIT_ERR, "-f refused: cannot lock %s/lock (top-level tracing settings):",
			JOURNAL_DIR);
	}
	leftover_reap(on_item, NULL);
	if (o.force)
		rc = topreset_run(on_item, NULL);
	if (active_list(on_item, NULL) == 0 && !o.quiet && !out_json)
		printf("%s\n", shown ? "nothing else active" : "nothing active");
	fflush(stdout);
	return rc < 0 ? EXIT_ERR : EXIT_OK;
}

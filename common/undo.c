/* SPDX-License-Identifier: GPL-2.0-only */
/* undo.c - the undo stack: what a run changed, put back in reverse at exit
 *
 * Whatever a run changes in tracefs (its instance, probes, triggers, top-level
 * settings, the journal that records them) pushes the action that puts it
 * back. The session runs the stack from atexit(), so every exit path (normal
 * end, signal, error) ends the same way. Costs nothing while tracing.
 */
#include <stdlib.h>

#include "msg.h"
#include "undo.h"

#define MAX_UNDO 64

struct undo {
	void (*fn)(void *);
	void *arg;
};

static struct undo undo_stack[MAX_UNDO];
static int undo_top;

/* undo_defer - push an undo action; they run in reverse at exit */
void undo_defer(void (*fn)(void *), void *arg)
{
	if (undo_top == MAX_UNDO)
		msg_die(EXIT_ERR, "internal: undo stack full");
	undo_stack[undo_top++] = (struct undo){ fn, arg };
}

/* undo_run - run the undo stack, newest first (idempotent) */
void undo_run(void)
{
	while (undo_top > 0) {
		undo_top--;
		undo_stack[undo_top].fn(undo_stack[undo_top].arg);
	}
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* undo.h - the undo stack: what a run changed, put back in reverse at exit */
#ifndef FTT_UNDO_H
#define FTT_UNDO_H

/*
 * undo_defer - push an undo action fn(arg); they run in reverse at exit.
 * arg stays the caller's: it must live until the action has run. Dies if the
 * stack is full (a fixed number of actions per run).
 */
void undo_defer(void (*fn)(void *), void *arg);
/*
 * undo_run - run the pushed actions, newest first, each once; the stack is
 * empty after (idempotent). The session calls it from atexit (session_open).
 */
void undo_run(void);

#endif

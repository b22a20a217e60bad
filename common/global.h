/* SPDX-License-Identifier: GPL-2.0-only */
/* global.h - top-level tracefs settings a run changes, saved and put back */
#ifndef FTT_GLOBAL_H
#define FTT_GLOBAL_H

/*
 * global_owner - the tool this run is (session_open gives it): the lock holder
 * and the journal are named after it; until it is given, the message prefix
 * (msg_prog). TOOL is copied (at most 31 bytes).
 */
void global_owner(const char *tool);
/*
 * global_tracer_free - take the lock global_write takes, then make sure the
 * top-level tracer is "nop": another one is someone else's, and the run stops
 * with "the top-level tracer is in use (current_tracer=X); WHY" (exit 1)
 */
void global_tracer_free(const char *why);
/*
 * global_write - write a top-level tracefs file (global state); with
 * `restore`, its content is saved first (once per file) and written back at
 * exit. -1 with errno on failure; EBUSY if the content could not be restored
 * exactly (function triggers in a filter file).
 */
int global_write(const char *file, const char *value, int restore);
/*
 * global_append - append VALUE to the top-level FILE (no truncation: for
 * lists such as set_ftrace_pid), its first content saved and written back at
 * exit as global_write does. -1 with errno; EBUSY as global_write.
 */
int global_append(const char *file, const char *value);
/*
 * global_expect - this run will write VALUE to the top-level FILE itself
 * (saved already with global_write): journaled, so that after a SIGKILL the
 * file is still known as the run's and put back
 */
void global_expect(const char *file, const char *value);
/*
 * global_read - a top-level file's content without '#' comment lines and
 * "no pid" ("" if none), malloc'd: the caller frees it; of trace_clock, the
 * clock in use (the bracketed one). NULL with errno if unreadable.
 */
char *global_read(const char *file);

#endif

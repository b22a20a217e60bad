/* SPDX-License-Identifier: GPL-2.0-only */
/* journal.h - top-level settings a run changed, on disk until the run ends */
#ifndef FTT_JOURNAL_H
#define FTT_JOURNAL_H

#include <stddef.h>

/* where the journals live: root's, mode 0700, one file TOOL-PID-START per run */
#define JOURNAL_DIR "/run/ftt"

/*
 * journal_note - before the run TOOL (this process) changes the top-level
 * FILE, record the CONTENT to put back. The first note creates the run's
 * journal; the undo stack removes it after the settings are restored.
 * 0, or -1 if it cannot be kept (the change is still undone at a normal exit).
 */
int journal_note(const char *tool, const char *file, const char *content);
/*
 * journal_left - the run TOOL leaves VALUE in FILE (noted before the write,
 * and again as the kernel shows it after): the reaper puts FILE back only
 * while it holds one of these. 0, or -1 (no journal kept)
 */
int journal_left(const char *tool, const char *file, const char *value);
/*
 * journal_reap - for every journal whose run is gone (dead(pid, start) true;
 * start 0 in an older journal's name that has none), write its settings back
 * at the top level, newest first, each only while the file still holds a
 * value the run left there, and remove it; only under the lock
 * (journal_lock): while another run holds it, nothing
 */
void journal_reap(int (*dead)(int pid, unsigned long long start));
/*
 * journal_lock - make this run (TOOL) the one that changes top-level settings,
 * until it exits. 0 (also if held already); -1 if another run holds it, its
 * "TOOL (PID N)" then in holder[len] (empty if unknown), or on error (errno)
 */
int journal_lock(const char *tool, char *holder, size_t len);
/* journal_parse - the records of a journal's text: calls fn(file, content,
 * left) for each, in the order they were noted (left: a value the run left
 * in FILE, else the content to put back); -1 if the text is malformed or a
 * record is not one a run writes (a file not journaled, a second line in a
 * file of one value) */
int journal_parse(char *text, size_t len,
		  void (*fn)(const char *file, const char *content, int left, void *arg), void *arg);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* reaper.h - what runs that no longer exist left in tracefs, removed */
#ifndef FTT_REAPER_H
#define FTT_REAPER_H

#include <stddef.h>
#include <tracefs.h>

/*
 * prefix of every instance ("ftt-TOOL-PID-START") and probe group
 * ("ftt_TOOL_PID_START") a run makes, START the run's start time
 * (proc_start); the reaper looks at no other name
 */
#define REAPER_PREFIX "ftt"

/*
 * reaper_parse_owner - split NAME, "ftt?TOOL?PID?START..." with SEP ('-' for
 * instances, '_' for probe groups and events) as "?", into tool (at most
 * len - 1 bytes, NUL-terminated), *pid and *start. What follows START
 * (a companion's "-SUFFIX", an event's "/EVENT") is allowed; *start is 0 in
 * an older name "ftt?TOOL?PID..." that has none, or when START is followed
 * by anything else. 0, or -1 if NAME is not one a run makes (another prefix
 * or separator, no tool, a tool too long, no PID digits, a PID past int or a
 * start time past 64 bits); then tool, *pid and *start are left as they were.
 */
int reaper_parse_owner(const char *name, char sep, char *tool, size_t len, int *pid,
		       unsigned long long *start);
/*
 * reaper_run_is_dead - is the run with PID, started at START, gone: 1 if
 * no process has PID, or one started at another time has it; 0 if it lives
 * or that cannot be told (a PID <= 0, START 0 from an older name while PID
 * exists, a start time that cannot be read)
 */
int reaper_run_is_dead(int pid, unsigned long long start);
/*
 * reaper_destroy - remove the instance inst; if it stays, remove every trigger
 * in it (the ones others depend on last) and try again. inst stays the
 * caller's. 0, or -1 with errno if it could not be removed.
 */
int reaper_destroy(struct tracefs_instance *inst);
/*
 * reaper_reap - for every run that is gone: its journal's top-level settings
 * written back (journal_reap), its instances, probes, event probes and
 * synthetic events removed. What cannot be removed is left as it is.
 */
void reaper_reap(void);

#endif

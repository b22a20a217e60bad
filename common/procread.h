/* SPDX-License-Identifier: GPL-2.0-only */
/* procread.h - small reads of a live process's /proc files */
#ifndef FTT_PROCREAD_H
#define FTT_PROCREAD_H

#include <stddef.h>
#include <sys/types.h>

/*
 * For facts of a process that a trace event does not carry (its name when
 * first seen, its parent or UID). Strings a call was made with are never read
 * here: they are taken in the kernel at the call (capture.h). Every function
 * returns -1 when the read fails.
 */

/* proc_file_number - the first number of the "Key:" line of a /proc file; -1 */
long proc_file_number(const char *path, const char *key);
/* proc_status - the first number of the "Key:" line of /proc/PID/status (Uid, PPid, Tgid) */
long proc_status(int pid, const char *key);
/*
 * proc_start - when pid started, in clock ticks after boot (field 22 of
 * /proc/PID/stat): with the PID it names one process for the life of the
 * system, where a PID alone is reused. 0 if it cannot be read.
 */
unsigned long long proc_start(int pid);
/*
 * proc_threads - call fn(TID, TGID, arg) for each thread /proc lists, as the
 * listing is read (a thread may end meanwhile)
 */
void proc_threads(void (*fn)(int tid, int tgid, void *arg), void *arg);
/*
 * proc_pidns_initial - 1 if this process runs in the kernel's initial PID
 * namespace, the one whose PIDs tracing records (common_pid, set_event_pid)
 * and whose /proc this is; 0 in another, or when /proc cannot tell
 */
int proc_pidns_initial(void);
/* proc_tids - every thread of PID (from /proc/PID/task); returns the count */
int proc_tids(pid_t pid, pid_t **tids);

#endif

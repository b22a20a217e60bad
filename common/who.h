/* SPDX-License-Identifier: GPL-2.0-only */
/* who.h - who -p traces: a process's threads now and the threads and children they start */
#ifndef FTT_WHO_H
#define FTT_WHO_H

#include <sys/types.h>

struct session;

/*
 * who_events - record events in s's instance only while a task of PID runs:
 * every thread it has, and every thread or child those start from now on
 * (set_event_pid with options/event-fork, in the instance). The kernel tests
 * the task on the CPU when the event fires, so this is right only for events
 * that fire in the context of the task they are about (syscalls, most
 * tracepoints, kprobes), never for interrupt-time ones (block_rq_complete).
 * pid 0: nothing. Dies with the reason if the kernel cannot.
 */
void who_events(struct session *s, pid_t pid);
/*
 * who_ftrace - the function tracers' task filter, set_ftrace_pid: PID's
 * threads, and with options/function-fork the threads and children they start;
 * or TID alone. In s's instance, or with `top` at the top level (saved first,
 * restored at exit). Both 0: nothing. Dies with the reason if refused.
 */
void who_ftrace(struct session *s, int top, pid_t pid, pid_t tid);
/*
 * who_track - the same set kept in user space, for events that fire in
 * another task's context: seed it with PID's threads (call it before and
 * again after tracing starts), then feed it every sched_process_fork
 * (who_fork) and sched_process_exit (who_exit) in time order; who_has says
 * whether a thread belongs to it.
 */
void who_track(pid_t pid);
/* who_fork - a fork (thread or process): the child is traced if its parent is */
void who_fork(int parent, int child);
/* who_exit - a thread ended: its ID may be reused by anyone */
void who_exit(int tid);
/* who_has - is TID one of the tracked tasks */
int who_has(int tid);

#endif

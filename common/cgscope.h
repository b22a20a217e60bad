/* SPDX-License-Identifier: GPL-2.0-only */
/* cgscope.h - --cgroup: the tasks of a cgroup v2 subtree, and --show-cgroup:
 * each task's cgroup, followed from the kernel's events */
#ifndef FTT_CGSCOPE_H
#define FTT_CGSCOPE_H

#include <stddef.h>

struct line;
struct session;
struct stream_rec;

/* the events cgscope_follow needs, for the tool's list of formats to load */
#define CGSCOPE_FORMATS "cgroup:cgroup_attach_task", "task:task_newtask", "sched:sched_process_exit"
#define CGSCOPE_NR_FORMATS 3
/*
 * cgscope_formats - with --cgroup, CGSCOPE_FORMATS put at list[n] on (room
 * for CGSCOPE_NR_FORMATS more, and the NULL the caller puts after); the new n
 */
size_t cgscope_formats(const char **list, size_t n);

/*
 * Membership is known per task (thread) and from a time on: two readings of
 * the subtree's cgroup.threads, one before tracing starts and one after, then
 * the kernel's events in time order (reorder.h): cgroup_attach_task (a task
 * moved, in or out), task_newtask (a new task is where its creator is, unless
 * cloned straight into a cgroup) and sched_process_exit. Nothing is read from
 * /proc per event. A task whose membership at an event's time cannot be told
 * (it changed between the two readings, it was cloned into a cgroup, events
 * were lost) has that event left out and counted (cgscope_report).
 */

/*
 * cgscope_open - the cgroup PATH: a directory of the cgroup2 mount, absolute
 * or relative to the mount. Dies with one line if there is no cgroup2 mount
 * (a v1-only host), PATH is outside it, or is no cgroup. Before the session.
 */
void cgscope_open(const char *path);
/* cgscope_active - was --cgroup given (cgscope_open) */
int cgscope_active(void);
/*
 * cgscope_show - --show-cgroup: follow every task's cgroup (the whole
 * hierarchy is read, not the scope's subtree alone). Dies with one line if
 * there is no cgroup2 mount. Before the session; with cgscope_open or alone:
 * either makes the calls below follow membership.
 */
void cgscope_show(void);
/* cgscope_need - the option that needs the mono trace clock ("--cgroup",
 * "--show-cgroup"), for reorder_init; NULL when membership is not followed */
const char *cgscope_need(void);
/*
 * cgscope_follow - the membership events, in s's instance, to be handed on
 * in time order with the tool's own (reorder_follow), and the first reading.
 * After reorder_init (on the mono clock: its need is "--cgroup"), before
 * stream_begin. newtask_given: the tool follows task:task_newtask itself, in
 * time order, and hands each record to cgscope_newtask. Dies if the kernel
 * lacks the events.
 */
void cgscope_follow(struct session *s, int newtask_given);
/* cgscope_newtask - a task:task_newtask record, in time order */
void cgscope_newtask(const struct stream_rec *r);
/* cgscope_started - the second reading: right after stream_begin */
void cgscope_started(void);
/*
 * cgscope_in - should an event of task tid at ts (trace clock) be shown: 1 if
 * the task was in the subtree then, 0 if not or not known (counted). Call it
 * from a handler that reorder hands records in time order.
 */
int cgscope_in(int tid, unsigned long long ts);
/*
 * cgscope_cgroup - the cgroup (from the hierarchy's root, "/a/b") task tid
 * was in at ts, NULL if not known (or not followed). Asked as cgscope_in is.
 */
const char *cgscope_cgroup(int tid, unsigned long long ts);
/*
 * cgscope_container - 1 if the cgroup path names a container (its deepest
 * such component is [docker-|cri-containerd-|crio-|libpod-]ID[.scope], ID
 * 64 hex digits: Docker, containerd and Kubernetes, CRI-O, Podman), with the
 * ID's first 12 digits (as docker ps shows it) in id
 */
int cgscope_container(const char *path, char id[13]);
/*
 * cgscope_col - --show-cgroup's column for a cgroup path (NULL: not known,
 * "?"): the container ID where the path names one, else the path, at least
 * 12 wide; JSON: "cgroup" (the path) and "container" (the ID, or null)
 */
void cgscope_col(struct line *l, const char *path);
/* cgscope_report - stderr: the events left out because membership was not known */
void cgscope_report(const char *what);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* session.h - a private tracefs instance, set up and removed at exit */
#ifndef FTT_SESSION_H
#define FTT_SESSION_H

#include <tracefs.h>

struct session {
	char name[64];		/* instance name, ftt-TOOL-PID-START */
	char group[64];		/* dynamic event group, ftt_TOOL_PID_START */
	struct tracefs_instance *inst;
	struct tep_handle *tep;	/* the parsed event formats (format_load) */
};

/* session_tracefs - find or mount tracefs; die with the reason if impossible */
void session_tracefs(void);
/*
 * session_open - mount, reap dead runs' leftovers (reaper_reap), create the
 * private instance, removed at exit. The session is static: one per run. Dies
 * if any of it fails.
 */
struct session *session_open(const char *tool);
/*
 * session_names - s's instance name, ftt-TOOL-PID-START, and probe group,
 * ftt_TOOL_PID_START, for the run PID started at START (proc_start): the
 * names reaper_parse_owner reads back. session_open names its session with
 * it; on its own it needs neither root nor tracefs.
 */
void session_names(struct session *s, const char *tool, int pid, unsigned long long start);
/*
 * session_companion - a second private instance, NAME-SUFFIX (reaped with the
 * run's own), in c: a copy of s with its own instance, tracing off, removed at
 * exit like s's. For what must not share s's ring buffer (klat.c). -1 if refused.
 */
int session_companion(struct session *s, const char *suffix, struct session *c);
/*
 * session_events_off - disable every event in the instances this run made
 * (one write each): probes can then be deleted without the walk over every
 * instance's events that deleting an enabled probe needs
 */
void session_events_off(void);
/* session_event_exists - does SYSTEM:EVENT exist in this kernel (no state touched) */
int session_event_exists(const char *sys, const char *ev);
/* session_filter - install a filter on an event; die with the kernel's reason naming `shown` */
void session_filter(struct session *s, const char *sys, const char *ev, const char *filter,
		    const char *shown);
/*
 * session_user_filter - SYS:EV's filter from what the user typed (user, NULL:
 * none) and -L's thread (tid, 0: none), never ourselves (filter_build); a
 * refusal names the user's filter as typed (session_filter)
 */
void session_user_filter(struct session *s, const char *sys, const char *ev, pid_t tid,
			 const char *user);
/* session_enable - enable an event in the instance; die if refused */
void session_enable(struct session *s, const char *sys, const char *ev);
/* session_option - set options/NAME in the instance; -1 if the kernel lacks it */
int session_option(struct session *s, const char *name, int on);
/* session_buffer_kb - per-CPU ring buffer size of the instance */
void session_buffer_kb(struct session *s, int kb);
/* session_start - record from now on (before the banner: what the user starts after it is seen) */
void session_start(struct session *s);
/* session_clock - the instance's trace_clock (e.g. "mono"); -1 if the kernel lacks it */
int session_clock(struct session *s, const char *clock);
/*
 * session_buffer_entries - the events held in inst's ring buffer (NULL: the
 * top level's), summed over the CPUs' stats; -1 if they cannot be read
 */
long session_buffer_entries(struct tracefs_instance *inst);
/*
 * session_set - write FILE in the session's instance, or with `top` at the
 * top level (saved and restored, as global_write). -1 with errno.
 */
int session_set(struct session *s, int top, const char *file, const char *value);
/*
 * session_file_fd - FILE of the instance (with `top`, of the top level: the
 * caller saves and journals it with global_write and global_expect first)
 * opened for writing, for a switch that must cost one system call when it is
 * flipped (session_flip); closed at exit before the instance is removed
 * (an open file holds it); -1 with errno
 */
int session_file_fd(struct session *s, int top, const char *file);
/* session_flip - write "1" (on) or "0" to a switch from session_file_fd: one write(); -1 with errno */
int session_flip(int fd, int on);
/*
 * session_append - append VALUE to FILE (no truncation: for lists such as
 * set_event_pid, where a write that truncates replaces the list) in the
 * session's instance, or with `top` at the top level, its first content saved
 * and restored at exit as global_write does (global_append). -1 with errno.
 */
int session_append(struct session *s, int top, const char *file, const char *value);

#endif

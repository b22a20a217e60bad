/* SPDX-License-Identifier: GPL-2.0-only */
/* capture.h - user strings taken at the call: the capture ladder
 *
 * A syscall tracepoint up to 6.18 carries a pointer, not the string it points
 * to, and what a pointer is read for after the event can belong to another
 * call. So the strings an open or an exec was called with (its path; its file
 * and argv) are taken in the kernel at the call, by the first of these that
 * this kernel has and that proves itself at startup (best first for opens;
 * for execs the syscall rung gives only the file, so it comes after those
 * that give argv as well):
 *
 *   syscall  the syscall event's own string field (6.19+)
 *   eprobe   event probes on the syscall entry tracepoints (5.15+)
 *   kprobe   kprobes with string fetchargs (5.5+)
 *   uprobe   uprobes on the C library's open and exec functions, in every
 *            C library that running processes map
 *   none     nothing: the value is unknown
 *
 * Proof: each rung is set up, then a child of the tool opens and execs a path
 * made for the run (neither exists); the rung must deliver exactly that path
 * and argv, from the child's pointers, or it is torn down and the next tried.
 * FTT_CAPTURE=RUNG in the environment forces a rung (it must still prove
 * itself, or the tool exits).
 *
 * Pairing: the tool calls capture_enter at each syscall entry and
 * capture_take at the call's end. A capture counts for the call only if it is
 * of the same thread, from the same user pointer(s), made after that thread's
 * previous call ended, and no events were lost in between; otherwise the
 * value is unknown.
 */
#ifndef FTT_CAPTURE_H
#define FTT_CAPTURE_H

#include <tracefs.h>

struct session;

enum cap_kind { CAP_OPEN, CAP_EXEC };
enum cap_rung { CAP_SYSCALL, CAP_EPROBE, CAP_KPROBE, CAP_UPROBE, CAP_NONE, CAP_NRUNGS };

#define CAP_MAXSTR 18	/* the file and up to 17 argv entries */

/* the strings of one call, as the kernel took them */
struct cap_val {
	unsigned long long ts;		/* when taken */
	unsigned long long ptr[2];	/* the user pointers they came from (path; file, argv) */
	unsigned long long gaps;	/* reorder_gaps() when stored, in time order */
	unsigned long long flags;	/* open flags, if has_flags */
	int has_flags;
	int nstr;			/* str[0] the path or file; exec: then argv[0..] */
	int args_known;			/* exec: argv was taken (else only the file) */
	int more;			/* exec: argv has more entries than asked for */
	int cut;			/* a string was cut short by the kernel */
	char *str[CAP_MAXSTR];		/* NUL-terminated, raw bytes */
};

struct capture;

/*
 * capture_open - set up the best rung that proves itself for KIND (exec: argv
 * entries up to argc, at most CAP_MAXSTR - 2), before session_start. Never
 * fails: the last rung is CAP_NONE. Dies if FTT_CAPTURE names a rung that
 * cannot be set up or fails its proof.
 */
struct capture *capture_open(struct session *s, enum cap_kind kind, unsigned int argc);
/*
 * capture_load - format_load the tool's own events (entries "SYS:EVENT" or
 * "SYS", NULL-terminated) and the capture's together
 */
void capture_load(struct capture *c, const char *const *own);
/* capture_follow - filter (NULL: none) and enable the capture's own events */
void capture_follow(struct capture *c, const char *filter);
/* capture_enter - at a syscall entry record (sys_enter_open*, sys_enter_execve*) of the call */
void capture_enter(struct capture *c, struct tep_event *ev, struct tep_record *rec);
/*
 * capture_take - at the end of tid's call (its exit record, or the exec) at
 * time ts, from the user pointers ptr[0] (path; exec: file) and ptr[1] (exec:
 * argv; else 0): the call's strings (free with capture_free), or NULL if unknown
 */
struct cap_val *capture_take(struct capture *c, int tid, const unsigned long long ptr[2],
			     unsigned long long ts);
/* capture_free - release a value from capture_take */
void capture_free(struct cap_val *v);
/* capture_note - one line on stderr: the rung in use, and why if it is not the best */
void capture_note(const struct capture *c);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* capture.h - user strings taken at the call, paired with the call at run time
 *
 * A syscall tracepoint up to 6.18 carries a pointer, not the string it points
 * to, and what a pointer is read for after the event can belong to another
 * call. So the strings an open or an exec was called with (its path; its file
 * and argv) are taken in the kernel at the call, by a rung of the capture
 * ladder (ladder.h), which also makes the struct capture.
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

struct pidmap;
struct session;

enum cap_kind { CAP_OPEN, CAP_EXEC };
enum cap_rung { CAP_SYSCALL, CAP_EPROBE, CAP_KPROBE, CAP_UPROBE, CAP_NONE, CAP_NRUNGS };

#define CAP_MAXSTR 34		/* the file and up to 33 argv entries */
#define CAP_MAXEVENTS 64	/* capture events of one rung (uprobes: per library) */

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

/* a capture: the rung in use, its events, and the values waiting for their calls */
struct capture {
	struct session *s;
	enum cap_kind kind;
	enum cap_rung rung;
	unsigned int argc;
	struct pidmap *slots;		/* tid -> the newest cap_val not yet taken */
	struct pidmap *ends;		/* tid -> 1 + when its last call ended */
	unsigned long long swept;	/* when slots were last swept of old values */
	char *names[CAP_MAXEVENTS];	/* the rung's events in s->group */
	int nev;
	int bufsz;			/* syscall: bytes of a string the events keep */
};

/*
 * capture_init - c (zeroed, made by ladder_open) for calls of KIND in s (exec:
 * argv entries up to argc, at most CAP_MAXSTR - 2), with no value held
 */
void capture_init(struct capture *c, struct session *s, enum cap_kind kind, unsigned int argc);
/*
 * capture_load - format_load the tool's own events (entries "SYS:EVENT" or
 * "SYS", NULL-terminated) and the capture's together
 */
void capture_load(struct capture *c, const char *const *own);
/* capture_follow - filter (NULL: none) and enable the capture's own events */
void capture_follow(struct capture *c, const char *filter);
/*
 * capture_decode - the strings a capture event took (on the syscall rung, a
 * syscall entry record); NULL if the kernel could not read them
 */
struct cap_val *capture_decode(struct capture *c, struct tep_event *ev, struct tep_record *rec);
/*
 * capture_store - v (NULL: unreadable, and no older value either) is tid's
 * newest capture, in time order: the gaps before it are counted; once a second
 * of trace time, values no call took go
 */
void capture_store(struct capture *c, int tid, struct cap_val *v);
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

#endif

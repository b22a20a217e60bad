/* SPDX-License-Identifier: GPL-2.0-only */
/* evtext.h - a binary event record as a line of ftrace's text */
#ifndef FTT_EVTEXT_H
#define FTT_EVTEXT_H

#include <stdio.h>
#include <tracefs.h>

struct line;
struct session;

/* evtext_head - add "COMM-PID [CPU] FLAGS SECS.USECS:" to line l (line.h), as
 * the kernel pads it; comm is the task's name at the record (NULL: not known,
 * shown as the kernel shows it, "<...>") */
void evtext_head(struct line *l, struct tep_event *ev,
		 struct tep_record *rec, const char *comm);
/*
 * evtext_line - head, then " NAME: FIELDS" and a newline; a system call event
 * as " sys_NAME(arg: value, ...)" or " sys_NAME -> 0xRET"; a kernel_stack
 * record as " <stack trace>" and a " => symbol+0xoff" line per frame; to out
 */
void evtext_line(struct session *s, struct tep_event *ev, struct tep_record *rec,
		 const char *comm);
/* evtext_flags - the flags column of a record ("d..1."), or NULL if it is too
 * short to hold them or the kernel's release does not say how to read them */
const char *evtext_flags(struct tep_event *ev, struct tep_record *rec);
/* evtext_header - the '#' column header of these lines (-H), naming the
 * tracer ("nop" for events alone) and what is traced */
void evtext_header(FILE *fp, const char *tracer, const char *what);

#endif

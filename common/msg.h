/* SPDX-License-Identifier: GPL-2.0-only */
/* msg.h - error and warning messages, prefixed with the tool name */
#ifndef FTT_MSG_H
#define FTT_MSG_H

#include <stdarg.h>
#include <stdio.h>

/* exit statuses shared by every tool */
#define EXIT_OK		0
#define EXIT_ERR	1
#define EXIT_USAGE	2

extern const char *msg_prog;

/* msg_init - remember the tool name used as the message prefix; descriptors
 * 0-2 opened on /dev/null where they are closed */
void msg_init(const char *prog);
/* msg_vline - format a message that quotes user input as one line: control bytes become '?' */
void msg_vline(FILE *f, const char *fmt, va_list ap);
/* msg_warn - one line on stderr; a format ending in ':' appends strerror(errno) */
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* msg_die - msg_warn, then exit(status); the session cleanup runs from atexit */
void msg_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/*
 * msg_vwarn - msg_warn with a va_list: "prog: text", then ": reason" if
 * reason is not NULL, else for a trailing ':' the errno text
 */
void msg_vwarn(const char *reason, const char *fmt, va_list ap);

#endif

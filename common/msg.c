/* SPDX-License-Identifier: GPL-2.0-only */
/* msg.c - error and warning messages, prefixed with the tool name */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"

const char *msg_prog = "ftt";

/* msg_init - remember the tool name used as the message prefix */
void msg_init(const char *prog)
{
	const char *p = strrchr(prog, '/');
	int fd, n;

	msg_prog = p ? p + 1 : prog;
	/*
	 * descriptors 0-2 closed at the start (tool <&-) would be the first
	 * files the tool opens (tracefs, /proc): a print would go into one, and
	 * a descriptor 0 is easily taken for "none". /dev/null holds them.
	 */
	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    (n = open("/dev/null", fd ? O_WRONLY : O_RDONLY)) >= 0 && n != fd)
			close(n);
}

/* msg_vline - format a message that quotes user input as one line: control bytes become '?' */
void msg_vline(FILE *f, const char *fmt, va_list ap)
{
	char buf[1024];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap), i;

	if (n < 0)
		return;
	for (i = 0; buf[i]; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
	fputs(buf, f);
}

/* vwarn - print "prog: text", then ": reason" if reason is not NULL, else
 * for a trailing ':' the errno text */
static void vwarn(const char *reason, const char *fmt, va_list ap)
{
	int err = errno;
	size_t n = strlen(fmt);

	fflush(stdout);
	fprintf(stderr, "%s: ", msg_prog);
	msg_vline(stderr, fmt, ap);
	if (reason)
		fprintf(stderr, ": %s", reason);
	else if (n && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(err));
	fputc('\n', stderr);
}

/* msg_warn - one line on stderr; a format ending in ':' appends strerror(errno) */
void msg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(NULL, fmt, ap);
	va_end(ap);
}

/* msg_die - msg_warn, then exit(status); the session cleanup runs from atexit */
void msg_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(NULL, fmt, ap);
	va_end(ap);
	exit(status);
}

/*
 * kernel_reason - reduce an error_log entry to its one-line reason
 *
 * The kernel writes "[ts] subsystem: error: Reason\n  Command: text\n    ^".
 */
static void kernel_reason(char *log, char *buf, size_t len)
{
	char *p;

	buf[0] = '\0';
	log[strcspn(log, "\n")] = '\0';
	/* "event filter parse error: error: Reason": the last "error: " wins */
	for (p = log; (p = strstr(p, "error: ")); p += 7)
		snprintf(buf, len, "%s", p + 7);
}

/* the last error_log entries before a write (msg_kernel_mark): older ones are not its reason */
static char *mark_top, *mark_inst;

/* msg_kernel_mark - see msg.h */
void msg_kernel_mark(struct tracefs_instance *inst)
{
	free(mark_top);
	free(mark_inst);
	mark_top = tracefs_error_last(NULL);
	mark_inst = inst ? tracefs_error_last(inst) : NULL;
}

/* last_new - the last entry of inst's error_log if it came after the mark, else NULL */
static char *last_new(struct tracefs_instance *inst, const char *mark)
{
	char *log = tracefs_error_last(inst);

	if (log && mark && !strcmp(log, mark)) {
		free(log);
		return NULL;
	}
	return log;
}

/* msg_kernel - one line: what failed and the kernel's own reason (error_log) */
void msg_kernel(struct tracefs_instance *inst, const char *fmt, ...)
{
	char reason[256] = "";
	char *log;
	va_list ap;
	int err = errno;

	log = last_new(inst, inst ? mark_inst : mark_top);
	if (!log && inst)
		log = last_new(NULL, mark_top);
	if (log) {
		kernel_reason(log, reason, sizeof(reason));
		free(log);
	}
	va_start(ap, fmt);
	vwarn(reason[0] ? reason : strerror(err ? err : EINVAL), fmt, ap);
	va_end(ap);
}

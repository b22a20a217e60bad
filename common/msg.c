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

/* msg_vwarn - see msg.h */
void msg_vwarn(const char *reason, const char *fmt, va_list ap)
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
	msg_vwarn(NULL, fmt, ap);
	va_end(ap);
}

/* msg_die - msg_warn, then exit(status); the session cleanup runs from atexit */
void msg_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_vwarn(NULL, fmt, ap);
	va_end(ap);
	exit(status);
}

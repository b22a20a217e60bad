/* SPDX-License-Identifier: GPL-2.0-only */
/* xalloc.c - allocations that never return NULL: they die on failure */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "xalloc.h"

/* xalloc_die - see xalloc.h; the one place the message is written */
void xalloc_die(void)
{
	msg_die(EXIT_ERR, "out of memory");
}

/* xmalloc - see xalloc.h */
void *xmalloc(size_t size)
{
	return xrealloc(NULL, size);
}

/* xcalloc - see xalloc.h */
void *xcalloc(size_t n, size_t size)
{
	void *p = n && size ? calloc(n, size) : calloc(1, 1);

	if (!p)
		xalloc_die();
	return p;
}

/* xrealloc - see xalloc.h */
void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		xalloc_die();
	return p;
}

/* xreallocarray - see xalloc.h */
void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		xalloc_die();
	return xrealloc(p, n * size);
}

/* xstrdup - see xalloc.h */
char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		xalloc_die();
	return d;
}

/* xvasprintf - see xalloc.h */
char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		xalloc_die();
	return s;
}

/* xasprintf - see xalloc.h */
char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* xalloc.h - allocations that never return NULL: they die on failure */
#ifndef FTT_XALLOC_H
#define FTT_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Each x function dies with the line "out of memory" (msg_die, EXIT_ERR;
 * the session cleanup runs from atexit) where the call it wraps fails, and
 * otherwise returns what that call returns. A size of 0 is taken as 1, so
 * the result is never NULL. Allocations whose failure a caller handles
 * itself use the plain calls.
 */

/* xalloc_die - "out of memory" and exit: for a library's allocator that failed */
void xalloc_die(void) __attribute__((noreturn));
/* xmalloc - malloc(size) */
void *xmalloc(size_t size);
/* xcalloc - calloc(n, size): zeroed; dies too if n * size overflows */
void *xcalloc(size_t n, size_t size);
/* xrealloc - realloc(p, size); p NULL: xmalloc */
void *xrealloc(void *p, size_t size);
/* xreallocarray - xrealloc(p, n * size), dying if n * size overflows */
void *xreallocarray(void *p, size_t n, size_t size);
/* xstrdup - strdup(s) */
char *xstrdup(const char *s);
/* xasprintf - a new string formatted as printf would */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* xvasprintf - xasprintf with a va_list */
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif

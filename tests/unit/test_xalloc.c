/* SPDX-License-Identifier: GPL-2.0-only */
/* test_xalloc - the x allocations give usable memory, and die with "out of memory" */
#include <stdint.h>

#include "msg.h"
#include "unit.h"
#include "xalloc.h"

/* vfmt - xvasprintf through a variadic call */
static char *vfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

/* overflow - in the child: an array whose n * size does not fit in size_t */
static void overflow(const void *arg)
{
	const size_t *n = arg;
	void *p = xreallocarray(NULL, *n, 16);

	printf("xreallocarray returned %p\n", p);	/* not reached */
}

/* grow - in the child: an array that fits, grown once */
static void grow(const void *arg)
{
	int *v = xreallocarray(NULL, 4, sizeof(*v));

	(void)arg;
	v = xreallocarray(v, 1024, sizeof(*v));
	v[1023] = 1;
	free(v);
}

/* die - in the child: xalloc_die itself */
static void die(const void *arg)
{
	(void)arg;
	xalloc_die();
}

int main(void)
{
	size_t huge = SIZE_MAX / 16 + 1, i;
	char err[256], *s, *b;
	int *v, zeroed = 1, rc;

	msg_init("unit");

	b = xmalloc(100);
	memset(b, 'x', 100);
	CHECK("xmalloc gives the size asked for", b[99] == 'x');
	b = xrealloc(b, 200000);
	CHECK("xrealloc keeps the content", b[0] == 'x' && b[99] == 'x');
	b[199999] = 'y';
	CHECK("xrealloc gives the new size", b[199999] == 'y');
	free(b);
	b = xrealloc(NULL, 10);
	CHECK("xrealloc of NULL allocates", b != NULL);
	free(b);
	b = xmalloc(0);
	CHECK("xmalloc(0) is not NULL", b != NULL);
	free(b);

	v = xcalloc(1000, sizeof(*v));
	for (i = 0; i < 1000; i++)
		zeroed &= v[i] == 0;
	CHECK("xcalloc zeroes", zeroed);
	v = xreallocarray(v, 2000, sizeof(*v));
	v[1999] = 7;
	CHECK("xreallocarray keeps the content and grows", v[0] == 0 && v[999] == 0 && v[1999] == 7);
	free(v);

	s = xstrdup("a string");
	CHECK("xstrdup copies", !strcmp(s, "a string"));
	free(s);
	s = xasprintf("%s/%d/%05.1f/%c", "events", 42, 3.5, 'z');
	CHECK("xasprintf formats", !strcmp(s, "events/42/003.5/z"));
	free(s);
	s = xasprintf("%s", "");
	CHECK("xasprintf of an empty string", s && s[0] == '\0');
	free(s);
	s = vfmt("%s %s\n", "name", "fields");
	CHECK("xvasprintf formats", !strcmp(s, "name fields\n"));
	free(s);

	rc = unit_exit_status(overflow, &huge, err, sizeof(err));
	CHECK("xreallocarray dies on an overflowing n * size: exit 1", rc == 1);
	CHECK("xreallocarray dies on an overflowing n * size: the message",
	      !strcmp(err, "unit: out of memory\n"));
	if (rc != 1 || strcmp(err, "unit: out of memory\n"))
		printf("     got (exit %d): '%s'\n", rc, err);
	rc = unit_exit_status(grow, NULL, err, sizeof(err));
	CHECK("xreallocarray of a size that fits does not die", rc == 0 && err[0] == '\0');
	rc = unit_exit_status(die, NULL, err, sizeof(err));
	CHECK("xalloc_die: exit 1 and the message", rc == 1 && !strcmp(err, "unit: out of memory\n"));
	return unit_done("xalloc");
}

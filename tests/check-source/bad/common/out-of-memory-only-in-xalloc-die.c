/* expect: out-of-memory-only-in-xalloc - a failed malloc dies by hand, not through xmalloc */
/* SPDX-License-Identifier: GPL-2.0-only */
void *f(size_t n)
{
	void *p = malloc(n);

	if (!p)
		msg_die(EXIT_ERR, "out of memory");
	return p;
}

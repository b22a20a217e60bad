/* expect: out-of-memory-only-in-xalloc - the message capitalised, after a failed asprintf */
/* SPDX-License-Identifier: GPL-2.0-only */
char *f(const char *sys, const char *ev)
{
	char *path;

	if (asprintf(&path, "events/%s/%s", sys, ev) < 0)
		msg_die(EXIT_ERR, "%s: Out of memory", ev);
	return path;
}

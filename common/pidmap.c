/* SPDX-License-Identifier: GPL-2.0-only */
/* pidmap.c - small per-PID (or per-TID) state tables
 *
 * A table (table.c) keyed by the PID. Entries of tasks that ended without
 * the event that would remove them stay behind, so a table that grows past
 * PIDMAP_MAX entries is emptied: a bounded loss of pending state instead of
 * unbounded memory on a long run.
 */
#include <stdlib.h>

#include "pidmap.h"
#include "table.h"
#include "xalloc.h"

#define PIDMAP_MAX	65536

struct pidmap {
	struct table *t;
};

/* KEY - pid as the table's key (a, b) */
#define KEY(pid) (unsigned int)(pid), 0

/* pidmap_new - an empty table; values are released with free_fn (NULL: not freed) */
struct pidmap *pidmap_new(void (*free_fn)(void *))
{
	struct pidmap *m = xmalloc(sizeof(*m));

	m->t = table_new(free_fn);
	return m;
}

/* pidmap_get - the value stored for pid, or NULL */
void *pidmap_get(struct pidmap *m, int pid)
{
	return table_get(m->t, KEY(pid));
}

/* pidmap_put - store val for pid, releasing the value it replaces */
void pidmap_put(struct pidmap *m, int pid, void *val)
{
	/* a new PID in a full table (the values stored are never NULL) */
	if (table_count(m->t) >= PIDMAP_MAX && !table_get(m->t, KEY(pid)))
		table_clear(m->t);
	table_put(m->t, KEY(pid), val);
}

/* pidmap_take - remove pid's value and return it (the caller owns it), or NULL */
void *pidmap_take(struct pidmap *m, int pid)
{
	return table_take(m->t, KEY(pid));
}

struct sweep {
	int (*drop)(int pid, void *val, void *arg);
	void *arg;
};

/* drop_pid - table_sweep test: the pidmap_sweep caller's, by PID */
static int drop_pid(unsigned long long a, unsigned long long b, void *val, void *arg)
{
	struct sweep *sw = arg;

	(void)b;
	return sw->drop((int)a, val, sw->arg);
}

/* pidmap_sweep - remove and release every entry for which drop(pid, val, arg) is true */
void pidmap_sweep(struct pidmap *m, int (*drop)(int pid, void *val, void *arg), void *arg)
{
	struct sweep sw = { drop, arg };

	table_sweep(m->t, drop_pid, &sw);
}

/* pidmap_clear - remove and release every entry */
void pidmap_clear(struct pidmap *m)
{
	table_clear(m->t);
}

/* pidmap_free - release the table and its values */
void pidmap_free(struct pidmap *m)
{
	if (!m)
		return;
	table_free(m->t);
	free(m);
}

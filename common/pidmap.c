/* SPDX-License-Identifier: GPL-2.0-only */
/* pidmap.c - small per-PID (or per-TID) state tables
 *
 * A chained hash of PID to a pointer. Entries of tasks that ended without the
 * event that would remove them stay behind, so a table that grows past
 * PIDMAP_MAX entries is emptied: a bounded loss of pending state instead of
 * unbounded memory on a long run.
 */
#include <stdlib.h>

#include "pidmap.h"
#include "xalloc.h"

#define PIDMAP_BUCKETS	4096
#define PIDMAP_MAX	65536

struct entry {
	struct entry *next;
	int pid;
	void *val;
};

struct pidmap {
	struct entry *b[PIDMAP_BUCKETS];
	void (*free_fn)(void *);
	unsigned int count;
};

/* pidmap_new - an empty table; values are released with free_fn (NULL: not freed) */
struct pidmap *pidmap_new(void (*free_fn)(void *))
{
	struct pidmap *m = xcalloc(1, sizeof(*m));

	m->free_fn = free_fn;
	return m;
}

/* slot - the link that points at pid's entry (or at the end of its chain) */
static struct entry **slot(struct pidmap *m, int pid)
{
	struct entry **e = &m->b[(unsigned int)pid % PIDMAP_BUCKETS];

	while (*e && (*e)->pid != pid)
		e = &(*e)->next;
	return e;
}

/* clear - drop every entry */
static void clear(struct pidmap *m)
{
	struct entry *e, *n;
	int i;

	for (i = 0; i < PIDMAP_BUCKETS; i++) {
		for (e = m->b[i]; e; e = n) {
			n = e->next;
			if (m->free_fn)
				m->free_fn(e->val);
			free(e);
		}
		m->b[i] = NULL;
	}
	m->count = 0;
}

/* pidmap_get - the value stored for pid, or NULL */
void *pidmap_get(struct pidmap *m, int pid)
{
	struct entry *e = *slot(m, pid);

	return e ? e->val : NULL;
}

/* pidmap_put - store val for pid, releasing the value it replaces */
void pidmap_put(struct pidmap *m, int pid, void *val)
{
	struct entry **s = slot(m, pid), *e = *s;

	if (e) {
		if (m->free_fn && e->val != val)
			m->free_fn(e->val);
		e->val = val;
		return;
	}
	if (m->count >= PIDMAP_MAX) {
		clear(m);
		s = slot(m, pid);
	}
	e = xmalloc(sizeof(*e));
	*e = (struct entry){ .pid = pid, .val = val };
	*s = e;
	m->count++;
}

/* pidmap_take - remove pid's value and return it (the caller owns it), or NULL */
void *pidmap_take(struct pidmap *m, int pid)
{
	struct entry **s = slot(m, pid), *e = *s;
	void *val;

	if (!e)
		return NULL;
	*s = e->next;
	val = e->val;
	free(e);
	m->count--;
	return val;
}

/* pidmap_sweep - remove and release every entry for which drop(pid, val, arg) is true */
void pidmap_sweep(struct pidmap *m, int (*drop)(int pid, void *val, void *arg), void *arg)
{
	struct entry **s, *e;
	int i;

	for (i = 0; i < PIDMAP_BUCKETS; i++) {
		for (s = &m->b[i]; (e = *s); ) {
			if (!drop(e->pid, e->val, arg)) {
				s = &e->next;
				continue;
			}
			*s = e->next;
			if (m->free_fn)
				m->free_fn(e->val);
			free(e);
			m->count--;
		}
	}
}

/* pidmap_free - release the table and its values */
void pidmap_free(struct pidmap *m)
{
	if (!m)
		return;
	clear(m);
	free(m);
}

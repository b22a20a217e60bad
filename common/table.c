/* SPDX-License-Identifier: GPL-2.0-only */
/* table.c - a hash table of pointers keyed by a pair of 64-bit numbers
 *
 * What is not on the per-event path: making, growing, sweeping, emptying and
 * freeing a table. table.h says how it is built and holds the rest, inline.
 */
#include <stdlib.h>

#include "table.h"
#include "xalloc.h"

#define TABLE_MIN_BITS 6	/* a table's first array: 64 buckets */

/* table_new - see table.h */
struct table *table_new(void (*free_fn)(void *))
{
	struct table *t = xcalloc(1, sizeof(*t));

	t->nb = 1U << TABLE_MIN_BITS;
	t->shift = 64 - TABLE_MIN_BITS;
	t->b = xcalloc(t->nb, sizeof(*t->b));
	t->free_fn = free_fn;
	return t;
}

/* table_node_new - see table.h */
struct table_node *table_node_new(void)
{
	return xmalloc(sizeof(struct table_node));
}

/*
 * table_grow - see table.h. Each list is reversed, then its nodes go to the
 * heads of their new lists: the values of a key, which share a list before
 * and after, keep their order.
 */
void table_grow(struct table *t)
{
	struct table_node **old = t->b, **pp, *n, *next, *rev;
	size_t nb = t->nb, i;

	t->nb = nb * 2;
	t->shift--;
	t->b = xcalloc(t->nb, sizeof(*t->b));
	for (i = 0; i < nb; i++) {
		for (rev = NULL, n = old[i]; n; n = next) {
			next = n->next;
			n->next = rev;
			rev = n;
		}
		for (n = rev; n; n = next) {
			next = n->next;
			pp = table_bucket(t, n->a, n->b);
			n->next = *pp;
			*pp = n;
		}
	}
	free(old);
}

/* table_sweep - see table.h */
void table_sweep(struct table *t,
		 int (*drop)(unsigned long long a, unsigned long long b, void *val, void *arg),
		 void *arg)
{
	struct table_node **pp;
	size_t i;
	void *val;

	for (i = 0; i < t->nb && t->n; i++) {
		for (pp = &t->b[i]; *pp;) {
			if (!drop((*pp)->a, (*pp)->b, (*pp)->val, arg)) {
				pp = &(*pp)->next;
				continue;
			}
			val = table_cut(t, pp);
			if (t->free_fn)
				t->free_fn(val);
		}
	}
}

/* table_clear - see table.h */
void table_clear(struct table *t)
{
	size_t i;
	void *val;

	for (i = 0; i < t->nb && t->n; i++) {
		while (t->b[i]) {
			val = table_cut(t, &t->b[i]);
			if (t->free_fn)
				t->free_fn(val);
		}
	}
}

/* table_free - see table.h */
void table_free(struct table *t)
{
	struct table_node *n;

	if (!t)
		return;
	table_clear(t);
	while ((n = t->spare)) {
		t->spare = n->next;
		free(n);
	}
	free(t->b);
	free(t);
}

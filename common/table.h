/* SPDX-License-Identifier: GPL-2.0-only */
/* table.h - a hash table of pointers keyed by a pair of 64-bit numbers
 *
 * The key is two numbers, a and b, so that what the tools key by fits whole:
 * a PID (a, 0), a block request's (device, sector) with the sector any 64-bit
 * number. A key may hold several values (table_add): they are met newest
 * first. Values are the caller's pointers; the table releases those it drops
 * or replaces with the free_fn it was made with.
 *
 * Chained: a power of two of buckets, each a list of nodes (key, value); a
 * new value goes at the head of its bucket's list. The buckets double when
 * the values outnumber them (table.c), and each key's values keep their
 * order. The nodes of removed values are kept for the next adds, so a table
 * that holds about as many values as it did allocates nothing: its memory is
 * the most it held so far, until table_free. The lookups, adds and removals
 * are inline: they are the per-event path of the tools that use them, and
 * out of line their calls cost blkio's pairing a tenth more instructions.
 */
#ifndef FTT_TABLE_H
#define FTT_TABLE_H

#include <stddef.h>

/* a value and its key (the fields of this file and table.c) */
struct table_node {
	struct table_node *next;
	unsigned long long a, b;
	void *val;
};

/* a table (the fields of this file and table.c) */
struct table {
	struct table_node **b;		/* buckets: a power of two */
	size_t nb;
	int shift;			/* 64 - log2(nb): the hash's bits that pick a bucket */
	size_t n;			/* values held */
	struct table_node *spare;	/* nodes of removed values */
	void (*free_fn)(void *);
};

/* where a visit of one key's values is (table_at, table_next) */
struct table_pos {
	unsigned long long a, b;
	struct table_node *at;
};

/* table_new - an empty table; values are released with free_fn (NULL: not freed) */
struct table *table_new(void (*free_fn)(void *));
/* table_free - release the table and its values (NULL: nothing) */
void table_free(struct table *t);
/* table_clear - release every value; the table stays, empty */
void table_clear(struct table *t);
/*
 * table_sweep - call drop on every value, in no set order, and remove and
 * release each it returns nonzero for (a drop that returns 0 visits them
 * all). drop may read the table (table_get, table_at) but not change it.
 */
void table_sweep(struct table *t,
		 int (*drop)(unsigned long long a, unsigned long long b, void *val, void *arg),
		 void *arg);
/* table_grow - double the buckets (for table_add) */
void table_grow(struct table *t);
/* table_node_new - a new node (for table_add, when none is spare) */
struct table_node *table_node_new(void);

/* table_count - how many values the table holds */
static inline size_t table_count(const struct table *t)
{
	return t->n;
}

/*
 * table_bucket - the list of (a, b): the top bits of a multiplicative hash of
 * b and a turned by half its width (so that a small a, a device number, moves
 * the high bits, and a PID in a alone is hashed as well as in b)
 */
static inline struct table_node **table_bucket(const struct table *t, unsigned long long a,
					       unsigned long long b)
{
	return &t->b[((a << 32 | a >> 32) ^ b) * 0x9e3779b97f4a7c15ULL >> t->shift];
}

/* table_find - the link to the newest node of (a, b), or NULL */
static inline struct table_node **table_find(const struct table *t, unsigned long long a,
					     unsigned long long b)
{
	struct table_node **pp;

	for (pp = table_bucket(t, a, b); *pp; pp = &(*pp)->next)
		if ((*pp)->a == a && (*pp)->b == b)
			return pp;
	return NULL;
}

/* table_cut - unlink the node *pp points at and keep it spare; its value */
static inline void *table_cut(struct table *t, struct table_node **pp)
{
	struct table_node *n = *pp;

	*pp = n->next;
	n->next = t->spare;
	t->spare = n;
	t->n--;
	return n->val;
}

/* table_get - the newest value at (a, b), or NULL */
static inline void *table_get(struct table *t, unsigned long long a, unsigned long long b)
{
	struct table_node **pp = table_find(t, a, b);

	return pp ? (*pp)->val : NULL;
}

/* table_add - add val at (a, b), beside any values there (as the newest) */
static inline void table_add(struct table *t, unsigned long long a, unsigned long long b,
			     void *val)
{
	struct table_node *n = t->spare, **pp;

	if (n)
		t->spare = n->next;
	else
		n = table_node_new();
	if (t->n >= t->nb)
		table_grow(t);
	pp = table_bucket(t, a, b);
	n->next = *pp;
	n->a = a;
	n->b = b;
	n->val = val;
	*pp = n;
	t->n++;
}

/* table_put - val is (a, b)'s newest value: it replaces the one there, which is
 * released unless it is val; with none there, it is added */
static inline void table_put(struct table *t, unsigned long long a, unsigned long long b,
			     void *val)
{
	struct table_node **pp = table_find(t, a, b);

	if (!pp) {
		table_add(t, a, b, val);
		return;
	}
	if (t->free_fn && (*pp)->val != val)
		t->free_fn((*pp)->val);
	(*pp)->val = val;
}

/* table_take - remove the newest value at (a, b) and return it (the caller's now), or NULL */
static inline void *table_take(struct table *t, unsigned long long a, unsigned long long b)
{
	struct table_node **pp = table_find(t, a, b);

	return pp ? table_cut(t, pp) : NULL;
}

/* table_remove - remove this very value from (a, b), not released; 0, or -1 if it is not there */
static inline int table_remove(struct table *t, unsigned long long a, unsigned long long b,
			       const void *val)
{
	struct table_node **pp;

	for (pp = table_bucket(t, a, b); *pp; pp = &(*pp)->next) {
		if ((*pp)->val == val && (*pp)->a == a && (*pp)->b == b) {
			table_cut(t, pp);
			return 0;
		}
	}
	return -1;
}

/* table_next - the next older value at table_at's key, or NULL */
static inline void *table_next(struct table_pos *p)
{
	for (p->at = p->at ? p->at->next : NULL; p->at; p->at = p->at->next)
		if (p->at->a == p->a && p->at->b == p->b)
			return p->at->val;
	return NULL;
}

/*
 * table_at - the newest value at (a, b), or NULL; table_next gives the
 * others, newest first, then NULL. Any change to the table but to what the
 * values point at ends the visit.
 */
static inline void *table_at(struct table *t, unsigned long long a, unsigned long long b,
			     struct table_pos *p)
{
	struct table_node **pp = table_find(t, a, b);

	p->a = a;
	p->b = b;
	p->at = pp ? *pp : NULL;
	return p->at ? p->at->val : NULL;
}

#endif

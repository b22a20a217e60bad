/* SPDX-License-Identifier: GPL-2.0-only */
/* test_table - the table: get, put, take, add, remove, a key's values
 * newest first, sweep, clear, what is released, growth; then long random
 * runs against a plain list that does the same */
#include "table.h"
#include "unit.h"

#define NVAL	4096	/* values of the random runs */

static int pool[NVAL];
static int released[NVAL];	/* how often free_fn released each value */

/* release - a free_fn that counts what the table releases */
static void release(void *v)
{
	released[(int *)v - pool]++;
}

/* V - the value numbered i */
#define V(i) (&pool[i])

/* order - the values at (a, b) as table_at and table_next give them, "1 2 3" */
static const char *order(struct table *t, unsigned long long a, unsigned long long b)
{
	static char s[256];
	struct table_pos p;
	int *v;
	size_t len = 0;

	s[0] = '\0';
	for (v = table_at(t, a, b, &p); v && len < sizeof(s) - 16; v = table_next(&p))
		len += snprintf(s + len, sizeof(s) - len, "%s%d", len ? " " : "", (int)(v - pool));
	return s;
}

/* odd - sweep test: the odd-numbered values */
static int odd(unsigned long long a, unsigned long long b, void *val, void *arg)
{
	(void)a, (void)b, (void)arg;
	return ((int *)val - pool) % 2;
}

/* none_reading - sweep test that drops nothing and reads the table as it goes */
static int none_reading(unsigned long long a, unsigned long long b, void *val, void *arg)
{
	struct table *t = arg;
	struct table_pos p;
	void *v;
	int seen = 0;

	for (v = table_at(t, a, b, &p); v; v = table_next(&p))
		seen |= v == val;
	if (!seen)
		printf("FAIL table: sweep offered a value its key does not hold\n");
	return 0;
}

static void basics(void)
{
	struct table *t = table_new(release);
	struct table_pos p;
	int i, ok;

	memset(released, 0, sizeof(released));
	CHECK("empty: get", table_get(t, 1, 2) == NULL);
	CHECK("empty: take", table_take(t, 1, 2) == NULL);
	CHECK("empty: at", table_at(t, 1, 2, &p) == NULL);
	CHECK("empty: remove", table_remove(t, 1, 2, V(1)) == -1);
	CHECK("empty: count", table_count(t) == 0);
	table_sweep(t, odd, NULL);
	table_clear(t);

	table_put(t, 1, 2, V(1));
	CHECK("put, get", table_get(t, 1, 2) == V(1) && table_count(t) == 1);
	CHECK("both halves of the key count", table_get(t, 2, 1) == NULL &&
	      table_get(t, 1, 3) == NULL && table_get(t, 0, 2) == NULL);
	table_put(t, 1, 2, V(2));
	CHECK("put again: replaced, the old value released",
	      table_get(t, 1, 2) == V(2) && released[1] == 1 && table_count(t) == 1);
	table_put(t, 1, 2, V(2));
	CHECK("put the same value: not released", released[2] == 0 && table_get(t, 1, 2) == V(2));
	CHECK("take: the value, not released", table_take(t, 1, 2) == V(2) && released[2] == 0);
	CHECK("take: then absent", table_get(t, 1, 2) == NULL && table_count(t) == 0);

	/* a key's values: newest first, whatever is removed */
	table_add(t, ~0ULL, ~0ULL, V(10));
	table_add(t, ~0ULL, ~0ULL, V(11));
	table_add(t, ~0ULL, ~0ULL, V(12));
	table_add(t, 0, 0, V(13));
	CHECK("add: newest first", !strcmp(order(t, ~0ULL, ~0ULL), "12 11 10"));
	CHECK("add: get is the newest", table_get(t, ~0ULL, ~0ULL) == V(12));
	CHECK("remove: a value not at the key", table_remove(t, 0, 0, V(11)) == -1);
	CHECK("remove: from the middle", table_remove(t, ~0ULL, ~0ULL, V(11)) == 0 &&
	      !strcmp(order(t, ~0ULL, ~0ULL), "12 10") && released[11] == 0);
	table_add(t, ~0ULL, ~0ULL, V(14));
	CHECK("add after a remove: newest", !strcmp(order(t, ~0ULL, ~0ULL), "14 12 10"));
	table_put(t, ~0ULL, ~0ULL, V(15));
	CHECK("put: replaces the newest", !strcmp(order(t, ~0ULL, ~0ULL), "15 12 10") &&
	      released[14] == 1);
	CHECK("take: the newest", table_take(t, ~0ULL, ~0ULL) == V(15) &&
	      !strcmp(order(t, ~0ULL, ~0ULL), "12 10") && table_count(t) == 3);
	CHECK("another key untouched", !strcmp(order(t, 0, 0), "13"));
	table_clear(t);
	CHECK("clear: all released", released[10] == 1 && released[12] == 1 &&
	      released[13] == 1 && table_count(t) == 0 && table_get(t, 0, 0) == NULL);

	/* growth: many keys, and one key's values added all along, keep their order */
	memset(released, 0, sizeof(released));
	for (i = 0; i < 3000; i++) {
		table_put(t, (unsigned long long)i << 40, 8ULL * i, V(i));
		if (i % 500 == 0)
			table_add(t, 7, 7, V(3000 + i / 500));
	}
	ok = table_count(t) == 3006;
	for (i = 0; i < 3000; i++)
		ok &= table_get(t, (unsigned long long)i << 40, 8ULL * i) == V(i);
	CHECK("growth: every value found", ok);
	CHECK("growth: a key's order kept", !strcmp(order(t, 7, 7), "3005 3004 3003 3002 3001 3000"));

	/* sweep: the odd values go, each released once; the rest stay */
	table_sweep(t, odd, NULL);
	ok = 1;
	for (i = 0; i < 3000; i++)
		ok &= table_get(t, (unsigned long long)i << 40, 8ULL * i) == (i % 2 ? NULL : V(i)) &&
		      released[i] == i % 2;
	CHECK("sweep: the odd values released once, the even kept", ok);
	CHECK("sweep: a key's order kept", !strcmp(order(t, 7, 7), "3004 3002 3000"));
	CHECK("sweep: the count", table_count(t) == 1503);
	table_sweep(t, none_reading, t);
	CHECK("sweep that drops nothing", table_count(t) == 1503);
	table_free(t);
	ok = 1;
	for (i = 0; i < 3006; i++)
		ok &= released[i] == 1;
	CHECK("free: every value released once", ok);
	table_free(NULL);

	/* no free_fn: the values are the caller's */
	memset(released, 0, sizeof(released));
	t = table_new(NULL);
	table_put(t, 3, 0, V(1));
	table_put(t, 3, 0, V(2));
	table_add(t, 4, 0, V(3));
	table_sweep(t, odd, NULL);
	table_clear(t);
	table_free(t);
	CHECK("no free_fn: nothing released", !released[1] && !released[2] && !released[3]);
}

/* the reference: every (a, b, value) held, oldest first */
static struct ref {
	unsigned long long a, b;
	int v;
} ref[NVAL];
static int nref, inuse[NVAL];

/* ref_newest - the index in ref of (a, b)'s newest value, or -1 */
static int ref_newest(unsigned long long a, unsigned long long b)
{
	int i;

	for (i = nref - 1; i >= 0; i--)
		if (ref[i].a == a && ref[i].b == b)
			return i;
	return -1;
}

/* ref_drop - forget ref[i] */
static void ref_drop(int i)
{
	inuse[ref[i].v] = 0;
	memmove(&ref[i], &ref[i + 1], (nref - i - 1) * sizeof(ref[0]));
	nref--;
}

/* ref_order - (a, b)'s values newest first, as order() writes them */
static const char *ref_order(unsigned long long a, unsigned long long b)
{
	static char s[256];
	size_t len = 0;
	int i;

	s[0] = '\0';
	for (i = nref - 1; i >= 0 && len < sizeof(s) - 16; i--)
		if (ref[i].a == a && ref[i].b == b)
			len += snprintf(s + len, sizeof(s) - len, "%s%d", len ? " " : "", ref[i].v);
	return s;
}

static unsigned long long seed = 88172645463325252ULL;

/* rnd - a fixed pseudo-random sequence (xorshift64) */
static unsigned long long rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/* free_value - a value no one holds */
static int free_value(void)
{
	int v;

	do
		v = (int)(rnd() % NVAL);
	while (inuse[v]);
	inuse[v] = 1;
	return v;
}

static unsigned int sweep_mod;

/* by_mod - random runs' sweep: the values whose number sweep_mod divides */
static int by_mod(unsigned long long a, unsigned long long b, void *val, void *arg)
{
	(void)a, (void)b, (void)arg;
	return ((int *)val - pool) % sweep_mod == 0;
}

/*
 * random_run - steps of random operations on keys (a < na, b < nb: few keys,
 * long runs of one key's values), each checked against the reference
 */
static int random_run(int steps, unsigned int na, unsigned int nb, int limit)
{
	struct table *t = table_new(release);
	int step, i, v, ok = 1;
	unsigned long long a, b;
	void *got;

	memset(released, 0, sizeof(released));
	memset(inuse, 0, sizeof(inuse));
	nref = 0;
	for (step = 0; step < steps && ok; step++) {
		unsigned int op = (unsigned int)(rnd() % 100);

		a = rnd() % na;
		b = (rnd() % nb) * 8 + (a == 1 ? ~0ULL - 64 : 0);
		if (op < 35 && nref < limit) {
			v = free_value();
			table_add(t, a, b, V(v));
			ref[nref++] = (struct ref){ a, b, v };
		} else if (op < 50 && nref < limit) {
			v = free_value();
			i = ref_newest(a, b);
			table_put(t, a, b, V(v));
			if (i >= 0) {
				released[ref[i].v]--;	/* the replaced value: released */
				inuse[ref[i].v] = 0;
				ref[i].v = v;
			} else {
				ref[nref++] = (struct ref){ a, b, v };
			}
		} else if (op < 65) {
			i = ref_newest(a, b);
			got = table_take(t, a, b);
			ok &= i < 0 ? got == NULL : got == V(ref[i].v);
			if (i >= 0)
				ref_drop(i);
		} else if (op < 80 && nref) {
			i = (int)(rnd() % nref);
			ok &= table_remove(t, ref[i].a, ref[i].b, V(ref[i].v)) == 0;
			ok &= table_remove(t, ref[i].a + 1, ref[i].b, V(ref[i].v)) == -1;
			ref_drop(i);
		} else if (op < 97) {
			i = ref_newest(a, b);
			ok &= table_get(t, a, b) == (i < 0 ? NULL : V(ref[i].v));
			ok &= !strcmp(order(t, a, b), ref_order(a, b));
		} else if (op < 99) {
			sweep_mod = 2 + (unsigned int)(rnd() % 5);
			table_sweep(t, by_mod, NULL);
			for (i = nref - 1; i >= 0; i--) {
				if (ref[i].v % sweep_mod == 0) {
					released[ref[i].v]--;
					ref_drop(i);
				}
			}
		} else if (rnd() % 20 == 0) {
			for (i = 0; i < nref; i++)
				released[ref[i].v]--;
			table_clear(t);
			while (nref)
				ref_drop(nref - 1);
		}
		ok &= table_count(t) == (size_t)nref;
		for (i = 0; i < NVAL; i++)
			ok &= released[i] == 0;
		if (!ok)
			printf("     step %d, op %u, key (%llu, %llu)\n", step, op, a, b);
	}
	/* every key the run used: the same values, in the same order */
	for (a = 0; a < na && ok; a++)
		for (b = 0; b < nb && ok; b++) {
			unsigned long long bb = b * 8 + (a == 1 ? ~0ULL - 64 : 0);

			ok &= !strcmp(order(t, a, bb), ref_order(a, bb));
		}
	for (i = 0; i < nref; i++)
		released[ref[i].v]--;
	table_free(t);
	for (i = 0; i < NVAL; i++)
		ok &= released[i] == 0;
	return ok;
}

int main(void)
{
	basics();
	CHECK("random: few keys, long runs of one key", random_run(200000, 2, 3, 300));
	CHECK("random: some keys, some values each", random_run(200000, 3, 40, 1000));
	CHECK("random: many keys, through growth", random_run(100000, 4, 5000, NVAL - 1));
	return unit_done("table");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* calls.c - system calls waiting for their return, one per thread (calls.h) */
#include "calls.h"
#include "msg.h"
#include "pidmap.h"
#include "reorder.h"
#include "xalloc.h"

struct calls {
	const char *what;
	struct pidmap *waiting;		/* TID -> entry */
	unsigned long long unpaired;
};

/* forget - reorder_on_gap's hook: events were lost, every entry is forgotten */
static void forget(int cpu, unsigned long long ts, void *ctx)
{
	struct calls *c = ctx;

	(void)cpu, (void)ts;
	pidmap_clear(c->waiting);
}

/* calls_new - see calls.h */
struct calls *calls_new(const char *what, void (*free_fn)(void *))
{
	struct calls *c = xcalloc(1, sizeof(*c));

	c->what = what;
	c->waiting = pidmap_new(free_fn);
	reorder_on_gap(forget, c);
	return c;
}

/* calls_enter - see calls.h */
void calls_enter(struct calls *c, int tid, void *entry)
{
	pidmap_put(c->waiting, tid, entry);
}

/* calls_exit - see calls.h */
void *calls_exit(struct calls *c, int tid)
{
	void *e = pidmap_take(c->waiting, tid);

	if (!e)
		calls_miss(c);
	return e;
}

/* calls_peek - see calls.h */
void *calls_peek(struct calls *c, int tid)
{
	return pidmap_get(c->waiting, tid);
}

/* calls_miss - see calls.h */
void calls_miss(struct calls *c)
{
	if (c->what)
		c->unpaired++;
}

/* calls_unpaired - see calls.h */
unsigned long long calls_unpaired(const struct calls *c)
{
	return c->unpaired;
}

/* calls_report - see calls.h */
void calls_report(const struct calls *c)
{
	if (c->unpaired)
		msg_warn("%llu %s returned without a traced entry (in flight when tracing "
			 "began, or events lost)", c->unpaired, c->what);
}

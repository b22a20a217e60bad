/* SPDX-License-Identifier: GPL-2.0-only */
/* tgid.c - the process each thread belongs to, as known from a given time
 *
 * Readings come from events (an exec: the thread is its process) or from
 * /proc, each with the time it was made, and are used only for events at or
 * after that time, so a reading is never applied to an event before it.
 */
#include <stdlib.h>

#include "clock.h"
#include "pidmap.h"
#include "procread.h"
#include "task.h"
#include "tgid.h"
#include "xalloc.h"

static struct pidmap *tgids;
static int timed;

/* tgid_start - see tgid.h */
void tgid_start(int is_timed)
{
	timed = is_timed;
	pidmap_free(tgids);
	tgids = pidmap_new(free);
}

/* note - proc_threads callback: what /proc says of a thread now */
static void note(int tid, int tgid, void *arg)
{
	(void)arg;
	tgid_put(tid, tgid, clock_ns());
}

/* tgid_scan - see tgid.h */
void tgid_scan(void)
{
	if (timed)
		proc_threads(note, NULL);
}

/* tgid_reset - see tgid.h */
void tgid_reset(void)
{
	tgid_start(timed);
	tgid_scan();
}

/* tgid_at - see tgid.h */
int tgid_at(int tid, unsigned long long ts)
{
	struct tgid *t = pidmap_get(tgids, tid);

	return t && t->at <= ts ? t->tgid : 0;
}

/* tgid_put - see tgid.h */
void tgid_put(int tid, int tgid, unsigned long long at)
{
	struct tgid *t;

	if (tgid <= 0) {
		free(pidmap_take(tgids, tid));
		return;
	}
	t = xmalloc(sizeof(*t));
	*t = (struct tgid){ .tgid = tgid, .at = at };
	pidmap_put(tgids, tid, t);
}

/* tgid_new - see tgid.h */
void tgid_new(int creator, int child, unsigned long long clone_flags, unsigned long long ts)
{
	tgid_put(child, task_tgid_of_new(clone_flags, tgid_at(creator, ts), child), ts);
}

/* tgid_read - see tgid.h */
struct tgid *tgid_read(int tid)
{
	struct tgid *t;

	if (!timed)
		return NULL;
	t = xmalloc(sizeof(*t));
	t->tgid = (int)proc_status(tid, "Tgid");
	t->at = clock_ns();
	return t;
}

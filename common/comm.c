/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * comm.c - task names from the records that carry them, and the rows held in
 * order until their task's name at the time is known (see comm.h)
 *
 * Every held row waits in one queue, in the order held, which is time order:
 * the head goes out as soon as its name is settled, and a row behind it waits
 * for it. A task with rows waiting is counted in `waiting`; its first naming
 * record settles them all with the name it shows from before the record.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "decode.h"
#include "pidmap.h"
#include "reorder.h"
#include "xalloc.h"

struct held {
	int tid;
	int settled;
	unsigned long long ts;
	void *item;
	char *comm;		/* NULL: not known */
};

static struct held *q;
static size_t head, nr, cap;
static struct pidmap *names;	/* tid -> its name now */
static struct pidmap *waiting;	/* tid -> how many of its rows wait (as a pointer) */
static comm_emit_fn emit;
static void *emit_ctx;

/* flush - hand on the settled rows at the head */
static void flush(void)
{
	while (head < nr && q[head].settled) {
		struct held *h = &q[head++];

		emit(h->item, h->comm, emit_ctx);
		free(h->comm);
	}
	if (head == nr)
		head = nr = 0;
}

/* settle - row h's name is comm (NULL: not known) */
static void settle(struct held *h, const char *comm)
{
	uintptr_t n = (uintptr_t)pidmap_get(waiting, h->tid);

	h->settled = 1;
	h->comm = comm ? xstrdup(comm) : NULL;
	if (n > 1)
		pidmap_put(waiting, h->tid, (void *)(n - 1));
	else
		pidmap_take(waiting, h->tid);
}

/* named - a record shows tid's name before it (`before`) and from it on (`now`) */
static void named(int tid, const char *before, const char *now)
{
	size_t i;

	if (tid <= 0)
		return;
	for (i = head; pidmap_get(waiting, tid) && i < nr; i++)
		if (!q[i].settled && q[i].tid == tid)
			settle(&q[i], before);
	pidmap_put(names, tid, xstrdup(now));
}

/* name_field - tid's name from `field` of the record, both before and after it */
static void name_field(struct tep_event *ev, struct tep_record *rec, int tid, const char *field)
{
	char comm[32];

	decode_str(ev, rec, field, comm, sizeof(comm));
	named(tid, comm, comm);
}

/* on_naming - a fork, a rename or a switch, in time order */
static void on_naming(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	char before[32], now[32];
	int prev, next;

	(void)aux, (void)ctx;
	if (decode_has(ev, "child_comm")) {
		name_field(ev, rec, (int)decode_s64(ev, rec, "parent_pid"), "parent_comm");
		name_field(ev, rec, (int)decode_s64(ev, rec, "child_pid"), "child_comm");
	} else if (decode_has(ev, "newcomm")) {
		decode_str(ev, rec, "oldcomm", before, sizeof(before));
		decode_str(ev, rec, "newcomm", now, sizeof(now));
		named(decode_has(ev, "pid") ? (int)decode_s64(ev, rec, "pid") : decode_pid(ev, rec),
		      decode_has(ev, "oldcomm") ? before : now, now);
	} else {	/* a switch names only tasks not named yet: renames keep names right */
		prev = (int)decode_s64(ev, rec, "prev_pid");
		next = (int)decode_s64(ev, rec, "next_pid");
		if (prev > 0 && !pidmap_get(names, prev))
			name_field(ev, rec, prev, "prev_comm");
		if (next > 0 && !pidmap_get(names, next))
			name_field(ev, rec, next, "next_comm");
	}
	flush();
}

/* pre_switch - stream handler: a switch between tasks both named already is dropped */
static void pre_switch(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	int prev = (int)decode_s64(ev, rec, "prev_pid"), next = (int)decode_s64(ev, rec, "next_pid");

	(void)cpu, (void)ctx;
	if ((prev > 0 && !pidmap_get(names, prev)) || (next > 0 && !pidmap_get(names, next)))
		reorder_push(ev, rec, on_naming, NULL, NULL);
}

/* settle_until - rows held from before `until` that still wait go out unnamed */
static void settle_until(unsigned long long until)
{
	size_t i;

	for (i = head; i < nr && q[i].ts < until; i++)
		if (!q[i].settled)
			settle(&q[i], NULL);
	flush();
}

/* on_gap - events were lost (in time order): a rename may be among them */
static void on_gap(int cpu, unsigned long long ts, void *ctx)
{
	(void)cpu, (void)ts, (void)ctx;
	settle_until(~0ULL);
	pidmap_free(names);
	names = pidmap_new(free);
}

/* on_delivered - every record up to `upto` handed on: rows that waited HOLD go */
static void on_delivered(unsigned long long upto, int last, void *ctx)
{
	(void)ctx;
	if (last)
		settle_until(~0ULL);
	else if (upto > COMM_HOLD_NS)
		settle_until(upto - COMM_HOLD_NS);
}

/* comm_follow - see comm.h */
void comm_follow(struct session *s, const char *self, comm_emit_fn fn, void *ctx)
{
	emit = fn;
	emit_ctx = ctx;
	names = pidmap_new(free);
	waiting = pidmap_new(NULL);
	reorder_follow(s, "sched", "sched_process_fork", self, NULL, on_naming);
	reorder_follow(s, "task", "task_rename", self, NULL, on_naming);
	reorder_follow(s, "sched", "sched_switch", NULL, pre_switch, NULL);
	reorder_on_gap(on_gap, NULL);
	reorder_on_delivered(on_delivered, NULL);
}

/* comm_now - see comm.h */
const char *comm_now(int tid)
{
	return names ? pidmap_get(names, tid) : NULL;
}

/* comm_hold - see comm.h */
void comm_hold(int tid, unsigned long long ts, void *item)
{
	const char *comm = comm_now(tid);
	uintptr_t n;

	if (head == nr && comm) {
		emit(item, comm, emit_ctx);
		return;
	}
	if (nr == cap) {
		if (head > cap / 2) {
			memmove(q, q + head, (nr - head) * sizeof(*q));
			nr -= head;
			head = 0;
		} else {
			cap = cap ? cap * 2 : 64;
			q = xreallocarray(q, cap, sizeof(*q));
		}
	}
	q[nr] = (struct held){ tid, comm != NULL, ts, item, comm ? xstrdup(comm) : NULL };
	if (!comm) {
		n = (uintptr_t)pidmap_get(waiting, tid);
		pidmap_put(waiting, tid, (void *)(n + 1));
	}
	nr++;
}

/* comm_waiting - see comm.h */
unsigned long comm_waiting(void)
{
	return (unsigned long)(nr - head);
}

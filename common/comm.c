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

#include "cgscope.h"
#include "comm.h"
#include "decode.h"
#include "filter.h"
#include "msg.h"
#include "pidmap.h"
#include "reorder.h"
#include "xalloc.h"

struct held {
	int tid;
	int settled;
	unsigned long long ts;
	void *item;
	char *comm;		/* NULL: not known */
	comm_emit_fn emit;	/* how it goes out */
};

/* a record held by comm_rows, with its printer */
struct held_record {
	struct tep_event *ev;
	struct tep_record rec;
	stream_fn fn;
	void *ctx;
	unsigned char data[];
};

static struct held *q;
static size_t head, nr, cap;
static struct pidmap *names;	/* tid -> its name now */
static struct pidmap *waiting;	/* tid -> how many of its rows wait (as a pointer) */
static comm_emit_fn emit;
static void *emit_ctx;
/* by CPU: the last record read there was a naming record comm enabled (with
 * -s, the kernel stack the kernel records next is that record's) */
static unsigned char *naming_last;
static size_t naming_cpus;

/* mark - the record just read on cpu was (1) or was not (0) one of comm's own */
static void mark(int cpu, int own)
{
	size_t n;

	if (cpu < 0)
		return;
	if ((size_t)cpu >= naming_cpus) {
		n = (size_t)cpu + 64;
		naming_last = xrealloc(naming_last, n);
		memset(naming_last + naming_cpus, 0, n - naming_cpus);
		naming_cpus = n;
	}
	naming_last[cpu] = (unsigned char)own;
}

/* flush - hand on the settled rows at the head */
static void flush(void)
{
	while (head < nr && q[head].settled) {
		struct held *h = &q[head++];

		h->emit(h->item, h->comm, emit_ctx);
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
static void on_naming(const struct stream_rec *r)
{
	struct tep_event *ev = r->ev;
	struct tep_record *rec = r->rec;
	char before[32], now[32];
	int prev, next;

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
static void pre_switch(const struct stream_rec *r)
{
	int prev = (int)decode_s64(r->ev, r->rec, "prev_pid");
	int next = (int)decode_s64(r->ev, r->rec, "next_pid");

	mark(r->cpu, 1);
	if ((prev > 0 && !pidmap_get(names, prev)) || (next > 0 && !pidmap_get(names, next)))
		reorder_push(r->ev, r->rec, on_naming, NULL, NULL);
}

/* pre_naming - stream handler: a fork or a rename, queued for time order */
static void pre_naming(const struct stream_rec *r)
{
	mark(r->cpu, 1);
	reorder_push(r->ev, r->rec, on_naming, NULL, NULL);
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

/* taken - the event SYS:NAME is one of evs (NULL-ended; NULL: none) */
static int taken(struct tep_event *const *evs, const char *sys, const char *name)
{
	for (; evs && *evs; evs++)
		if (!strcmp((*evs)->system, sys) && !strcmp((*evs)->name, name))
			return 1;
	return 0;
}

/* follow - comm_follow, leaving the naming events among evs to the tool's rows;
 * the tool's own forks and renames are left out (its own PID, in the kernel) */
static void follow(struct session *s, struct tep_event *const *evs)
{
	char *self = filter_build(0, NULL, NULL);

	names = pidmap_new(free);
	waiting = pidmap_new(NULL);
	if (!taken(evs, "sched", "sched_process_fork"))
		stream_follow(s, "sched", "sched_process_fork", self, pre_naming, NULL);
	if (!taken(evs, "task", "task_rename"))
		stream_follow(s, "task", "task_rename", self, pre_naming, NULL);
	if (!taken(evs, "sched", "sched_switch"))
		stream_follow(s, "sched", "sched_switch", NULL, pre_switch, NULL);
	reorder_on_gap(on_gap, NULL);
	reorder_on_delivered(on_delivered, NULL);
	free(self);
}

/* comm_follow - see comm.h */
void comm_follow(struct session *s, comm_emit_fn fn, void *ctx)
{
	emit = fn;
	emit_ctx = ctx;
	follow(s, NULL);
}

/* comm_now - see comm.h */
const char *comm_now(int tid)
{
	if (tid == 0)
		return "<idle>";	/* each CPU's idle task, as the kernel's text names it */
	return names ? pidmap_get(names, tid) : NULL;
}

/* hold - comm_hold, the item to go out through `out` */
static void hold(int tid, unsigned long long ts, void *item, comm_emit_fn out)
{
	const char *comm = comm_now(tid);
	uintptr_t n;
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
	q[nr] = (struct held){ tid, comm != NULL, ts, item, comm ? xstrdup(comm) : NULL, out };
	if (!comm) {
		n = (uintptr_t)pidmap_get(waiting, tid);
		pidmap_put(waiting, tid, (void *)(n + 1));
	}
	nr++;
}

/* comm_hold - see comm.h */
void comm_hold(int tid, unsigned long long ts, void *item)
{
	const char *comm = comm_now(tid);

	if (head == nr && comm)
		emit(item, comm, emit_ctx);
	else
		hold(tid, ts, item, emit);
}

/* emit_record - a record comm_rows held goes out to its printer */
static void emit_record(void *item, const char *comm, void *ctx)
{
	struct held_record *h = item;

	(void)ctx;
	h->fn(&(struct stream_rec){ h->ev, &h->rec, h->rec.cpu, NULL, h->ctx, comm });
	free(h);
}

/* the printer of comm_rows, and whether its events are filtered (one per run) */
static struct rows {
	stream_fn fn;
	void *ctx;
	int blind;		/* no name can be trusted */
	int stack_id;		/* ftrace:kernel_stack's event id among the tool's (-1: none) */
	int naming_id[3];	/* ids of the tool's events that name tasks (-1: none) */
	int aside_id[2];	/* ids of the tool's bookkeeping events (-1: none) */
	stream_fn aside_now[2];	/* what each is given first */
} rows = { .aside_id = { -1, -1 } };

/* naming_event - ev is the fork, the rename or the switch event */
static int naming_event(const struct tep_event *ev)
{
	return (!strcmp(ev->system, "sched") && (!strcmp(ev->name, "sched_switch") ||
						 !strcmp(ev->name, "sched_process_fork"))) ||
	       (!strcmp(ev->system, "task") && !strcmp(ev->name, "task_rename"));
}

/* row_out - a record to the tool's printer, with its task's name (NULL: not known) */
static void row_out(const struct stream_rec *r, const char *comm)
{
	rows.fn(&(struct stream_rec){ r->ev, r->rec, r->cpu, NULL, rows.ctx, comm });
}

/* on_row - one record of the tool's events, in time order: out now, or held */
static void on_row(const struct stream_rec *r)
{
	struct tep_event *ev = r->ev;
	struct tep_record *rec = r->rec;
	struct held_record *h;
	int tid = decode_pid(ev, rec);
	const char *comm = comm_now(tid);
	int aside = ev->id == rows.aside_id[0] ? 0 : ev->id == rows.aside_id[1] ? 1 : -1;

	if (aside >= 0) {	/* the tool's bookkeeping, whatever the scope */
		if (rows.aside_now[aside])
			rows.aside_now[aside](r);
	} else if (!cgscope_in(tid, rec->ts)) {	/* --cgroup: another task's */
		if (ev->id == rows.naming_id[0] || ev->id == rows.naming_id[1] ||
		    ev->id == rows.naming_id[2])
			on_naming(r);
		return;
	}
	if (rows.blind) {
		row_out(r, NULL);
		return;
	}
	if (head == nr && comm) {
		row_out(r, comm);
	} else {
		h = xmalloc(sizeof(*h) + rec->size);
		*h = (struct held_record){ .ev = ev, .rec = *rec, .fn = rows.fn, .ctx = rows.ctx };
		h->rec.data = h->data;
		memcpy(h->data, rec->data, rec->size);
		hold(tid, rec->ts, h, emit_record);
	}
	/*
	 * a naming event the tool traces names tasks too, after its own row: the
	 * kernel records a rename before the name changes, so the row has the
	 * name from before it (and a held row gets it from the record itself)
	 */
	if (ev->id == rows.naming_id[0] || ev->id == rows.naming_id[1] ||
	    ev->id == rows.naming_id[2])
		on_naming(r);
}

/* comm_aside - see comm.h */
void comm_aside(const struct tep_event *ev, stream_fn now)
{
	int i = rows.aside_id[0] < 0 ? 0 : 1;

	if (rows.aside_id[i] >= 0)
		msg_die(EXIT_ERR, "internal: more than two events aside");
	rows.aside_id[i] = ev->id;
	rows.aside_now[i] = now;
}

/* comm_row - see comm.h: a record of the tool's events, queued for time
 * order; a kernel stack that follows one of comm's own records is that one's */
void comm_row(const struct stream_rec *r)
{
	if (r->ev->id == rows.stack_id) {
		if (r->cpu >= 0 && (size_t)r->cpu < naming_cpus && naming_last[r->cpu])
			return;
	} else {
		mark(r->cpu, 0);
	}
	reorder_push(r->ev, r->rec, on_row, NULL, NULL);
}

/* comm_rows - see comm.h */
void comm_rows(struct session *s, struct tep_event *const *evs, int filtered, stream_fn fn,
	       void *ctx)
{
	size_t i, n = 0;

	rows = (struct rows){ fn, ctx, !s || (filtered && taken(evs, "task", "task_rename")), -1,
			      { -1, -1, -1 }, { rows.aside_id[0], rows.aside_id[1] },
			      { rows.aside_now[0], rows.aside_now[1] } };
	for (i = 0; evs[i]; i++) {
		if (!strcmp(evs[i]->system, "ftrace") && !strcmp(evs[i]->name, "kernel_stack"))
			rows.stack_id = evs[i]->id;
		else if (naming_event(evs[i]) && n < 3)
			rows.naming_id[n++] = evs[i]->id;
		stream_on(evs[i], comm_row, NULL);	/* nothing more if stream_follow did */
	}
	if (!rows.blind)
		follow(s, evs);
}

/* comm_waiting - see comm.h */
unsigned long comm_waiting(void)
{
	return (unsigned long)(nr - head);
}

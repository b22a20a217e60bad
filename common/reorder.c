/* SPDX-License-Identifier: GPL-2.0-only */
/* reorder.c - deliver records of all CPUs in time order, across drains
 *
 * Records are copied into a queue as the stream drains them. After each drain
 * the records up to the stream's horizon are sorted and handed on: every CPU
 * has been read past that time (its reader holds a newer record), or was found
 * empty, a drain ago, after a newer record had been read elsewhere (anything
 * older was reserved before that one, so it is committed and read by now).
 * Nothing newer than what the drain before had read is handed on either.
 * Cost: one copy of each queued record, into large chunks that are reused once
 * every record in them has been handed on (no allocation per record), and a
 * sort, of the part the late records fall in, only when a record arrived out of
 * order. The timestamps must mean the same on every CPU: reorder_init.
 *
 * Nothing newer is handed on early, even when a backlog makes the queue (and
 * the tool's memory) grow: a drain reads a CPU found empty again only in the
 * next drain, and a drain ends after so many records, so a CPU's unread
 * records can be older than ones already queued from a busy CPU. Handing on
 * records some fixed time older than the newest could then put the exit of an
 * open that migrated CPU before its entry.
 *
 * Lost events go through the queue too: the stream's gap hook queues a mark
 * at the time of the first record after the loss, and the tools' gap hooks
 * (reorder_on_gap) run when it is handed on, after every older record.
 */
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "reorder.h"
#include "session.h"
#include "stream.h"
#include "xalloc.h"

#define CHUNK_BYTES (1 << 20)	/* records are copied into chunks of this size */
#define SPARE_MIN 4		/* emptied chunks always kept for reuse */

/* records copied in arrival order; a chunk goes once all its records are handed on */
struct chunk {
	size_t used;		/* bytes handed out */
	size_t live;		/* records in it not yet handed on */
	char data[];
};

struct item {
	unsigned long long ts, seq;
	struct tep_event *ev;
	struct tep_record *rec;
	struct chunk *chunk;
	stream_fn fn;
	void *ctx, *aux;
};

struct target {
	stream_fn fn;
	void *ctx;
};

#define MAX_GAP_HOOKS 8

/* the hooks run at each gap, in time order */
static struct gap_hook {
	reorder_gap_fn fn;
	void *ctx;
} gap_hooks[MAX_GAP_HOOKS];
static int nr_gap_hooks;
static unsigned long long gaps;	/* gaps handed on so far */

static struct item *queue;	/* queue[head .. nr) wait */
static size_t head, nr, cap;
static size_t sorted;		/* queue[head .. sorted) is in order */
static unsigned long long seq, newest, horizon;
static unsigned long long oldest_late;	/* the oldest record queued behind a later one */
static int unsorted;	/* a record was queued behind a later one */
static int aux_kept;	/* the running handler took its aux */
/* emptied chunks are kept for the next drain, as many as the last drain used:
 * memory given back and taken again would be faulted in anew, page by page
 * (a fifth of the reader's time under a steady load); after a burst, the
 * first quiet drain gives it back */
static struct chunk *cur, **spare;
static int nr_spare, spare_cap;
static int in_use;	/* chunks holding records, cur included */
static int peak;	/* the most in use since the end of the last drain */

/* copy_record - a copy of rec in the current chunk, cur (a fresh one when it is full) */
static struct tep_record *copy_record(const struct tep_record *rec)
{
	size_t need = (sizeof(struct tep_record) + rec->size + 15) & ~(size_t)15;
	struct tep_record *r;

	if (need > CHUNK_BYTES - sizeof(struct chunk))
		msg_die(EXIT_ERR, "internal: a %d-byte record", rec->size);
	if (!cur || cur->used + need > CHUNK_BYTES - sizeof(struct chunk)) {
		if (cur && !cur->live)
			cur->used = 0;		/* all handed on: start it over */
		else {
			cur = nr_spare ? spare[--nr_spare] : xmalloc(CHUNK_BYTES);
			cur->used = cur->live = 0;
			if (++in_use > peak)
				peak = in_use;
		}
	}
	r = (struct tep_record *)(cur->data + cur->used);
	cur->used += need;
	cur->live++;
	*r = (struct tep_record){ .ts = rec->ts, .size = rec->size, .record_size = rec->record_size,
				  .cpu = rec->cpu, .ref_count = 1, .data = r + 1 };
	memcpy(r->data, rec->data, rec->size);
	return r;
}

/* release - one record of c was handed on; an emptied chunk is kept as spare */
static void release(struct chunk *c)
{
	struct chunk **v;

	if (--c->live || c == cur)
		return;
	in_use--;
	if (nr_spare == spare_cap) {
		v = realloc(spare, (spare_cap ? spare_cap * 2 : 16) * sizeof(*spare));
		if (!v) {
			free(c);
			return;
		}
		spare = v;
		spare_cap = spare_cap ? spare_cap * 2 : 16;
	}
	spare[nr_spare++] = c;
}

/* trim_spares - after a drain: keep the spares the last one needed, free the rest */
static void trim_spares(void)
{
	int keep = (peak > SPARE_MIN ? peak : SPARE_MIN) - in_use;

	while (nr_spare > (keep > 0 ? keep : 0))
		free(spare[--nr_spare]);
	peak = in_use;
}

/* reorder_init - see reorder.h */
int reorder_init(struct session *s, const char *need)
{
	if (session_clock(s, "mono") == 0)
		return 1;
	if (need)
		msg_die(EXIT_ERR, "%s: the kernel has no \"mono\" trace clock", need);
	return 0;
}

/* reorder_push - queue one record from a stream handler, with aux (freed after fn) */
void reorder_push(struct tep_event *ev, struct tep_record *rec, stream_fn fn, void *ctx,
		  void *aux)
{
	struct tep_record *r;

	stream_on_drained(reorder_drained);	/* stream_run hands it on after each drain (once) */
	if (nr == cap) {
		if (head > cap / 2) {		/* room at the front: move the waiting down */
			memmove(queue, queue + head, (nr - head) * sizeof(*queue));
			nr -= head;
			sorted -= head;
			head = 0;
		} else {
			cap = cap ? cap * 2 : 256;
			queue = xreallocarray(queue, cap, sizeof(*queue));
		}
	}
	r = copy_record(rec);
	if (nr > head && rec->ts < queue[nr - 1].ts) {
		if (!unsorted || rec->ts < oldest_late)
			oldest_late = rec->ts;
		unsorted = 1;
	} else if (!unsorted)
		sorted = nr + 1;
	queue[nr++] = (struct item){ rec->ts, seq++, ev, r, cur, fn, ctx, aux };
	if (rec->ts > newest)
		newest = rec->ts;
}

/* capture - stream handler of reorder_on: queue the record for its target */
static void capture(const struct stream_rec *r)
{
	const struct target *t = r->ctx;

	reorder_push(r->ev, r->rec, t->fn, t->ctx, NULL);
}

/* target - what capture queues a record for: fn with ctx */
static struct target *target(stream_fn fn, void *ctx)
{
	struct target *t = xmalloc(sizeof(*t));

	t->fn = fn;
	t->ctx = ctx;
	return t;
}

/* reorder_on - queue every record of ev, to be handed to fn in time order */
void reorder_on(struct tep_event *ev, stream_fn fn, void *ctx)
{
	stream_on(ev, capture, target(fn, ctx));
}

/* reorder_follow - see reorder.h */
struct tep_event *reorder_follow(struct session *s, const char *sys, const char *name,
				 const char *filter, stream_fn fn, void *ctx)
{
	struct target *t = target(fn, ctx);
	struct tep_event *ev = stream_follow(s, sys, name, filter, capture, t);

	if (!ev)
		free(t);
	return ev;
}

/* before - timestamp order, arrival order among equals */
static int before(const struct item *x, const struct item *y)
{
	return x->ts != y->ts ? x->ts < y->ts : x->seq < y->seq;
}

/*
 * sort_runs - sort q[0 .. n): it is a few runs already in order (one per drain
 * and per late record), so merge neighbouring runs, pass after pass, through
 * a second array: a pass costs n moves, and each halves the runs
 */
static void sort_runs(struct item *q, size_t n)
{
	static struct item *tmp;
	static size_t tmp_cap;
	struct item *src = q, *dst;
	size_t runs;

	if (n < 2)
		return;
	if (tmp_cap < n) {
		free(tmp);
		tmp_cap = n;
		tmp = xreallocarray(NULL, tmp_cap, sizeof(*tmp));
	}
	dst = tmp;
	for (;;) {
		size_t a = 0, out = 0;

		runs = 0;
		while (a < n) {
			size_t b = a + 1, c, x, y;

			while (b < n && !before(&src[b], &src[b - 1]))
				b++;
			c = b < n ? b + 1 : b;
			while (c < n && !before(&src[c], &src[c - 1]))
				c++;
			/* merge src[a .. b) and src[b .. c) into dst */
			for (x = a, y = b; x < b || y < c;)
				dst[out++] = y >= c || (x < b && !before(&src[y], &src[x])) ?
					     src[x++] : src[y++];
			runs++;
			a = c;
		}
		src = dst;
		dst = src == q ? tmp : q;
		if (runs == 1)
			break;
	}
	if (src != q)
		memcpy(q, src, n * sizeof(*q));
}

/* deliver - hand on the queued records up to `limit` (inclusive), in order */
static void deliver(unsigned long long limit)
{
	size_t lo, hi;

	/* records of one drain come merged in time order: sort only when a late
	 * commit (or a later drain) queued one behind a newer one, and only from
	 * the first record in order that is newer than it */
	if (unsorted) {
		lo = head;
		hi = sorted;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (queue[mid].ts <= oldest_late)
				lo = mid + 1;
			else
				hi = mid;
		}
		sort_runs(queue + lo, nr - lo);
		unsorted = 0;
	}
	for (; head < nr && queue[head].ts <= limit; head++) {
		struct item *it = &queue[head];

		aux_kept = 0;
		it->fn(&(struct stream_rec){ it->ev, it->rec, it->rec->cpu, it->aux, it->ctx, NULL });
		if (!aux_kept)
			free(it->aux);
		release(it->chunk);
	}
	if (head == nr)
		head = nr = 0;
	sorted = nr;
}

static reorder_delivered_fn delivered_fn;	/* reorder_on_delivered's hook */
static void *delivered_ctx;

/* reorder_keep_aux - see reorder.h */
void reorder_keep_aux(void)
{
	aux_kept = 1;
}

/* reorder_drained - see reorder.h */
void reorder_drained(int last)
{
	unsigned long long read = stream_horizon();
	unsigned long long limit = last ? ~0ULL : read < horizon ? read : horizon;

	deliver(limit);
	horizon = newest;
	trim_spares();
	if (delivered_fn)
		delivered_fn(limit, last, delivered_ctx);
}

/* reorder_on_delivered - see reorder.h */
void reorder_on_delivered(reorder_delivered_fn fn, void *ctx)
{
	if (delivered_fn && (delivered_fn != fn || delivered_ctx != ctx))
		msg_die(EXIT_ERR, "internal: a second hook after delivery");
	delivered_fn = fn;
	delivered_ctx = ctx;
	stream_on_drained(reorder_drained);
}

/* run_gap - a gap's mark handed on: the gap hooks, in the order they were set */
static void run_gap(const struct stream_rec *r)
{
	int i;

	gaps++;
	for (i = 0; i < nr_gap_hooks; i++)
		gap_hooks[i].fn(r->cpu, r->rec->ts, gap_hooks[i].ctx);
}

/* queue_gap - the stream's gap hook: a mark, queued just before the record after the gap */
static void queue_gap(const struct tep_record *rec, void *ctx)
{
	static char none;
	struct tep_record mark = { .ts = rec->ts, .cpu = rec->cpu, .data = &none };

	(void)ctx;
	reorder_push(NULL, &mark, run_gap, NULL, NULL);
}

/* reorder_on_gap - see reorder.h */
void reorder_on_gap(reorder_gap_fn fn, void *ctx)
{
	int i;

	stream_on_gap(queue_gap, NULL);
	for (i = 0; i < nr_gap_hooks; i++)
		if (gap_hooks[i].fn == fn && gap_hooks[i].ctx == ctx)
			return;
	if (nr_gap_hooks == MAX_GAP_HOOKS)
		msg_die(EXIT_ERR, "internal: too many gap hooks");
	gap_hooks[nr_gap_hooks++] = (struct gap_hook){ fn, ctx };
}

/* reorder_gaps - see reorder.h */
unsigned long long reorder_gaps(void)
{
	return gaps;
}

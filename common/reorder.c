/* reorder.c - deliver records of all CPUs in time order, across drains
 *
 * Records are copied into a queue as the stream drains them. After each drain
 * the records older than the newest timestamp seen by the drain before are
 * sorted and handed on: anything older than that was reserved before a record
 * that had already been read, so it has been committed and drained by now.
 * Cost: one copy of each queued record, and a sort only when a record arrived
 * out of order. The timestamps must mean the same on every CPU: reorder_init.
 *
 * Nothing newer is handed on early, even when a backlog makes the queue (and
 * the tool's memory) grow: a drain reads a CPU found empty again only in the
 * next drain, so that CPU's records of the meantime can be older than ones
 * already queued from a busy CPU. Handing on, within a drain, records some
 * fixed time older than the newest could then put the exit of an open that
 * migrated CPU before its entry, once a drain lasts longer than that time.
 */
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "reorder.h"
#include "session.h"
#include "stream.h"

struct item {
	unsigned long long ts, seq;
	struct tep_event *ev;
	struct tep_record *rec;
	reorder_fn fn;
	void *ctx, *aux;
};

struct target {
	reorder_fn fn;
	void *ctx;
};

static struct item *queue;
static size_t nr, cap;
static unsigned long long seq, newest, horizon;
static int unsorted;	/* a record was queued behind a later one */
static int aux_kept;	/* the running handler took its aux */

/* reorder_init - see reorder.h */
int reorder_init(struct session *s)
{
	return session_clock(s, "mono");
}

/* reorder_push - queue one record from a stream handler, with aux (freed after fn) */
void reorder_push(struct tep_event *ev, struct tep_record *rec, reorder_fn fn, void *ctx,
		  void *aux)
{
	struct tep_record *r;

	stream_on_drained(reorder_drained);	/* stream_run hands it on after each drain */
	if (nr == cap) {
		struct item *q;

		cap = cap ? cap * 2 : 256;
		q = realloc(queue, cap * sizeof(*queue));
		if (!q)
			msg_die(EXIT_ERR, "out of memory");
		queue = q;
	}
	r = calloc(1, sizeof(*r) + rec->size);
	if (!r)
		msg_die(EXIT_ERR, "out of memory");
	r->ts = rec->ts;
	r->size = rec->size;
	r->record_size = rec->record_size;
	r->cpu = rec->cpu;
	r->ref_count = 1;
	r->data = r + 1;
	memcpy(r->data, rec->data, rec->size);
	if (nr && rec->ts < queue[nr - 1].ts)
		unsorted = 1;
	queue[nr++] = (struct item){ rec->ts, seq++, ev, r, fn, ctx, aux };
	if (rec->ts > newest)
		newest = rec->ts;
}

/* capture - stream handler of reorder_on: queue the record */
static void capture(struct tep_event *ev, struct tep_record *rec, int cpu, void *arg)
{
	struct target *t = arg;

	reorder_push(ev, rec, t->fn, t->ctx, NULL);
}

/* reorder_on - queue every record of ev, to be handed to fn in time order */
void reorder_on(struct tep_event *ev, reorder_fn fn, void *ctx)
{
	struct target *t = malloc(sizeof(*t));

	if (!t)
		msg_die(EXIT_ERR, "out of memory");
	t->fn = fn;
	t->ctx = ctx;
	stream_on(ev, capture, t);
}

/* cmp_item - timestamp order, arrival order among equals */
static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* deliver - hand on the queued records up to `limit` (inclusive), in order */
static void deliver(unsigned long long limit)
{
	size_t i, done = 0;

	if (!nr)
		return;
	/* records of one drain come merged in time order: sort only when
	 * a late commit (or a later drain) queued one behind a newer one */
	if (unsorted)
		qsort(queue, nr, sizeof(*queue), cmp_item);
	unsorted = 0;
	for (i = 0; i < nr && queue[i].ts <= limit; i++) {
		aux_kept = 0;
		queue[i].fn(queue[i].ev, queue[i].rec, queue[i].aux, queue[i].ctx);
		if (!aux_kept)
			free(queue[i].aux);
		free(queue[i].rec);
		done++;
	}
	memmove(queue, queue + done, (nr - done) * sizeof(*queue));
	nr -= done;
}

/* reorder_keep_aux - see reorder.h */
void reorder_keep_aux(void)
{
	aux_kept = 1;
}

/* reorder_drained - see reorder.h */
void reorder_drained(int last)
{
	deliver(last ? ~0ULL : horizon);
	horizon = newest;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* blkio.c - block I/O requests followed from submission to completion
 *
 * The pairing of block records (blkev.c reads them and hands them here): a
 * request is started by its issue (or insert, with queue time) and finished
 * by its completion; both are keyed by (dev, sector). The process that
 * submitted the I/O comes from block_getrq, which runs in its context when
 * the request is allocated for its first bio, and is carried to the request
 * by the same key: on blk-mq the issue often runs in a kworker. A completion
 * without a traced start is dropped and counted, never paired with a stale
 * start, and every table is emptied when the kernel reports lost events.
 * The events carry no request identity: a completion is paired only with the
 * single start at its key. Where several starts share a key (flushes at once,
 * a rewrite in flight) the completion is one of theirs, which one is not
 * known: its row has no latency, and a submitter only if they all agree. A
 * cache flush reports sector 0 at issue and -1 at completion; it is keyed at
 * -1 and shown without a sector.
 * With -p, only requests whose block_getrq came from one of the process's
 * tasks are kept (who.c), tested as each block_getrq comes.
 * Cost: a hash lookup or two per record (table.c).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "cgscope.h"
#include "msg.h"
#include "table.h"
#include "who.h"
#include "xalloc.h"

/* a submitter whose request was never issued (merged away) drops out after this long */
#define WHO_MAX_AGE_NS (10ULL * 1000000000ULL)
/* a start not completed after this long (the block layer times requests out long before) */
#define INFLIGHT_MAX_AGE_NS (120ULL * 1000000000ULL)
/* how often (trace time) the tables are swept of what aged */
#define SWEEP_NS 1000000000ULL
/*
 * a cache flush has no sector: its issue reports 0 and its completion -1;
 * both are keyed at -1, apart from every request with data
 */
#define FLUSH_KEY (~0ULL)
#define PID_UNWANTED	-1	/* -p: not from one of the process's tasks */
#define PID_UNKNOWN	-2	/* one of several submitters, which one is not known */
#define NCAND		64	/* starts at one key looked at together */

struct ent {
	unsigned int dev;
	unsigned long long sector;	/* the key: where the rest of the request starts */
	unsigned long long first;	/* its first sector (FLUSH_KEY: none) */
	unsigned long long ts;		/* queue time (who) or start time (inflight) */
	unsigned long long bytes;	/* completed so far (inflight) */
	unsigned long long left;	/* bytes still to complete, as far as known */
	int pid;
	int amb;			/* shared a key with another start: its values may be another's */
	int requeued;			/* requeued: its next start at the key is its own */
	char comm[16];
	const char *cg;			/* the submitter's cgroup then (cgscope.h; NULL: not known) */
};

/* the tables below hold struct ent by (dev, sector), several at a key, newest first */
struct blkio {
	struct blkio_opts o;
	blkio_fn fn;
	void *ctx;
	struct table *who, *inflight;
	struct table *nodata;		/* starts of requests without data that are no flush */
	unsigned long long unmatched, next_sweep;
	unsigned long long unsure;	/* not shown: whose they were is not known */
	int self, mono;
};

static struct blkio B;

/*
 * map_all - the entries at (dev, sector), oldest first (of equal times, the
 * last added first), at most NCAND in c (the last added); how many there are
 */
static size_t map_all(struct table *m, unsigned int dev, unsigned long long sector, struct ent **c)
{
	struct table_pos p;
	struct ent *e;
	size_t n = 0, i;

	for (e = table_at(m, dev, sector, &p); e; e = table_next(&p)) {
		if (n < NCAND) {
			for (i = n; i > 0 && c[i - 1]->ts > e->ts; i--)
				c[i] = c[i - 1];
			c[i] = e;
		}
		n++;
	}
	return n;
}

/*
 * taint - one of the starts at e's key went without its completion being
 * known: each left there may now be holding another's values
 */
static void taint(struct table *m, const struct ent *gone)
{
	struct table_pos p;
	struct ent *e;

	for (e = table_at(m, gone->dev, gone->sector, &p); e; e = table_next(&p)) {
		if (e == gone)
			continue;
		e->amb = 1;
		if (e->pid != gone->pid || strcmp(e->comm, gone->comm) || e->cg != gone->cg)
			e->pid = PID_UNKNOWN;
	}
}

struct aged {
	struct table *m;
	unsigned long long before;
};

/* aged - map_sweep test: an entry older than the cut, tainting its key as it goes */
static int aged(unsigned long long dev, unsigned long long sector, void *val, void *arg)
{
	struct aged *a = arg;
	struct ent *e = val;

	(void)dev, (void)sector;
	if (e->ts >= a->before)
		return 0;
	taint(a->m, e);
	return 1;
}

/* map_sweep - free entries older than `before`, tainting their keys */
static void map_sweep(struct table *m, unsigned long long before)
{
	struct aged a = { m, before };

	table_sweep(m, aged, &a);
}

/* new_ent - a zeroed entry for (dev, sector) */
static struct ent *new_ent(unsigned int dev, unsigned long long sector)
{
	struct ent *e = xcalloc(1, sizeof(*e));

	e->dev = dev;
	e->sector = sector;
	return e;
}

/* is_flush - a cache flush: no data, and the flush letter first (FF) */
static int is_flush(const struct blkio_rec *r)
{
	return !r->nr_sector && r->rwbs[0] == 'F';
}

/*
 * table - where a record's start is kept, and its key: a flush at FLUSH_KEY;
 * a request without data that is no flush (passthrough) in a table of its
 * own, apart from the writes at its sector; every other by its sector
 */
static struct table *table(const struct blkio_rec *r, unsigned long long *k)
{
	*k = is_flush(r) ? FLUSH_KEY : r->sector;
	return r->nr_sector || *k == FLUSH_KEY ? B.inflight : B.nodata;
}

/* sweep - every SWEEP_NS of trace time: submitters and starts that aged out */
static void sweep(unsigned long long ts)
{
	if (ts < B.next_sweep)
		return;
	B.next_sweep = ts + SWEEP_NS;
	if (ts > WHO_MAX_AGE_NS)
		map_sweep(B.who, ts - WHO_MAX_AGE_NS);
	if (ts > INFLIGHT_MAX_AGE_NS) {
		map_sweep(B.inflight, ts - INFLIGHT_MAX_AGE_NS);
		map_sweep(B.nodata, ts - INFLIGHT_MAX_AGE_NS);
	}
}

/* blkio_getrq - see blkio.h */
void blkio_getrq(const struct blkio_rec *r)
{
	struct ent *e;

	sweep(r->ts);
	/* a request without data (a flush's) is never issued: the flush is */
	if (!r->nr_sector)
		return;
	e = new_ent(r->dev, r->sector);
	e->ts = r->ts;
	/* -p: not one of its tasks, --cgroup: not in it (or not known, which
	 * cgscope counts); still the newest submitter at this sector */
	if ((B.o.pid && !who_has(r->pid)) || !cgscope_in(r->pid, r->ts)) {
		e->pid = PID_UNWANTED;
	} else {
		e->pid = r->pid;
		memcpy(e->comm, r->comm, sizeof(e->comm));
		e->cg = cgscope_cgroup(r->pid, r->ts);
	}
	table_put(B.who, e->dev, e->sector, e);
}

/* blkio_start - see blkio.h */
void blkio_start(const struct blkio_rec *r, int issue)
{
	struct ent *c[NCAND], *e, *w;
	unsigned long long k;
	struct table *m = table(r, &k);
	size_t n, i;

	sweep(r->ts);
	n = map_all(m, r->dev, k, c);
	/* queue mode: an issue only starts requests that were never inserted */
	if (n && B.o.queue && issue)
		return;
	/* a requeued request starts again, with the submitter it had */
	for (i = 0; i < n && i < NCAND; i++) {
		if (c[i]->requeued) {
			c[i]->requeued = 0;
			c[i]->ts = r->ts;
			return;
		}
	}
	e = new_ent(r->dev, k);
	e->first = k;
	e->ts = r->ts;
	e->left = r->bytes;
	w = B.o.who && m == B.inflight && k != FLUSH_KEY ? table_take(B.who, r->dev, r->sector) :
							     NULL;
	if (w) {
		e->pid = w->pid;
		memcpy(e->comm, w->comm, sizeof(e->comm));
		e->cg = w->cg;
		free(w);
	} else if (B.o.pid) {
		e->pid = PID_UNWANTED;	/* not from a wanted process as far as we know */
	} else if (!cgscope_in(r->pid, r->ts)) {
		e->pid = PID_UNWANTED;	/* --cgroup: the task it shows is not in it */
	} else {
		e->pid = r->pid;
		memcpy(e->comm, r->comm, sizeof(e->comm));
		e->cg = cgscope_cgroup(r->pid, r->ts);
	}
	table_add(m, e->dev, e->sector, e);
}

/* blkio_requeue - see blkio.h */
void blkio_requeue(const struct blkio_rec *r)
{
	struct ent *c[NCAND];
	unsigned long long k;
	struct table *m = table(r, &k);
	size_t n = map_all(m, r->dev, k, c), i;

	if (!n)
		return;
	/* one of several: which one comes back is not known, so none is trusted */
	if (n > 1)
		for (i = 0; i < n && i < NCAND; i++)
			taint(m, c[i]);
	c[0]->requeued = 1;
}

/*
 * emit - hand a finished request to the tool, unless -p (or this tool) did
 * not submit it; with -p one whose submitter is not known is counted instead
 */
static void emit(struct blkio_done *io)
{
	if (io->pid == PID_UNWANTED || io->pid == B.self)
		return;
	if (io->pid == PID_UNKNOWN && (B.o.pid || cgscope_active())) {
		B.unsure++;
		return;
	}
	if (io->pid == PID_UNKNOWN) {
		io->pid = -1;
		io->comm[0] = '\0';
		io->cg = NULL;
	}
	io->mono = B.mono;
	B.fn(io, B.ctx);
}

/* blkio_complete - see blkio.h */
void blkio_complete(const struct blkio_rec *r)
{
	struct blkio_done io;
	struct ent *c[NCAND], *e;
	unsigned long long n = r->nr_sector << 9, k;
	struct table *t = table(r, &k);
	size_t nc, i, m;
	int same_who = 1, same_first = 1, whole = 1;

	sweep(r->ts);
	memset(&io, 0, sizeof(io));
	io.dev = r->dev;
	io.end_ns = r->ts;
	memcpy(io.rwbs, r->rwbs, sizeof(io.rwbs));
	nc = map_all(t, r->dev, k, c);
	if (!nc) {
		/*
		 * a request without data that is no flush and was not issued:
		 * one a flush served (the empty write of fsync), completed by
		 * the block layer, not a start that went untraced
		 */
		if (t != B.nodata)
			B.unmatched++;
		return;
	}
	e = c[0];
	if (nc == 1 && !e->amb) {
		table_remove(t, e->dev, e->sector, e);
		if (n && n < e->left) {
			/* a partial completion: the rest of the request now starts further on */
			e->bytes += n;
			e->left -= n;
			e->sector += n >> 9;
			table_add(t, e->dev, e->sector, e);
			return;
		}
		io.bytes = e->bytes + n;
		io.sector = e->first;
		io.start_ns = e->ts;
		io.pid = e->pid;
		memcpy(io.comm, e->comm, sizeof(io.comm));
		io.cg = e->cg;
		io.known = BLKIO_LAT | BLKIO_BYTES | (e->first != FLUSH_KEY ? BLKIO_SECTOR : 0);
		free(e);
		emit(&io);
		return;
	}
	/*
	 * several starts at this key (or one that shared it): this completion
	 * is one of theirs, which one is not known. What they all agree on is
	 * still known; one of them (the oldest, for the count) is done.
	 */
	m = nc < NCAND ? nc : NCAND;
	for (i = 0; i < m; i++) {
		same_who &= c[i]->pid == e->pid && !strcmp(c[i]->comm, e->comm) &&
			    c[i]->cg == e->cg && nc <= NCAND;
		same_first &= c[i]->first == e->first && nc <= NCAND;
		whole &= c[i]->left == n && !c[i]->bytes && nc <= NCAND;
	}
	io.pid = same_who ? e->pid : PID_UNKNOWN;
	memcpy(io.comm, e->comm, sizeof(io.comm));
	io.cg = e->cg;
	io.sector = e->first;
	io.bytes = n;
	io.known = (same_first && e->first != FLUSH_KEY ? BLKIO_SECTOR : 0) | (whole ? BLKIO_BYTES : 0);
	table_remove(t, e->dev, e->sector, e);
	taint(t, e);
	free(e);
	emit(&io);
}

/* blkio_merged - see blkio.h */
void blkio_merged(const struct blkio_rec *r)
{
	struct ent *c[NCAND];

	if (!map_all(B.inflight, r->dev, r->sector, c))
		return;
	/* one of several there: the others may be holding its values */
	table_remove(B.inflight, c[0]->dev, c[0]->sector, c[0]);
	taint(B.inflight, c[0]);
	free(c[0]);
}

/* blkio_frontmerge - see blkio.h */
void blkio_frontmerge(const struct blkio_rec *r)
{
	struct ent *c[NCAND], *e;
	unsigned long long n = r->nr_sector;
	size_t nc;

	nc = map_all(B.inflight, r->dev, r->sector + n, c);
	if (!nc)
		return;
	e = c[0];
	table_remove(B.inflight, e->dev, e->sector, e);
	if (nc > 1) {
		/* which one grew is not known */
		taint(B.inflight, e);
		e->amb = 1;
	}
	e->sector = e->first = r->sector;
	e->left += n << 9;
	table_add(B.inflight, e->dev, e->sector, e);
}

/* blkio_init - see blkio.h */
void blkio_init(const struct blkio_opts *o, int mono, blkio_fn fn, void *ctx)
{
	if (!B.who) {
		B.who = table_new(free);
		B.inflight = table_new(free);
		B.nodata = table_new(free);
	}
	blkio_forget();
	B.o = *o;
	B.mono = mono;
	B.fn = fn;
	B.ctx = ctx;
	B.self = (int)getpid();
	B.unmatched = B.unsure = 0;
	B.next_sweep = 0;
}

/* blkio_forget - see blkio.h */
void blkio_forget(void)
{
	table_clear(B.inflight);
	table_clear(B.nodata);
	table_clear(B.who);
}

/* blkio_held - see blkio.h */
unsigned long long blkio_held(void)
{
	return table_count(B.inflight) + table_count(B.nodata) + table_count(B.who);
}

/* blkio_unmatched - see blkio.h */
unsigned long long blkio_unmatched(void)
{
	return B.unmatched;
}

/* blkio_left_out - see blkio.h */
void blkio_left_out(void)
{
	B.unsure++;
}

/* blkio_unsure - see blkio.h */
unsigned long long blkio_unsure(void)
{
	return B.unsure;
}

/*
 * blkio_report - say on stderr how many completions had no traced start, if
 * any: I/O already in flight when tracing began, or whose start was among
 * events lost (the tables are emptied then); and how many -p or the tool's
 * own filter left out for want of a known submitter
 */
void blkio_report(void)
{
	if (B.unmatched == 1)
		msg_warn("ignored 1 completion of an I/O that started before tracing began "
			 "or whose start event was lost");
	else if (B.unmatched)
		msg_warn("ignored %llu completions of I/O that started before tracing began "
			 "or whose start events were lost", B.unmatched);
	if (B.unsure)
		msg_warn("%llu I/O not shown: in flight at one sector with another process's, so "
			 "whose it was is not known", B.unsure);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* blkio.c - block I/O requests followed from submission to completion
 *
 * A request is started by block:block_rq_issue (or block_rq_insert when queue
 * time is wanted) and finished by block:block_rq_complete; both are keyed by
 * (dev, sector), read by field name from the binary records, so the ioprio
 * field newer kernels added moves nothing. The process that submitted the I/O
 * is taken from block:block_getrq, which runs in its context when the request
 * is allocated for its first bio, and carried to the request by the same key:
 * on blk-mq the issue often runs in a kworker. (block_bio_queue would do on
 * 5.10 and 6.12, but Debian's 6.1 does not emit it for blk-mq devices.) A completion without a
 * traced start is dropped and counted, never paired with a stale start, and
 * every table is emptied when the kernel reports lost events.
 * The events carry no request identity: a completion is paired only with the
 * single start at its key. Where several starts share a key (flushes at once,
 * a rewrite in flight) the completion is one of theirs, which one is not
 * known: its row has no latency, and a submitter only if they all agree. A
 * cache flush reports sector 0 at issue and -1 at completion; it is keyed at
 * -1 and shown without a sector.
 * The issue and the completion (and getrq and the issue) often fire on
 * different CPUs, microseconds apart: records are taken in time order over all
 * CPUs (reorder.c), else a drain could hand on a completion before an issue
 * committed on a CPU it had already found empty (1 I/O in 100000 here).
 * With -p, only requests whose block_getrq came from one of the process's
 * tasks are kept: the tasks it has, and those it starts (fork and exit events
 * followed in user space, who.c), tested as each block_getrq is read.
 * The device -d names (a kernel name, a /dev path or major,minor) is looked up
 * in sysfs and must exist (blkdev.c); the block events report the whole disk
 * and its sector, so a partition becomes its disk and range of sectors in the
 * filter.
 * Cost: a copy and one hash lookup per event; the events are filtered in the
 * kernel by device and type (with -p, every block_getrq and every fork and
 * exit reaches user space).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkdev.h"
#include "blkio.h"
#include "decode.h"
#include "filter.h"
#include "format.h"
#include "msg.h"
#include "options.h"
#include "reorder.h"
#include "session.h"
#include "stream.h"
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
};

/* the tables below hold struct ent by (dev, sector), several at a key, newest first */
struct blkio {
	struct blkio_opts o;
	blkio_fn fn;
	void *ctx;
	struct tep_event *issue;
	struct table *who, *inflight;
	struct table *nodata;		/* starts of requests without data that are no flush */
	unsigned long long unmatched, next_sweep;
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
		if (e->pid != gone->pid || strcmp(e->comm, gone->comm))
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

/* check_type - an rwbs glob the kernel filter takes safely; usage error otherwise */
static void check_type(const char *s, const char *what)
{
	const char *p;

	if (!*s)
		opt_usage("%s: empty type", what);
	if (strlen(s) > 32)
		opt_usage("%s: type glob too long", what);
	for (p = s; *p; p++)
		if (!isupper((unsigned char)*p) && *p != '*' && *p != '?')
			opt_usage("%s: '%.40s' is not a type glob (letters RWDFSMAEN, '*', '?')",
				  what, s);
}

/* blkio_option - see blkio.h */
void blkio_option(struct blkio_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'd':
		blkdev_parse(arg, "-d", &o->dev);
		o->has_dev = 1;
		break;
	case 'i':
		check_type(arg, "-i");
		o->type = arg;
		break;
	case 'Q':
		o->queue = 1;
		break;
	}
}

/* blkio_filter - the in-kernel filter for -d/-i ("" for none); caller frees */
char *blkio_filter(const struct blkio_opts *o)
{
	char *f = xstrdup("");

	if (o->type)
		filter_glob(&f, "rwbs", o->type);
	if (o->has_dev)
		filter_cat(&f, "%sdev == %u", o->type ? " && " : "", o->dev.disk);
	if (o->has_dev && o->dev.size)
		filter_cat(&f, " && sector >= %llu && sector < %llu", o->dev.start,
			   o->dev.start + o->dev.size);
	return f;
}

/* rec_of - the fields of a block record the pairing uses */
static void rec_of(struct tep_event *ev, struct tep_record *rec, struct blkio_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->dev = (unsigned int)decode_u64(ev, rec, "dev");
	r->sector = decode_u64(ev, rec, "sector");
	r->nr_sector = decode_has(ev, "nr_sector") ? decode_u64(ev, rec, "nr_sector") : 0;
	r->bytes = decode_has(ev, "bytes") ? decode_u64(ev, rec, "bytes") : r->nr_sector << 9;
	if (decode_has(ev, "rwbs"))
		decode_str(ev, rec, "rwbs", r->rwbs, sizeof(r->rwbs));
	r->ts = rec->ts;
	r->pid = decode_pid(ev, rec);
	if (decode_has(ev, "comm"))
		decode_str(ev, rec, "comm", r->comm, sizeof(r->comm));
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
	/* -p: not one of its tasks; still the newest submitter at this sector */
	if (B.o.pid && !who_has(r->pid)) {
		e->pid = PID_UNWANTED;
	} else {
		e->pid = r->pid;
		memcpy(e->comm, r->comm, sizeof(e->comm));
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
		free(w);
	} else if (B.o.pid) {
		e->pid = PID_UNWANTED;	/* not from a wanted process as far as we know */
	} else {
		e->pid = r->pid;
		memcpy(e->comm, r->comm, sizeof(e->comm));
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

/* emit - hand a finished request to the tool, unless -p (or this tool) did not submit it */
static void emit(struct blkio_done *io)
{
	if (io->pid == PID_UNWANTED || io->pid == B.self || (io->pid == PID_UNKNOWN && B.o.pid))
		return;
	if (io->pid == PID_UNKNOWN) {
		io->pid = -1;
		io->comm[0] = '\0';
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
		same_who &= c[i]->pid == e->pid && !strcmp(c[i]->comm, e->comm) && nc <= NCAND;
		same_first &= c[i]->first == e->first && nc <= NCAND;
		whole &= c[i]->left == n && !c[i]->bytes && nc <= NCAND;
	}
	io.pid = same_who ? e->pid : PID_UNKNOWN;
	memcpy(io.comm, e->comm, sizeof(io.comm));
	io.sector = e->first;
	io.bytes = n;
	io.known = (same_first && e->first != FLUSH_KEY ? BLKIO_SECTOR : 0) | (whole ? BLKIO_BYTES : 0);
	table_remove(t, e->dev, e->sector, e);
	taint(t, e);
	free(e);
	emit(&io);
}

/* on_getrq - block_getrq: remember who submitted the request at (dev, sector) */
static void on_getrq(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	struct blkio_rec r;

	(void)aux, (void)arg;
	rec_of(ev, rec, &r);
	blkio_getrq(&r);
}

/* on_start - issue (or insert): the request's clock starts; attach its submitter */
static void on_start(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	struct blkio_rec r;

	(void)aux, (void)arg;
	rec_of(ev, rec, &r);
	blkio_start(&r, ev == B.issue);
}

/* on_complete - block_rq_complete: pair with the start, hand the I/O to the tool */
static void on_complete(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	struct blkio_rec r;

	(void)aux, (void)arg;
	rec_of(ev, rec, &r);
	blkio_complete(&r);
}

/* on_task - sched_process_fork and _exit: -p's set of tasks, in time order */
static void on_task(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	(void)aux, (void)arg;
	if (decode_has(ev, "child_pid"))
		who_fork((int)decode_s64(ev, rec, "parent_pid"), (int)decode_s64(ev, rec, "child_pid"));
	else
		who_exit((int)decode_s64(ev, rec, "pid"));
}

/* key - (dev, sector) of a block record */
static void key(struct tep_event *ev, struct tep_record *rec, unsigned int *dev,
		unsigned long long *sector)
{
	*dev = (unsigned int)decode_u64(ev, rec, "dev");
	*sector = decode_u64(ev, rec, "sector");
}

/* on_requeue - block_rq_requeue: the request goes back and is issued again */
static void on_requeue(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	struct blkio_rec r;

	(void)aux, (void)arg;
	rec_of(ev, rec, &r);
	blkio_requeue(&r);
}

/* on_rq_merge - block_rq_merge: a queued request merged into another never completes */
static void on_rq_merge(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	struct ent *c[NCAND];
	unsigned int dev;
	unsigned long long sector;

	(void)aux, (void)arg;
	key(ev, rec, &dev, &sector);
	if (!map_all(B.inflight, dev, sector, c))
		return;
	/* one of several there: the others may be holding its values */
	table_remove(B.inflight, c[0]->dev, c[0]->sector, c[0]);
	taint(B.inflight, c[0]);
	free(c[0]);
}

/* on_frontmerge - block_bio_frontmerge: a queued request now starts at the bio's sector */
static void on_frontmerge(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	struct ent *c[NCAND], *e;
	unsigned int dev;
	unsigned long long sector, n;
	size_t nc;

	(void)aux, (void)arg;
	key(ev, rec, &dev, &sector);
	n = decode_u64(ev, rec, "nr_sector");
	nc = map_all(B.inflight, dev, sector + n, c);
	if (!nc)
		return;
	e = c[0];
	table_remove(B.inflight, e->dev, e->sector, e);
	if (nc > 1) {
		/* which one grew is not known */
		taint(B.inflight, e);
		e->amb = 1;
	}
	e->sector = e->first = sector;
	e->left += n << 9;
	table_add(B.inflight, e->dev, e->sector, e);
}

/*
 * on_gap - events were lost: any start or submitter held may belong to a lost
 * completion, and a lost start may have replaced it. It runs in time order
 * (reorder_on_gap): after every record older than the gap, so none of those
 * refills the tables, and before the first record after it.
 */
static void on_gap(int cpu, unsigned long long ts, void *arg)
{
	(void)cpu, (void)ts, (void)arg;
	blkio_forget();
}

/* blkio_init - see blkio.h */
void blkio_init(const struct blkio_opts *o, blkio_fn fn, void *ctx)
{
	if (!B.who) {
		B.who = table_new(free);
		B.inflight = table_new(free);
		B.nodata = table_new(free);
	}
	blkio_forget();
	B.o = *o;
	B.fn = fn;
	B.ctx = ctx;
	B.self = (int)getpid();
	B.unmatched = 0;
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

/* want - load an event's format; die if it is required and missing */
static struct tep_event *want(struct session *s, const char *name, int required)
{
	struct tep_event *ev = format_event(s, "block", name);

	if (!ev && required)
		msg_die(EXIT_ERR, "tracepoint block:%s not found (kernel without block tracing?)",
			name);
	return ev;
}

/* blkio_setup - load formats, set filters, enable the block events, hand finished I/O to fn */
void blkio_setup(struct session *s, const struct blkio_opts *o, blkio_fn fn, void *ctx)
{
	static const char *const systems[] = { "block", "sched:sched_process_fork",
					       "sched:sched_process_exit", NULL };
	struct tep_event *start, *complete, *getrq = NULL, *rq_merge = NULL, *front = NULL, *requeue;
	struct blkio_opts dev_only = *o;
	char *f = blkio_filter(o), *df, *self;

	/* the device part alone, for block_getrq and block_bio_frontmerge */
	dev_only.type = NULL;
	df = blkio_filter(&dev_only);
	blkio_init(o, fn, ctx);
	/* issue and completion: one clock for all CPUs */
	B.mono = reorder_init(s, NULL);
	format_load(s, systems);
	B.issue = want(s, "block_rq_issue", 1);
	complete = want(s, "block_rq_complete", 1);
	start = o->queue ? want(s, "block_rq_insert", 1) : B.issue;
	requeue = want(s, "block_rq_requeue", 0);
	if (o->who)
		getrq = want(s, "block_getrq", 1);
	if (o->queue) {
		rq_merge = want(s, "block_rq_merge", 0);
		front = want(s, "block_bio_frontmerge", 0);
	}
	if (!decode_has(start, "dev") || !decode_has(start, "sector") ||
	    !decode_has(complete, "nr_sector") || !decode_has(complete, "rwbs"))
		msg_die(EXIT_ERR, "block tracepoints lack the dev/sector/nr_sector/rwbs fields");
	reorder_on_gap(on_gap, NULL);
	reorder_follow(s, "block", complete->name, f, NULL, on_complete);
	reorder_follow(s, "block", start->name, f, NULL, on_start);
	if (o->queue)
		reorder_follow(s, "block", B.issue->name, f, NULL, on_start);
	if (requeue)
		reorder_follow(s, "block", requeue->name, f, NULL, on_requeue);
	if (getrq)
		reorder_follow(s, "block", getrq->name, df, NULL, on_getrq);
	if (o->pid) {
		/*
		 * -p: block_getrq fires in the submitter's context, but the other
		 * block events do not (a kworker issues, an interrupt completes),
		 * so the instance's task list (who_events) cannot be used: the
		 * process's tasks are kept in user space from these two
		 */
		self = filter_build(0, NULL, NULL);
		reorder_follow(s, "sched", "sched_process_fork", self, NULL, on_task);
		reorder_follow(s, "sched", "sched_process_exit", self, NULL, on_task);
		free(self);
		who_track(o->pid);
	}
	if (rq_merge)
		reorder_follow(s, "block", rq_merge->name, f, NULL, on_rq_merge);
	if (front)
		reorder_follow(s, "block", front->name, df, NULL, on_frontmerge);
	free(f);
	free(df);
}

/*
 * blkio_report - say on stderr how many completions had no traced start, if
 * any: I/O already in flight when tracing began, or whose start was among
 * events lost (the tables are emptied then)
 */
void blkio_report(void)
{
	if (B.unmatched == 1)
		msg_warn("ignored 1 completion of an I/O that started before tracing began "
			 "or whose start event was lost");
	else if (B.unmatched)
		msg_warn("ignored %llu completions of I/O that started before tracing began "
			 "or whose start events were lost", B.unmatched);
}

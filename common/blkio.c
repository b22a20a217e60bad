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
 * The issue and the completion (and getrq and the issue) often fire on
 * different CPUs, microseconds apart: records are taken in time order over all
 * CPUs (reorder.c), else a drain could hand on a completion before an issue
 * committed on a CPU it had already found empty (1 I/O in 100000 here).
 * With -p, only requests whose block_getrq came from one of the process's
 * tasks are kept: the tasks it has, and those it starts (fork and exit events
 * followed in user space, who.c), tested as each block_getrq is read.
 * Cost: a copy and one hash lookup per event; the events are filtered in the
 * kernel by device and type (with -p, every block_getrq and every fork and
 * exit reaches user space).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "decode.h"
#include "filter.h"
#include "msg.h"
#include "options.h"
#include "reorder.h"
#include "session.h"
#include "stream.h"
#include "who.h"

/* a submitter whose request was never issued (merged away) drops out after this long */
#define WHO_MAX_AGE_NS (10ULL * 1000000000ULL)

struct ent {
	struct ent *next;
	unsigned int dev;
	unsigned long long sector;
	unsigned long long ts;		/* queue time (who) or start time (inflight) */
	unsigned long long bytes;	/* completed so far (inflight) */
	unsigned long long left;	/* bytes still to complete, as far as known */
	int pid;
	char comm[16];
};

struct map {
	struct ent **b;
	size_t nb, n;
};

struct blkio {
	struct blkio_opts o;
	blkio_fn fn;
	void *ctx;
	struct tep_event *start, *issue, *complete, *getrq, *rq_merge, *front;
	struct map who, inflight;
	unsigned long long unmatched, puts;
	int self;
};

static struct blkio B;

/* hash - bucket of (dev, sector) */
static size_t hash(const struct map *m, unsigned int dev, unsigned long long sector)
{
	unsigned long long h = (sector ^ ((unsigned long long)dev << 40)) * 0x9e3779b97f4a7c15ULL;

	return (h >> 20) & (m->nb - 1);
}

/* map_grow - double the buckets when entries outnumber them twice */
static void map_grow(struct map *m)
{
	struct map nm = { .nb = m->nb ? m->nb * 2 : 1024 };
	struct ent *e, *next;
	size_t i;

	nm.b = calloc(nm.nb, sizeof(*nm.b));
	if (!nm.b)
		msg_die(EXIT_ERR, "out of memory");
	for (i = 0; i < m->nb; i++) {
		for (e = m->b[i]; e; e = next) {
			size_t h = hash(&nm, e->dev, e->sector);

			next = e->next;
			e->next = nm.b[h];
			nm.b[h] = e;
		}
	}
	free(m->b);
	nm.n = m->n;
	*m = nm;
}

/* map_take - unlink and return the entry for (dev, sector), or NULL */
static struct ent *map_take(struct map *m, unsigned int dev, unsigned long long sector)
{
	struct ent **pp, *e;

	if (!m->nb)
		return NULL;
	for (pp = &m->b[hash(m, dev, sector)]; (e = *pp); pp = &e->next) {
		if (e->dev == dev && e->sector == sector) {
			*pp = e->next;
			m->n--;
			return e;
		}
	}
	return NULL;
}

/* map_put - link e under its (dev, sector), replacing (and freeing) an older entry */
static void map_put(struct map *m, struct ent *e)
{
	size_t h;

	free(map_take(m, e->dev, e->sector));
	if (m->n >= m->nb * 2)
		map_grow(m);
	h = hash(m, e->dev, e->sector);
	e->next = m->b[h];
	m->b[h] = e;
	m->n++;
}

/* map_sweep - free entries older than `before` (all when before is ~0) */
static void map_sweep(struct map *m, unsigned long long before)
{
	struct ent **pp, *e;
	size_t i;

	for (i = 0; i < m->nb; i++) {
		for (pp = &m->b[i]; (e = *pp);) {
			if (e->ts < before) {
				*pp = e->next;
				m->n--;
				free(e);
			} else {
				pp = &e->next;
			}
		}
	}
}

/* new_ent - a zeroed entry for (dev, sector) */
static struct ent *new_ent(unsigned int dev, unsigned long long sector)
{
	struct ent *e = calloc(1, sizeof(*e));

	if (!e)
		msg_die(EXIT_ERR, "out of memory");
	e->dev = dev;
	e->sector = sector;
	return e;
}

/* blkio_parse_dev - "major,minor" as the kernel's dev_t encoding; usage error otherwise */
unsigned int blkio_parse_dev(const char *s, const char *what)
{
	unsigned long maj, min;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		opt_usage("%s: '%.40s' is not major,minor (eg, 8,0)", what, s);
	maj = strtoul(s, &end, 10);
	if (*end != ',' || !isdigit((unsigned char)end[1]))
		opt_usage("%s: '%.40s' is not major,minor (eg, 8,0)", what, s);
	min = strtoul(end + 1, &end, 10);
	if (*end)
		opt_usage("%s: '%.40s' is not major,minor (eg, 8,0)", what, s);
	if (maj > 4095 || min > 1048575)
		opt_usage("%s: %.40s is out of range (major 0-4095, minor 0-1048575)", what, s);
	return (unsigned int)(maj << 20 | min);
}

/* blkio_check_type - an rwbs glob the kernel filter takes safely; usage error otherwise */
void blkio_check_type(const char *s, const char *what)
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
		o->dev = blkio_parse_dev(arg, "-d");
		o->has_dev = 1;
		break;
	case 'i':
		blkio_check_type(arg, "-i");
		o->type = arg;
		break;
	case 'Q':
		o->queue = 1;
		break;
	}
}

/* blkio_dev_str - "major,minor" of a kernel dev value */
char *blkio_dev_str(unsigned int dev, char *buf, size_t len)
{
	snprintf(buf, len, "%u,%u", dev >> 20, dev & 0xfffff);
	return buf;
}

/* blkio_start_event - "block_rq_issue", or "block_rq_insert" with queue */
const char *blkio_start_event(const struct blkio_opts *o)
{
	return o->queue ? "block_rq_insert" : "block_rq_issue";
}

/* blkio_filter - the in-kernel filter for -d/-i ("" for none); caller frees */
char *blkio_filter(const struct blkio_opts *o)
{
	char *f = NULL;

	filter_cat(&f, "%s", "");
	if (o->type)
		filter_glob(&f, "rwbs", o->type);
	if (o->has_dev)
		filter_cat(&f, "%sdev == %u", o->type ? " && " : "", o->dev);
	return f;
}

/* dev_filter - the device part alone ("" for none); caller frees */
static char *dev_filter(const struct blkio_opts *o)
{
	char *f = NULL;

	filter_cat(&f, "%s", "");
	if (o->has_dev)
		filter_cat(&f, "dev == %u", o->dev);
	return f;
}

/* key - (dev, sector) of a block record */
static void key(struct tep_event *ev, struct tep_record *rec, unsigned int *dev,
		unsigned long long *sector)
{
	*dev = (unsigned int)decode_u64(ev, rec, "dev");
	*sector = decode_u64(ev, rec, "sector");
}

/* on_getrq - block_getrq: remember who submitted the request at (dev, sector) */
static void on_getrq(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	struct ent *e;
	unsigned int dev;
	unsigned long long sector;

	key(ev, rec, &dev, &sector);
	if (B.o.pid && !who_has(decode_pid(ev, rec)))
		return;		/* -p: not one of its tasks */
	e = new_ent(dev, sector);
	e->ts = rec->ts;
	e->pid = decode_pid(ev, rec);
	decode_str(ev, rec, "comm", e->comm, sizeof(e->comm));
	map_put(&B.who, e);
	/* requests merged into another never meet a start event: age them out */
	if (++B.puts % 4096 == 0 && rec->ts > WHO_MAX_AGE_NS)
		map_sweep(&B.who, rec->ts - WHO_MAX_AGE_NS);
}

/* on_start - issue (or insert): the request's clock starts; attach its submitter */
static void on_start(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	struct ent *e, *old, *w;
	unsigned int dev;
	unsigned long long sector;

	key(ev, rec, &dev, &sector);
	old = map_take(&B.inflight, dev, sector);
	/* queue mode: an issue only starts requests that were never inserted */
	if (old && B.o.queue && ev == B.issue) {
		map_put(&B.inflight, old);
		return;
	}
	e = new_ent(dev, sector);
	e->ts = rec->ts;
	e->left = decode_has(ev, "bytes") ? decode_u64(ev, rec, "bytes")
					  : decode_u64(ev, rec, "nr_sector") << 9;
	w = B.o.who ? map_take(&B.who, dev, sector) : NULL;
	if (w) {
		e->pid = w->pid;
		memcpy(e->comm, w->comm, sizeof(e->comm));
		free(w);
	} else if (old && old->pid != -1) {
		/* a requeued request keeps the submitter it had */
		e->pid = old->pid;
		memcpy(e->comm, old->comm, sizeof(e->comm));
	} else if (B.o.pid) {
		e->pid = -1;	/* not from a wanted process as far as we know */
	} else {
		e->pid = decode_pid(ev, rec);
		decode_str(ev, rec, "comm", e->comm, sizeof(e->comm));
	}
	free(old);
	map_put(&B.inflight, e);
}

/* on_complete - block_rq_complete: pair with the start, hand the I/O to the tool */
static void on_complete(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	struct blkio_done io;
	struct ent *e;
	unsigned long long n;

	key(ev, rec, &io.dev, &io.sector);
	e = map_take(&B.inflight, io.dev, io.sector);
	if (!e) {
		B.unmatched++;
		return;
	}
	n = decode_u64(ev, rec, "nr_sector") << 9;
	if (n && n < e->left) {
		/* a partial completion: the rest of the request now starts further on */
		e->bytes += n;
		e->left -= n;
		e->sector += n >> 9;
		map_put(&B.inflight, e);
		return;
	}
	if (e->pid == -1 || e->pid == B.self) {
		free(e);
		return;
	}
	io.bytes = e->bytes + n;
	io.start_ns = e->ts;
	io.end_ns = rec->ts;
	io.pid = e->pid;
	memcpy(io.comm, e->comm, sizeof(io.comm));
	decode_str(ev, rec, "rwbs", io.rwbs, sizeof(io.rwbs));
	free(e);
	B.fn(&io, B.ctx);
}

/* on_task - sched_process_fork and _exit: -p's set of tasks, in time order */
static void on_task(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	if (decode_has(ev, "child_pid"))
		who_fork((int)decode_s64(ev, rec, "parent_pid"), (int)decode_s64(ev, rec, "child_pid"));
	else
		who_exit((int)decode_s64(ev, rec, "pid"));
}

/* on_rq_merge - block_rq_merge: a queued request merged into another never completes */
static void on_rq_merge(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	unsigned int dev;
	unsigned long long sector;

	key(ev, rec, &dev, &sector);
	free(map_take(&B.inflight, dev, sector));
}

/* on_frontmerge - block_bio_frontmerge: a queued request now starts at the bio's sector */
static void on_frontmerge(struct tep_event *ev, struct tep_record *rec, void *aux, void *arg)
{
	unsigned int dev;
	unsigned long long sector, n;
	struct ent *e;

	key(ev, rec, &dev, &sector);
	n = decode_u64(ev, rec, "nr_sector");
	e = map_take(&B.inflight, dev, sector + n);
	if (!e)
		return;
	e->sector = sector;
	e->left += n << 9;
	map_put(&B.inflight, e);
}

/*
 * on_gap - events were lost: any start or submitter held may belong to a lost
 * completion. It runs as the gap is drained, before the time-order queue hands
 * on the records read just before it; a start among those is kept, and is
 * replaced by the next issue at its sector like any other.
 */
static void on_gap(int cpu, void *arg)
{
	map_sweep(&B.inflight, ~0ULL);
	map_sweep(&B.who, ~0ULL);
}

/* want - load an event's format; die if it is required and missing */
static struct tep_event *want(struct session *s, const char *name, int required)
{
	struct tep_event *ev = session_event(s, "block", name);

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
	char *f = blkio_filter(o), *df = dev_filter(o), self[32];

	B.o = *o;
	B.fn = fn;
	B.ctx = ctx;
	B.self = (int)getpid();
	reorder_init(s);	/* issue and completion: one clock for all CPUs */
	session_load(s, systems);
	B.issue = want(s, "block_rq_issue", 1);
	B.complete = want(s, "block_rq_complete", 1);
	B.start = o->queue ? want(s, "block_rq_insert", 1) : B.issue;
	if (o->who)
		B.getrq = want(s, "block_getrq", 1);
	if (o->queue) {
		B.rq_merge = want(s, "block_rq_merge", 0);
		B.front = want(s, "block_bio_frontmerge", 0);
	}
	if (!decode_has(B.start, "dev") || !decode_has(B.start, "sector") ||
	    !decode_has(B.complete, "nr_sector") || !decode_has(B.complete, "rwbs"))
		msg_die(EXIT_ERR, "block tracepoints lack the dev/sector/nr_sector/rwbs fields");
	stream_on_gap(on_gap, NULL);
	reorder_follow(s, "block", B.complete->name, f, NULL, on_complete);
	reorder_follow(s, "block", B.start->name, f, NULL, on_start);
	if (o->queue)
		reorder_follow(s, "block", B.issue->name, f, NULL, on_start);
	if (B.getrq)
		reorder_follow(s, "block", B.getrq->name, df, NULL, on_getrq);
	if (o->pid) {
		/*
		 * -p: block_getrq fires in the submitter's context, but the other
		 * block events do not (a kworker issues, an interrupt completes),
		 * so the instance's task list (who_events) cannot be used: the
		 * process's tasks are kept in user space from these two
		 */
		snprintf(self, sizeof(self), "common_pid != %d", B.self);
		reorder_follow(s, "sched", "sched_process_fork", self, NULL, on_task);
		reorder_follow(s, "sched", "sched_process_exit", self, NULL, on_task);
		who_track(o->pid);
	}
	if (B.rq_merge)
		reorder_follow(s, "block", B.rq_merge->name, f, NULL, on_rq_merge);
	if (B.front)
		reorder_follow(s, "block", B.front->name, df, NULL, on_frontmerge);
	free(f);
	free(df);
}

/* blkio_unmatched - completions dropped because their start was not traced */
unsigned long long blkio_unmatched(void)
{
	return B.unmatched;
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

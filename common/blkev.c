/* SPDX-License-Identifier: GPL-2.0-only */
/* blkev.c - the block tools' options, kernel filter and events, read into blkio's pairing
 *
 * A request is started by block:block_rq_issue (or block_rq_insert when queue
 * time is wanted) and finished by block:block_rq_complete; its submitter is
 * taken from block:block_getrq. Their fields are read by name from the binary
 * records, so the ioprio field newer kernels added moves nothing, and each
 * record goes to blkio.c's pairing. (block_bio_queue would do for the
 * submitter on 5.10 and 6.12, but Debian's 6.1 does not emit it for blk-mq
 * devices.)
 * The issue and the completion (and getrq and the issue) often fire on
 * different CPUs, microseconds apart: records are taken in time order over all
 * CPUs (reorder.c), else a drain could hand on a completion before an issue
 * committed on a CPU it had already found empty (1 I/O in 100000 here).
 * With -p, the process's tasks are followed in user space (fork and exit
 * events, who.c): the tasks it has, and those it starts.
 * The device -d names (a kernel name, a /dev path or major,minor) is looked up
 * in sysfs and must exist (blkdev.c); the block events report the whole disk
 * and its sector, so a partition becomes its disk and range of sectors in the
 * filter.
 * Cost: a copy of each record's fields; the events are filtered in the kernel
 * by device and type (with -p, every block_getrq and every fork and exit
 * reaches user space).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "blkdev.h"
#include "blkev.h"
#include "blkio.h"
#include "cgscope.h"
#include "decode.h"
#include "filter.h"
#include "format.h"
#include "msg.h"
#include "options.h"
#include "reorder.h"
#include "session.h"
#include "who.h"
#include "xalloc.h"

/* block_rq_issue's format: with -Q, an issue starts only what was never inserted */
static struct tep_event *issue;

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

/* blkev_option - see blkev.h */
void blkev_option(struct blkio_opts *o, int c, const char *arg)
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

/* blkev_filter - see blkev.h */
char *blkev_filter(const struct blkio_opts *o)
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

/* on_getrq - block_getrq: remember who submitted the request at (dev, sector) */
static void on_getrq(const struct stream_rec *r)
{
	struct blkio_rec b;

	rec_of(r->ev, r->rec, &b);
	blkio_getrq(&b);
}

/* on_start - issue (or insert): the request's clock starts; attach its submitter */
static void on_start(const struct stream_rec *r)
{
	struct blkio_rec b;

	rec_of(r->ev, r->rec, &b);
	blkio_start(&b, r->ev == issue);
}

/* on_complete - block_rq_complete: pair with the start, hand the I/O to the tool */
static void on_complete(const struct stream_rec *r)
{
	struct blkio_rec b;

	rec_of(r->ev, r->rec, &b);
	blkio_complete(&b);
}

/* on_task - sched_process_fork and _exit: -p's set of tasks, in time order */
static void on_task(const struct stream_rec *r)
{
	if (decode_has(r->ev, "child_pid"))
		who_fork((int)decode_s64(r->ev, r->rec, "parent_pid"),
			 (int)decode_s64(r->ev, r->rec, "child_pid"));
	else
		who_exit((int)decode_s64(r->ev, r->rec, "pid"));
}

/* key - (dev, sector) of a block record, the rest of r zero */
static void key(struct tep_event *ev, struct tep_record *rec, struct blkio_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->dev = (unsigned int)decode_u64(ev, rec, "dev");
	r->sector = decode_u64(ev, rec, "sector");
}

/* on_requeue - block_rq_requeue: the request goes back and is issued again */
static void on_requeue(const struct stream_rec *r)
{
	struct blkio_rec b;

	rec_of(r->ev, r->rec, &b);
	blkio_requeue(&b);
}

/* on_rq_merge - block_rq_merge: a queued request merged into another never completes */
static void on_rq_merge(const struct stream_rec *r)
{
	struct blkio_rec b;

	key(r->ev, r->rec, &b);
	blkio_merged(&b);
}

/* on_frontmerge - block_bio_frontmerge: a queued request now starts at the bio's sector */
static void on_frontmerge(const struct stream_rec *r)
{
	struct blkio_rec b;

	key(r->ev, r->rec, &b);
	b.nr_sector = decode_u64(r->ev, r->rec, "nr_sector");
	blkio_frontmerge(&b);
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

/* want - load an event's format; die if it is required and missing */
static struct tep_event *want(struct session *s, const char *name, int required)
{
	struct tep_event *ev = format_event(s, "block", name);

	if (!ev && required)
		msg_die(EXIT_ERR, "tracepoint block:%s not found (kernel without block tracing?)",
			name);
	return ev;
}

/* blkev_setup - see blkev.h */
void blkev_setup(struct session *s, const struct blkio_opts *o, blkio_fn fn, void *ctx)
{
	const char *systems[4 + CGSCOPE_NR_FORMATS] = { "block", "sched:sched_process_fork",
							 "sched:sched_process_exit" };
	struct tep_event *start, *complete, *getrq = NULL, *rq_merge = NULL, *front = NULL, *requeue;
	struct blkio_opts dev_only = *o;
	char *f = blkev_filter(o), *df, *self;

	/* the device part alone, for block_getrq and block_bio_frontmerge */
	dev_only.type = NULL;
	df = blkev_filter(&dev_only);
	/* issue and completion: one clock for all CPUs (--cgroup: its readings' too) */
	blkio_init(o, reorder_init(s, cgscope_need()), fn, ctx);
	systems[cgscope_formats(systems, 3)] = NULL;	/* --cgroup: its events too */
	format_load(s, systems);
	issue = want(s, "block_rq_issue", 1);
	complete = want(s, "block_rq_complete", 1);
	start = o->queue ? want(s, "block_rq_insert", 1) : issue;
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
	reorder_follow(s, "block", complete->name, f, on_complete, NULL);
	reorder_follow(s, "block", start->name, f, on_start, NULL);
	if (o->queue)
		reorder_follow(s, "block", issue->name, f, on_start, NULL);
	if (requeue)
		reorder_follow(s, "block", requeue->name, f, on_requeue, NULL);
	if (getrq)
		reorder_follow(s, "block", getrq->name, df, on_getrq, NULL);
	if (o->pid) {
		/*
		 * -p: block_getrq fires in the submitter's context, but the other
		 * block events do not (a kworker issues, an interrupt completes),
		 * so the instance's task list (who_events) cannot be used: the
		 * process's tasks are kept in user space from these two
		 */
		self = filter_build(0, NULL, NULL);
		reorder_follow(s, "sched", "sched_process_fork", self, on_task, NULL);
		reorder_follow(s, "sched", "sched_process_exit", self, on_task, NULL);
		free(self);
		who_track(o->pid);
	}
	if (rq_merge)
		reorder_follow(s, "block", rq_merge->name, f, on_rq_merge, NULL);
	if (front)
		reorder_follow(s, "block", front->name, df, on_frontmerge, NULL);
	free(f);
	free(df);
}


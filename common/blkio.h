/* SPDX-License-Identifier: GPL-2.0-only */
/* blkio.h - block I/O requests followed from submission to completion */
#ifndef FTT_BLKIO_H
#define FTT_BLKIO_H

#include <sys/types.h>

#include "blkdev.h"

/* one finished request, as blkio hands it to the tool */
struct blkio_done {
	unsigned int dev;		/* the kernel's encoding: major << 20 | minor */
	unsigned long long sector;	/* first sector when started */
	unsigned long long bytes;	/* bytes completed */
	char rwbs[16];			/* TYPE: R, W, WS, FF, ... */
	unsigned long long start_ns;	/* issue (or insert with queue) timestamp */
	unsigned long long end_ns;	/* completion timestamp */
	int mono;			/* the timestamps are CLOCK_MONOTONIC's */
	int pid;			/* submitting process (-1: not known) */
	char comm[16];
	const char *cg;			/* its cgroup then (--show-cgroup; NULL: not known) */
	unsigned int known;		/* BLKIO_* of the values above that are known */
};

#define BLKIO_LAT	1	/* start_ns: the request's own start */
#define BLKIO_SECTOR	2	/* sector */
#define BLKIO_BYTES	4	/* bytes */

typedef void (*blkio_fn)(const struct blkio_done *io, void *ctx);

/* the options of the block tools (blkev_option parses -d, -i and -Q) */
struct blkio_opts {
	int queue;		/* start at block_rq_insert (queue time included) */
	int has_dev;		/* only device dev */
	struct blkdev dev;
	const char *type;	/* rwbs glob, or NULL */
	pid_t pid;		/* only I/O submitted by this process's tasks (0: all) */
	int who;		/* follow the submitting process (block_getrq) */
};

/* one block event's fields, as the pairing takes them */
struct blkio_rec {
	unsigned int dev;
	unsigned long long sector;
	unsigned long long nr_sector;	/* 512-byte sectors */
	unsigned long long bytes;	/* the issue's bytes (nr_sector << 9 where absent) */
	char rwbs[16];
	unsigned long long ts;
	int pid;			/* the task the event fired in */
	char comm[16];
};

/*
 * blkio_init - empty the pairing state and hand finished I/O to fn, its times
 * CLOCK_MONOTONIC's if mono (blkev_setup calls it)
 */
void blkio_init(const struct blkio_opts *o, int mono, blkio_fn fn, void *ctx);
/* blkio_getrq - a request allocated in its submitter's context (block_getrq) */
void blkio_getrq(const struct blkio_rec *r);
/* blkio_start - a request issued (issue 1) or, with -Q, inserted (issue 0) */
void blkio_start(const struct blkio_rec *r, int issue);
/* blkio_requeue - a request sent back to be issued again (block_rq_requeue) */
void blkio_requeue(const struct blkio_rec *r);
/* blkio_complete - a request (or a part of one) completed: fn gets it once it is whole */
void blkio_complete(const struct blkio_rec *r);
/* blkio_merged - a queued request merged into another (block_rq_merge): it never completes */
void blkio_merged(const struct blkio_rec *r);
/* blkio_frontmerge - a bio of r->nr_sector sectors merged in front of a queued
 * request (block_bio_frontmerge): the request now starts at r->sector */
void blkio_frontmerge(const struct blkio_rec *r);
/* blkio_forget - events were lost: forget every start and submitter held */
void blkio_forget(void);
/* blkio_held - starts and submitters held now (in flight, or not yet issued) */
unsigned long long blkio_held(void);
/* blkio_unmatched - completions so far that had no traced start */
unsigned long long blkio_unmatched(void);
/*
 * blkio_unsure - requests left out because their submitter is not known
 * (several at one sector, not all one process's): by -p here, or by the
 * tool's own filter on the submitter (blkio_left_out)
 */
unsigned long long blkio_unsure(void);
/* blkio_left_out - the tool left out a request it got with pid -1, for its filter */
void blkio_left_out(void);
/* blkio_report - say on stderr how many completions were ignored for want of
 * a traced start, and how many blkio_unsure left out */
void blkio_report(void);

#endif

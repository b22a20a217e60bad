/* SPDX-License-Identifier: GPL-2.0-only */
/* rp_blkio - block I/O pairing (blkio.c, set up by blkev.c as for iosnoop and
 * iolatency) over replayed block records: what is paired, and what a gap forgets */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkev.h"
#include "blkio.h"
#include "replay.h"

#define DEV "dev=0x800010"	/* 8,16 */

/* done - the tool's handler: one line per finished I/O */
static void done(const struct blkio_done *io, void *ctx)
{
	(void)ctx;
	printf("io sector=%llu bytes=%llu start=%llu end=%llu pid=%d\n", io->sector, io->bytes,
	       io->start_ns, io->end_ns, io->pid);
}

/* setup - blkio's own setup, defaults (no -d, -i, -Q, -p) */
static void setup(void)
{
	struct blkio_opts o = { 0 };

	blkev_setup(rp_session(), &o, done, NULL);
}

/* pairs - an issue and its completion on another CPU, read a drain later */
static void pairs(void)
{
	setup();
	rp_rec(0, 1000, "block:block_rq_issue", DEV " sector=100 nr_sector=8 bytes=4096 "
	       "rwbs=R comm=dd common_pid=1234");
	rp_page(1, 1, 0);
	rp_rec(1, 4000, "block:block_rq_complete", DEV " sector=100 nr_sector=8 rwbs=R");
	rp_run();
	blkio_report();
}

/*
 * gap_after_queued_issue - CPU 1's issue at sector 100 (t=1000) is read, and
 * still queued, when CPU 0's gap (first record after it at t=3000) is read:
 * the lost events can hold that I/O's completion and a new issue at the same
 * sector, so the completion at t=5000 must not be paired with t=1000
 */
static void gap_after_queued_issue(void)
{
	setup();
	rp_rec(1, 1000, "block:block_rq_issue", DEV " sector=100 nr_sector=8 bytes=4096 "
	       "rwbs=R comm=dd common_pid=1234");
	rp_page(0, 0, 3);
	rp_rec(0, 3000, "block:block_rq_issue", DEV " sector=500 nr_sector=8 bytes=4096 "
	       "rwbs=R comm=dd common_pid=1234");
	rp_page(1, 1, 0);
	rp_rec(1, 5000, "block:block_rq_complete", DEV " sector=100 nr_sector=8 rwbs=R");
	rp_rec(1, 6000, "block:block_rq_complete", DEV " sector=500 nr_sector=8 rwbs=R");
	rp_run();
	blkio_report();
}

/*
 * gap_then_unknown_record - the same, but the first record after the loss is
 * of an event the run has no format for (skipped): the gap is still a gap
 */
static void gap_then_unknown_record(void)
{
	setup();
	rp_rec(1, 1000, "block:block_rq_issue", DEV " sector=100 nr_sector=8 bytes=4096 "
	       "rwbs=R comm=dd common_pid=1234");
	rp_page(0, 0, 3);
	rp_rec(0, 2900, "?", NULL);
	rp_page(0, 0, 0);
	rp_rec(0, 3000, "block:block_rq_issue", DEV " sector=500 nr_sector=8 bytes=4096 "
	       "rwbs=R comm=dd common_pid=1234");
	rp_page(1, 1, 0);
	rp_rec(1, 5000, "block:block_rq_complete", DEV " sector=100 nr_sector=8 rwbs=R");
	rp_rec(1, 6000, "block:block_rq_complete", DEV " sector=500 nr_sector=8 rwbs=R");
	rp_run();
	blkio_report();
}

/* partial - a request completed in two parts: one I/O at its first sector,
 * from its issue to its last part */
static void partial(void)
{
	setup();
	rp_rec(0, 1000, "block:block_rq_issue", DEV " sector=100 nr_sector=8 bytes=4096 "
	       "rwbs=W comm=dd common_pid=1234");
	rp_rec(1, 2000, "block:block_rq_complete", DEV " sector=100 nr_sector=4 rwbs=W");
	rp_page(0, 1, 0);
	rp_rec(0, 3000, "block:block_rq_complete", DEV " sector=104 nr_sector=4 rwbs=W");
	rp_run();
	blkio_report();
}

int main(void)
{
	char *out;

	out = rp_case(pairs);
	rp_check("blkio/pair_across_cpus_and_drains",
		 rp_lines(out, "io sector=100 bytes=4096 start=1000 end=4000 pid=1234") == 1 &&
		 rp_lines(out, "io ") == 1, out);
	free(out);
	out = rp_case(gap_after_queued_issue);
	rp_check("blkio/gap_forgets_issue_queued_before_it",
		 rp_lines(out, "io sector=500 bytes=4096 start=3000 end=6000 pid=1234") == 1 &&
		 rp_lines(out, "io ") == 1 && rp_lines(out, "ignored 1 completion") == 1, out);
	free(out);
	out = rp_case(gap_then_unknown_record);
	rp_check("blkio/gap_before_a_record_of_no_known_event",
		 rp_lines(out, "io sector=500 bytes=4096 start=3000 end=6000 pid=1234") == 1 &&
		 rp_lines(out, "io ") == 1 && rp_lines(out, "ignored 1 completion") == 1, out);
	free(out);
	out = rp_case(partial);
	rp_check("blkio/partial_completion",
		 rp_lines(out, "io sector=100 bytes=4096 start=1000 end=3000 pid=1234") == 1 &&
		 rp_lines(out, "io ") == 1 && rp_lines(out, "ignored") == 0, out);
	free(out);
	return rp_done("replay blkio");
}

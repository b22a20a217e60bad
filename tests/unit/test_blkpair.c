/* SPDX-License-Identifier: GPL-2.0-only */
/* test_blkpair - blkio's pairing of block records, fed exact sequences of
 * getrq, issue, requeue and complete records as the kernel emits them
 * (cache flushes, two requests at one sector, partial completions, -p) */
#include "blkio.h"
#include "msg.h"
#include "unit.h"
#include "who.h"

#define D	(7U << 20)		/* dev 7,0 */
#define FLUSH_SECTOR 18446744073709551615ULL	/* what block_rq_complete reports for a flush */
#define MS	1000000ULL

static char rows[4096];

/* row - one finished I/O as "COMM PID TYPE BLOCK BYTES LATus;", unknowns as '?' */
static void row(const struct blkio_done *io, void *ctx)
{
	char b[200], sec[24] = "?", by[24] = "?", lat[24] = "?";

	(void)ctx;
	if (io->known & BLKIO_SECTOR)
		snprintf(sec, sizeof(sec), "%llu", io->sector);
	if (io->known & BLKIO_BYTES)
		snprintf(by, sizeof(by), "%llu", io->bytes);
	if (io->known & BLKIO_LAT)
		snprintf(lat, sizeof(lat), "%llu", (io->end_ns - io->start_ns) / 1000);
	snprintf(b, sizeof(b), "%s %s%d %s %s %s %s;", io->pid < 0 ? "?" : io->comm,
		 io->pid < 0 ? "?" : "", io->pid < 0 ? 0 : io->pid, io->rwbs, sec, by, lat);
	if (io->pid < 0)
		snprintf(b, sizeof(b), "? ? %s %s %s %s;", io->rwbs, sec, by, lat);
	strncat(rows, b, sizeof(rows) - strlen(rows) - 1);
}

/* rec - a record of dev 7,0 */
static struct blkio_rec rec(unsigned long long ts, int pid, const char *comm, const char *rwbs,
			    unsigned long long sector, unsigned long long nr)
{
	struct blkio_rec r;

	memset(&r, 0, sizeof(r));
	r.dev = D;
	r.sector = sector;
	r.nr_sector = nr;
	r.bytes = nr << 9;
	snprintf(r.rwbs, sizeof(r.rwbs), "%s", rwbs);
	r.ts = ts;
	r.pid = pid;
	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	return r;
}

#define GETRQ(ts, pid, comm, rwbs, sec, nr)	do { struct blkio_rec r_ = rec(ts, pid, comm, rwbs, sec, nr); blkio_getrq(&r_); } while (0)
#define ISSUE(ts, pid, comm, rwbs, sec, nr)	do { struct blkio_rec r_ = rec(ts, pid, comm, rwbs, sec, nr); blkio_start(&r_, 1); } while (0)
#define REQUEUE(ts, rwbs, sec, nr)		do { struct blkio_rec r_ = rec(ts, 0, "", rwbs, sec, nr); blkio_requeue(&r_); } while (0)
#define DONE(ts, rwbs, sec, nr)			do { struct blkio_rec r_ = rec(ts, 0, "", rwbs, sec, nr); blkio_complete(&r_); } while (0)

/* begin - a new run with these options */
static void begin(pid_t pid)
{
	struct blkio_opts o;

	memset(&o, 0, sizeof(o));
	o.who = 1;
	o.pid = pid;
	blkio_init(&o, 0, row, NULL);
	rows[0] = '\0';
}

/* expect - the rows and the count of unmatched completions are exactly these */
static void expect(const char *name, const char *want, unsigned long long unmatched)
{
	CHECK(name, !strcmp(rows, want) && blkio_unmatched() == unmatched);
	if (strcmp(rows, want) || blkio_unmatched() != unmatched)
		printf("     got:  '%s' unmatched %llu\n     want: '%s' unmatched %llu\n", rows,
		       blkio_unmatched(), want, unmatched);
}

/* the events of one fdatasync() on a loop device, as traced on 6.18 */
static void fdatasync_once(unsigned long long t)
{
	GETRQ(t, 100, "fsw", "WS", 0, 8);
	ISSUE(t + 10000, 100, "fsw", "WS", 0, 8);
	DONE(t + 100000, "WS", 0, 8);
	GETRQ(t + 300000, 100, "fsw", "FWS", 0, 0);
	ISSUE(t + 315000, 58, "kworker/1:1H", "FF", 0, 0);
	DONE(t + 1236000, "FF", FLUSH_SECTOR, 0);
	DONE(t + 1239000, "WS", 0, 0);	/* the empty request the flush served, never issued */
}

/* two_writes - a's write of 4 kB at sector, then b's there, both in flight, then both done */
static void two_writes(int pa, const char *ca, int pb, const char *cb, unsigned long long sector)
{
	GETRQ(MS, pa, ca, "W", sector, 8);
	ISSUE(MS + 1000, pa, ca, "W", sector, 8);
	GETRQ(2 * MS, pb, cb, "W", sector, 8);
	ISSUE(2 * MS + 1000, pb, cb, "W", sector, 8);
	DONE(3 * MS, "W", sector, 8);
	DONE(5 * MS, "W", sector, 8);
}

int main(void)
{
	char want[1024];
	int i;

	msg_init("test_blkpair");

	/* a flush: its own row (type FF, no block, 0 bytes), paired with its completion */
	begin(0);
	fdatasync_once(MS);
	expect("flush", "fsw 100 WS 0 4096 90;kworker/1:1H 58 FF ? 0 921;", 0);
	begin(0);
	want[0] = '\0';
	for (i = 0; i < 5; i++) {
		fdatasync_once((unsigned long long)(i + 1) * 10 * MS);
		strcat(want, "fsw 100 WS 0 4096 90;kworker/1:1H 58 FF ? 0 921;");
	}
	expect("flush x5", want, 0);

	/* two flushes in flight on one device: which completion is whose is unknown */
	begin(0);
	ISSUE(MS, 301, "pg1", "FF", 0, 0);
	ISSUE(2 * MS, 302, "pg2", "FF", 0, 0);
	DONE(3 * MS, "FF", FLUSH_SECTOR, 0);
	DONE(5 * MS, "FF", FLUSH_SECTOR, 0);
	expect("flush collision", "? ? FF ? 0 ?;? ? FF ? 0 ?;", 0);

	/* two writes in flight at one sector: neither latency nor submitter is known */
	begin(0);
	two_writes(201, "a", 202, "b", 800);
	expect("same sector", "? ? W 800 4096 ?;? ? W 800 4096 ?;", 0);
	CHECK("same sector, without -p none left out", blkio_unsure() == 0);
	/* ... the same submitter for both: that much is known */
	begin(0);
	two_writes(201, "a", 201, "a", 800);
	expect("same sector, same task", "a 201 W 800 4096 ?;a 201 W 800 4096 ?;", 0);
	/* ... and once both are done, the next request there pairs again */
	ISSUE(6 * MS, 203, "c", "W", 800, 8);
	DONE(7 * MS, "W", 800, 8);
	expect("same sector, then alone",
	       "a 201 W 800 4096 ?;a 201 W 800 4096 ?;c 203 W 800 4096 1000;", 0);

	/* a request without data that is no flush (passthrough): apart from writes there */
	begin(0);
	ISSUE(MS, 500, "smartctl", "N", 0, 0);
	GETRQ(MS + 1000, 501, "w", "W", 0, 8);
	ISSUE(MS + 2000, 501, "w", "W", 0, 8);
	DONE(2 * MS + 2000, "W", 0, 8);
	DONE(3 * MS, "N", 0, 0);
	expect("no data, no flush", "w 501 W 0 4096 1000;smartctl 500 N 0 0 2000;", 0);
	CHECK("no data, no flush: nothing held", blkio_held() == 0);

	/* a requeued request: issued again, still its own (timed from its last issue) */
	begin(0);
	GETRQ(MS, 401, "rq", "R", 64, 8);
	ISSUE(MS + 1000, 401, "rq", "R", 64, 8);
	REQUEUE(2 * MS, "R", 64, 8);
	ISSUE(3 * MS, 77, "kworker/0:1H", "R", 64, 8);
	DONE(3 * MS + 500000, "R", 64, 8);
	expect("requeue", "rq 401 R 64 4096 500;", 0);
	CHECK("requeue, nothing held", blkio_held() == 0);

	/* a request completed in three parts: its first sector and all its bytes */
	begin(0);
	GETRQ(MS, 400, "dd", "W", 1000, 24);
	ISSUE(MS + 1000, 400, "dd", "W", 1000, 24);
	DONE(2 * MS, "W", 1000, 8);
	DONE(3 * MS, "W", 1008, 8);
	DONE(4 * MS + 1000, "W", 1016, 8);
	expect("partial", "dd 400 W 1000 12288 3000;", 0);

	/* -p: another task's request at the sector where a traced one was merged away */
	begin(getppid());
	who_track(getppid());
	GETRQ(MS, getppid(), "me", "W", 500, 8);	/* merged, never issued */
	GETRQ(2 * MS, 999999, "other", "W", 500, 8);
	ISSUE(2 * MS + 1000, 999999, "other", "W", 500, 8);
	DONE(3 * MS, "W", 500, 8);
	expect("-p stale submitter", "", 0);
	CHECK("-p stale submitter, not counted as unsure", blkio_unsure() == 0);

	/* -p: the traced process's write and another's in flight at one sector:
	 * neither is shown, and both are counted as left out (without -p both
	 * are shown, their submitter unknown: "same sector" above) */
	begin(getppid());
	who_track(getppid());
	two_writes(getppid(), "me", 999999, "other", 600);
	expect("-p same sector", "", 0);
	CHECK("-p same sector, counted", blkio_unsure() == 2);
	if (blkio_unsure() != 2)
		printf("     unsure: %llu\n", blkio_unsure());

	/* a start whose completion never comes is not held for ever */
	begin(0);
	CHECK("a new run has left nothing out", blkio_unsure() == 0);
	ISSUE(MS, 1, "x", "W", 100, 8);
	GETRQ(MS, 1, "x", "W", 900, 8);
	for (i = 1; i <= 400; i++) {
		ISSUE((unsigned long long)i * 1000 * MS, 2, "y", "W", 200, 8);
		DONE((unsigned long long)i * 1000 * MS + 1000, "W", 200, 8);
	}
	CHECK("aged out", blkio_held() == 0);
	if (blkio_held())
		printf("     held: %llu\n", blkio_held());
	rows[0] = '\0';
	DONE(401000 * MS, "W", 100, 8);
	expect("aged out, its completion", "", 1);

	/* lost events: what was held may belong to a lost completion */
	begin(0);
	ISSUE(MS, 1, "x", "W", 300, 8);
	blkio_forget();
	DONE(2 * MS, "W", 300, 8);
	expect("gap", "", 1);

	return unit_done("blkpair");
}

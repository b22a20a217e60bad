/* SPDX-License-Identifier: GPL-2.0-only */
/* test_stream - the stream's bookkeeping without a kernel: how many records
 * one drain hands on (its record and time budget, a stop), in what order over
 * the CPUs, to which handler, how far each CPU is known to be read after a
 * drain (stream_horizon), and the ring buffer size it asks for. stream.c is
 * built in, its per-CPU readers handing out pages the test lays out as the
 * kernel's ring buffer does (two CPUs), and the available memory made up. */
#include <errno.h>
#include <stdbool.h>
#include <tracefs.h>

#include "procread.h"
#include "session.h"
#include "signals.h"
#include "unit.h"

#define PAGE 4096
#define PAGE_HDR 16		/* the page's timestamp, then its commit word */
#define REC_LEN 16		/* a record: its header word, 8 bytes of common fields, n */
#define NPAGES 160
#define NCPU 2

/* ---- the two CPUs' ring buffers ---- */

static unsigned char pages[NCPU][NPAGES][PAGE];
static size_t used[NCPU][NPAGES];
static int npages[NCPU], nread[NCPU];
static unsigned long long last_ts[NCPU];
static int cpu_ids[NCPU] = { 0, 1 };
static long avail_kb;		/* MemAvailable, as /proc/meminfo would say */

/* put - on CPU, a record of event ID stamped TS holding N (a page read is never added to) */
static void put(int cpu, unsigned long long ts, int id, unsigned int n)
{
	unsigned char *p;
	unsigned int hdr;
	unsigned short type = (unsigned short)id;
	unsigned long long commit;
	int k = npages[cpu] - 1;

	if (k < 0 || nread[cpu] > k || PAGE_HDR + used[cpu][k] + REC_LEN > PAGE) {
		k = npages[cpu]++;
		if (k == NPAGES) {
			printf("FAIL stream: more than %d pages on a CPU\n", NPAGES);
			exit(1);
		}
		memcpy(pages[cpu][k], &ts, 8);
		used[cpu][k] = 0;
		last_ts[cpu] = ts;
	}
	p = pages[cpu][k] + PAGE_HDR + used[cpu][k];
	hdr = 3 | (unsigned int)(ts - last_ts[cpu]) << 5;	/* 3 words of data, the delta */
	memset(p, 0, REC_LEN);
	memcpy(p, &hdr, 4);
	memcpy(p + 4, &type, 2);
	memcpy(p + 12, &n, 4);
	used[cpu][k] += REC_LEN;
	last_ts[cpu] = ts;
	commit = used[cpu][k];
	memcpy(pages[cpu][k] + 8, &commit, 8);
}

static struct tracefs_cpu *fake_cpu_open(struct tracefs_instance *inst, int cpu, bool nonblock)
{
	(void)inst, (void)nonblock;
	if (cpu >= NCPU) {
		errno = ENOENT;
		return NULL;
	}
	return (struct tracefs_cpu *)&cpu_ids[cpu];
}

static void fake_cpu_close(struct tracefs_cpu *tcpu)
{
	(void)tcpu;
}

static int fake_cpu_read_size(struct tracefs_cpu *tcpu)
{
	(void)tcpu;
	return PAGE;
}

/* fake_cpu_read - the CPU's next page, or none (-1, EAGAIN) */
static int fake_cpu_read(struct tracefs_cpu *tcpu, void *buf, bool nonblock)
{
	int cpu = *(int *)tcpu;

	(void)nonblock;
	if (nread[cpu] == npages[cpu]) {
		errno = EAGAIN;
		return -1;
	}
	memcpy(buf, pages[cpu][nread[cpu]++], PAGE);
	return PAGE;
}

static long fake_file_number(const char *path, const char *key)
{
	return !strcmp(path, "/proc/meminfo") && !strcmp(key, "MemAvailable") ? avail_kb : -1;
}

#define tracefs_cpu_open fake_cpu_open
#define tracefs_cpu_close fake_cpu_close
#define tracefs_cpu_read_size fake_cpu_read_size
#define tracefs_cpu_read fake_cpu_read
#define proc_file_number fake_file_number
#include "../../common/stream.c"

/* ---- what was handed on ---- */

#define MAX_LOG 40000

/* a record handed on: to which handler ('a', or '*' for the rest), from where, its n */
struct taken {
	char who;
	int cpu;
	unsigned long long ts;
	unsigned int n;
};

static struct taken got[MAX_LOG];
static int ngot;
static struct session sess;
static struct tep_event *ev_a, *ev_b;

/* take - a handler: log the record, and which handler had it ('a', or '*' for the rest) */
static void take(const struct stream_rec *r)
{
	unsigned int n;

	memcpy(&n, (unsigned char *)r->rec->data + 8, 4);
	if (ngot < MAX_LOG)
		got[ngot++] = (struct taken){ *(const char *)r->ctx, r->cpu, r->rec->ts, n };
}

/* order - the log as "who:n" words (the first 20) */
static const char *order(void)
{
	static char buf[512];
	int i;

	buf[0] = '\0';
	for (i = 0; i < ngot && i < 20; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%c:%u", i ? " " : "",
			 got[i].who, got[i].n);
	return buf;
}

/* fresh - no readers, nothing read, nothing laid out, nothing handed on */
static void fresh(void)
{
	close_cursors(NULL);
	memset(npages, 0, sizeof(npages));
	memset(nread, 0, sizeof(nread));
	newest = 0;
	ngot = 0;
}

static const char fmt_a[] =
	"name: a\nID: 1\nformat:\n" UNIT_COMMON_FIELDS
	"\tfield:unsigned int n;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"n=%u\", REC->n\n";
static const char fmt_b[] =
	"name: b\nID: 2\nformat:\n" UNIT_COMMON_FIELDS
	"\tfield:unsigned int n;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"n=%u\", REC->n\n";
static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

/* the handler of a record's event, else the catch-all; merged by time over the CPUs */
static void test_dispatch(void)
{
	fresh();
	put(0, 100, 1, 1);
	put(0, 300, 2, 3);
	put(1, 200, 2, 2);
	put(1, 250, 3, 9);	/* an event no format describes: skipped */
	put(1, 400, 1, 4);
	CHECK("dispatch: all read in one drain", drain(&sess, clock_s() + 10, 1) == 0);
	CHECK("dispatch: by event, in time order", !strcmp(order(), "a:1 *:2 *:3 a:4"));
	if (strcmp(order(), "a:1 *:2 *:3 a:4"))
		printf("     got '%s'\n", order());
	CHECK("dispatch: the CPU of each", ngot == 4 && got[0].cpu == 0 && got[1].cpu == 1 &&
	      got[2].cpu == 0 && got[3].cpu == 1);
}

/* in_order - the log holds records 0..N-1 in order, with their stamps FIRST + STEP * n */
static int in_order(int n, unsigned long long first, unsigned long long step)
{
	int i;

	if (ngot != n)
		return 0;
	for (i = 0; i < n; i++)
		if (got[i].n != (unsigned int)i || got[i].ts != first + step * i)
			return 0;
	return 1;
}

/* a drain's budget: 16384 records, or the time (checked every 256), or a stop */
static void test_budget(void)
{
	int i;

	fresh();
	for (i = 0; i < 20000; i++)
		put(0, 1000 + 10 * (unsigned long long)i, 1, i);
	CHECK("budget: a drain stops after 16384 records", drain(&sess, clock_s() + 60, 1) == 1);
	CHECK("budget: 16384 handed on", in_order(16384, 1000, 10));
	CHECK("budget: the next record waits in the reader", cursors[0].at &&
	      cursors[0].rec.ts == 1000 + 10 * 16384ULL);
	CHECK("budget: the rest in the next drain", drain(&sess, clock_s() + 60, 1) == 0);
	CHECK("budget: all 20000 handed on, once, in order", in_order(20000, 1000, 10));

	/* time is up: the drain stops at the first look at the clock, after 255 */
	fresh();
	for (i = 0; i < 2000; i++)
		put(1, 5000 + (unsigned long long)i, 1, i);
	CHECK("budget: out of time", drain(&sess, clock_s() - 1, 1) == 1);
	CHECK("budget: out of time, 255 handed on", in_order(255, 5000, 1));
	CHECK("budget: out of time again", drain(&sess, clock_s() - 1, 1) == 1);
	CHECK("budget: out of time again, 510 handed on", in_order(510, 5000, 1));

	/* a stop signal ends a drain that stops on one; the last drains read on */
	sig_stop = 1;
	CHECK("budget: a stop", drain(&sess, clock_s() + 60, 1) == 1);
	CHECK("budget: a stop, 255 more", in_order(765, 5000, 1));
	CHECK("budget: a stop, read on by the last drains", drain(&sess, clock_s() + 60, 0) == 0);
	CHECK("budget: a stop, all 2000", in_order(2000, 5000, 1));
	sig_stop = 0;
}

/* known - CHECK each CPU's "known read" and the horizon after a drain */
static void known(const char *name, unsigned long long k0, unsigned long long k1,
		  unsigned long long h)
{
	CHECK(name, cursors[0].known == k0 && cursors[1].known == k1 && stream_horizon() == h);
	if (cursors[0].known != k0 || cursors[1].known != k1 || stream_horizon() != h)
		printf("     known %llu %llu, horizon %llu; wanted %llu %llu, %llu\n",
		       cursors[0].known, cursors[1].known, stream_horizon(), k0, k1, h);
}

/* one drain of a timeline: the records added before it ("CPU:TS ..."), then
 * how far each CPU is known read and the horizon */
struct step {
	const char *add;
	unsigned long long k0, k1, h;
	const char *what;
};

/* timeline - from nothing read, the drains of STEPS, each checked */
static void timeline(const struct step *steps, int n)
{
	char label[160], *end;
	const char *p;
	unsigned int seq = 0;
	long cpu;
	int i;

	fresh();
	for (i = 0; i < n; i++) {
		for (p = steps[i].add; *p; p = end + strspn(end, " ")) {
			cpu = strtol(p, &end, 10);
			put((int)cpu, strtoull(end + 1, &end, 10), 1, seq++);
		}
		drain(&sess, clock_s() + 60, 1);
		snprintf(label, sizeof(label), "horizon: %s", steps[i].what);
		known(label, steps[i].k0, steps[i].k1, steps[i].h);
	}
}

/*
 * how far each CPU is known read: to just before the record its reader holds,
 * or, for a CPU found empty, to what had been read when it was found empty a
 * drain earlier (a record reserved before one already read is committed by then)
 */
static void test_horizon(void)
{
	static const struct step one_empty[] = {
		{ "0:10 0:20 0:30", 0, 0, 0, "first drain, nothing known" },
		{ "", 30, 0, 0, "CPU 0 found empty at 30, CPU 1 at 0" },
		{ "", 30, 30, 30, "both found empty at 30" },
	};
	static const struct step each[] = {
		{ "0:10 1:20 0:30 1:40", 0, 0, 0, "both read, nothing known" },
		{ "", 30, 40, 30, "CPU 0 found empty at 30, CPU 1 at 40" },
		{ "1:50", 40, 40, 40, "both found empty at 40 the drain before" },
		{ "", 40, 50, 40, "CPU 0 found empty before 50 was read: still 40" },
		{ "", 50, 50, 50, "both found empty at 50 the drain before" },
	};
	int i;

	fresh();
	CHECK("horizon: no CPU read", stream_horizon() == ~0ULL);
	timeline(one_empty, 3);
	timeline(each, 5);

	/* a drain cut short: CPU 0 is known to just before the record it holds,
	 * and CPU 1, empty, holds the horizon back for what it may still bring */
	fresh();
	for (i = 0; i < 17000; i++)
		put(0, 1000 + 10 * (unsigned long long)i, 1, i);
	drain(&sess, clock_s() + 60, 1);
	known("horizon: cut short", 1000 + 10 * 16384ULL - 1, 0, 0);
	put(1, 500, 1, 17000);	/* older than what CPU 0 read */
	ngot = 0;
	drain(&sess, clock_s() + 60, 1);
	CHECK("horizon: the older record before CPU 0's rest",
	      ngot == 17000 - 16384 + 1 && got[0].n == 17000 && got[1].n == 16384);
	known("horizon: all read, CPU 0 still to its held record", 1000 + 10 * 16384ULL - 1, 0, 0);
	drain(&sess, clock_s() + 60, 1);
	/* CPU 1 was found empty after CPU 0's 16384th record, before the rest */
	known("horizon: each to what was read when it was found empty",
	      1000 + 10 * 16999ULL, 1000 + 10 * 16383ULL, 1000 + 10 * 16383ULL);
}

/* size - stream_size_buffer with the instance's buffer at CUR kB and AVAIL kB
 * available: the size written, or -1 if none */
static long size(const char *cur, long avail)
{
	char *text;
	long kb;

	avail_kb = avail;
	tracefs_instance_file_write(sess.inst, "buffer_size_kb", cur);
	stream_size_buffer(&sess);
	text = tracefs_instance_file_read(sess.inst, "buffer_size_kb", NULL);
	kb = text && strcmp(text, cur) ? atol(text) : -1;
	free(text);
	return kb;
}

/* the ring buffer asked for: 32 MB a CPU, 64 MB in all, 1/128 of the memory available */
static void test_size(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), all = 65536 / ncpu;
	long want = all < 32768 ? all : 32768, small = 2097152 / 128 / ncpu;
	char label[96];

	snprintf(label, sizeof(label), "size: %ld CPUs, plenty of memory: %ld kB", ncpu, want);
	CHECK(label, size("1408", 64L << 20) == want);
	CHECK("size: MemAvailable unknown, the same", size("1408", -1) == want);
	snprintf(label, sizeof(label), "size: %ld CPUs, 2 GB available: %ld kB", ncpu, small);
	CHECK(label, size("1408", 2097152) == small);
	CHECK("size: never shrinks a larger buffer", size("40000", 64L << 20) == -1);
	CHECK("size: an equal one is left alone", size("8192", 8192L * 128 * ncpu) == -1);
}

int main(void)
{
	static char dir[128];
	if (sysconf(_SC_NPROCESSORS_CONF) < NCPU)
		return unit_skip("stream", "fewer than 2 CPUs configured: the merge needs two readers");
	unit_tmpdir(dir, sizeof(dir), "stream");
	unit_put(dir, "instances/ftt-unit-1-2/buffer_size_kb", "1408\n");
	snprintf(sess.name, sizeof(sess.name), "ftt-unit-1-2");
	sess.inst = tracefs_instance_alloc(dir, sess.name);
	sess.tep = tep_alloc();
	if (!sess.inst || !sess.tep)
		return unit_skip("stream", "no stand-in instance or event handle");
	tep_parse_header_page(sess.tep, (char *)header_page, sizeof(header_page) - 1, 8);
	if (tep_parse_format(sess.tep, &ev_a, fmt_a, strlen(fmt_a), "unit") ||
	    tep_parse_format(sess.tep, &ev_b, fmt_b, strlen(fmt_b), "unit")) {
		printf("FAIL stream: the test's formats do not parse\n");
		return 1;
	}
	/* the catch-all first: a record's own handler comes before it anyway */
	stream_on(NULL, take, "*");
	stream_on(ev_a, take, "a");

	test_dispatch();
	test_budget();
	test_horizon();
	test_size();

	close_cursors(NULL);
	tracefs_instance_free(sess.inst);
	tep_free(sess.tep);
	if (unit_rmtree(dir) != 0)
		printf("FAIL stream: could not remove %s\n", dir);
	return unit_done("stream");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* iolatency - summarize block I/O latency as a histogram, every interval
 *
 * Follows each request from block:block_rq_issue (block_rq_insert with -Q) to
 * block:block_rq_complete, paired by (device, sector), and counts its latency
 * in power-of-two buckets of milliseconds (microseconds with -m), one
 * histogram per interval, or one per disk with -D. Device and type filters run
 * in the kernel. Two events per I/O (three with -Q) are copied to user space
 * and paired there; the ring buffers are drained every 50 ms, so no I/O is
 * lost between intervals.
 *
 * With -K, where the kernel has hist triggers (6.1+), the pairing and counting
 * happen in the kernel instead (klat.c): this program reads the bucket counts
 * every 50 ms and does nothing per I/O, and the I/O path pays for the
 * kernel's tables instead (measured in bench/: more than for the copies).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blkdev.h"
#include "blkev.h"
#include "blkio.h"
#include "cgscope.h"
#include "clock.h"
#include "errlog.h"
#include "hist.h"
#include "klat.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "xalloc.h"

static const char usage_text[] =
"USAGE: iolatency [-hjDKmQT] [-d device] [-i iotype] [--cgroup PATH]\n"
"                 [interval [count]]\n"
"                 -d device       # device: name, /dev path or maj,min (eg, sda, \"202,1\")\n"
"                 -i iotype       # match type (eg, '*R*' for all reads)\n"
"                 -D              # one histogram per disk\n"
"                 -K              # pair and count in the kernel (6.1+)\n"
"                 --cgroup PATH   # I/O issued in this cgroup v2, or below it\n"
"                 -m              # microsecond buckets (default ms)\n"
"                 -Q              # use queue insert as start time\n"
"                 -T              # timestamp on output\n"
"                 -j              # JSON Lines, one object per interval (also --json)\n"
"                 -h              # this usage message\n"
"                 interval        # summary interval, seconds (default 1)\n"
"                 count           # number of summaries\n"
"  eg,\n"
"       iolatency                 # summarize latency every second\n"
"       iolatency -Q              # include block I/O queue time\n"
"       iolatency 5 2             # 2 x 5 second summaries\n"
"       iolatency -i '*R*'        # trace reads\n"
"       iolatency -d 202,1        # trace device 202,1 only\n"
"       iolatency -d nvme0n1      # trace disk nvme0n1 only (or /dev/nvme0n1)\n"
"       iolatency -Dm             # per disk, in microseconds\n"
"       iolatency --cgroup system.slice/docker-4f2a.scope\n"
"                                 # the I/O one container issues\n"
"\n";

struct opts {
	struct blkio_opts io;
	double interval;
	unsigned long count;
	int per_disk, usecs, timestamps;
	int kernel;		/* -K: klat counts; else blkio hands on each I/O */
	const char *cgroup;	/* --cgroup PATH: by the submitter (block_getrq) */
};

static struct opts o;

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = opt_next(argc, argv, "d:hi:jDKmQT", longs, usage_text)) != -1) {
		switch (c) {
		case OPT_CGROUP: o.cgroup = optarg; break;
		case 'D': o.per_disk = 1; break;
		case 'K': o.kernel = 1; break;
		case 'm': o.usecs = 1; break;
		case 'T': o.timestamps = 1; break;
		default:	/* -d, -i, -Q */
			blkev_option(&o.io, c, optarg);
		}
	}
	if (o.kernel && o.io.queue)
		opt_usage("-K and -Q cannot be combined (the kernel pairs from the issue only)");
	if (o.kernel && o.cgroup)
		opt_usage("-K and --cgroup cannot be combined (the kernel counts every I/O)");
	opt_operands(argc, 0, 2, NULL, "interval and count only");
	o.interval = 1;
	if (optind < argc)
		o.interval = opt_seconds(argv[optind], "interval");
	if (optind + 1 < argc)
		o.count = opt_ulong(argv[optind + 1], "count", 1, 1000000000UL);
}

/* a histogram of latencies: one per disk with -D, else one (dev 0) */
struct disk {
	unsigned int dev;
	struct hist h;
};

static struct disk *disks;
static int ndisks;
static unsigned long ticks;
static unsigned long long unknown;	/* I/O whose latency is not known, not counted */

/* disk_hist - the histogram an I/O on dev counts in (created on first use) */
static struct hist *disk_hist(unsigned int dev)
{
	int i;

	if (!o.per_disk)
		dev = 0;
	for (i = 0; i < ndisks; i++)
		if (disks[i].dev == dev)
			return &disks[i].h;
	disks = xreallocarray(disks, ndisks + 1, sizeof(*disks));
	disks[i].dev = dev;
	hist_init(&disks[i].h, 0);
	ndisks++;
	return &disks[i].h;
}

/* on_io - one finished I/O: count its latency (whole us or ms, as the kernel's clock) */
static void on_io(const struct blkio_done *io, void *arg)
{
	(void)arg;
	if (!(io->known & BLKIO_LAT)) {
		unknown++;
		return;
	}
	hist_add(disk_hist(io->dev), hist_lat(io->start_ns, io->end_ns, o.usecs), 1);
}

/* on_lat - n more I/O with this latency (us or ms), counted by the kernel */
static void on_lat(unsigned int dev, unsigned long long lat, unsigned long long n,
		   unsigned long long sum, void *arg)
{
	(void)arg;
	(void)sum;
	hist_add(disk_hist(dev), lat, n);
}

/* poll - fold in what the kernel counted since the last poll */
static void poll(void *arg)
{
	(void)arg;
	klat_poll(on_lat, NULL);
}

/* tick_json - the interval as one object: its end, unit, hist (with -D: disks[]) */
static void tick_json(const char *unit)
{
	static struct line line;
	char d[128];
	int i;

	line_begin(&line, clock_ns());	/* the trace clock's (mono) time */
	col_str(&line, "unit", unit, ALIGN_LEFT, 0, -1);
	if (o.per_disk)
		col_open(&line, "disks", '[');
	for (i = 0; i < ndisks; i++) {
		struct disk *k = &disks[i];

		if (o.per_disk && !hist_total(&k->h))
			continue;
		if (o.per_disk) {
			col_open(&line, NULL, '{');
			col_str(&line, "dev", blkdev_str(k->dev, d, sizeof(d)), ALIGN_LEFT, 0, -1);
			blkdev_name(k->dev, d, sizeof(d));
			col_str(&line, "name", d[0] ? d : NULL, ALIGN_LEFT, 0, -1);
		}
		col_hist(&line, "hist", &k->h);
		if (o.per_disk)
			col_close(&line);
		hist_init(&k->h, 0);
	}
	if (o.per_disk)
		col_close(&line);
	line_put(&line);
}

/* tick - print this interval's histogram(s), empty them, stop after count */
static void tick(void *arg)
{
	const char *unit = o.usecs ? "us" : "ms";
	char d[128], ts[16];
	time_t now = time(NULL);
	int i, shown = 0;

	(void)arg;
	if (o.kernel)
		poll(NULL);
	if (out_json) {
		tick_json(unit);
		goto done;
	}
	printf("\n");
	if (o.timestamps) {
		strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&now));
		printf("%s:\n", ts);
	}
	for (i = 0; i < ndisks; i++) {
		struct disk *k = &disks[i];

		if (o.per_disk) {
			if (!hist_total(&k->h))
				continue;
			printf("%sdisk = %s\n", shown ? "\n" : "",
			       blkdev_label(k->dev, d, sizeof(d)));
		}
		hist_print(stdout, &k->h, unit, "I/O");
		hist_init(&k->h, 0);
		shown++;
	}
	if (!shown) {
		struct hist empty;

		hist_init(&empty, 0);
		hist_print(stdout, &empty, unit, "I/O");
	}
done:
	if (o.count && ++ticks >= o.count)
		sig_request_stop();
}

/* in_kernel - set up the kernel's pairing and counting (-K), or die saying why not */
static void in_kernel(struct session *s)
{
	struct klat_spec sp = { "block", "block_rq_issue", "block_rq_complete", "dev,sector", "dev",
				NULL, NULL, o.usecs, 0 };
	char *f, *pf, *cf;
	int ok;

	if (!klat_available(s))
		msg_die(EXIT_ERR, "-K: this kernel has no hist triggers with synthetic events and "
			"the .buckets modifier (6.1+, CONFIG_HIST_TRIGGERS)");
	f = blkev_filter(&o.io);
	/*
	 * requests without data are not paired: a flush's issue and completion
	 * report different sectors, and its issue at sector 0 would pair with
	 * the next completion there; the flushes are counted as unpaired, and
	 * the empty requests they complete (never issued) not at all
	 */
	pf = xasprintf("%s%snr_sector > 0", f, f[0] ? " && " : "");
	cf = xasprintf("%s%s(nr_sector > 0 || rwbs ~ \"F*\")", f, f[0] ? " && " : "");
	sp.filter = pf;
	sp.count_filter = cf;
	ok = klat_setup(s, &sp) == 0;
	free(f);
	free(pf);
	free(cf);
	if (!ok) {
		errlog_warn(s->inst, "-K: the kernel refused the latency histograms");
		exit(EXIT_ERR);
	}
}

int main(int argc, char **argv)
{
	struct session *s;
	char dtext[256] = "", desc[240];

	msg_init("iolatency");
	sig_init();
	parse(argc, argv);
	if (o.cgroup) {
		cgscope_open(o.cgroup);
		o.io.who = 1;	/* the submitter, in its own context */
	}
	if (o.io.has_dev)
		snprintf(dtext, sizeof(dtext), " on %s", blkdev_desc(&o.io.dev, desc, sizeof(desc)));
	if (o.cgroup)
		snprintf(dtext + strlen(dtext), sizeof(dtext) - strlen(dtext), " issued in cgroup %.80s",
			 o.cgroup);

	s = session_open("iolatency");
	if (o.kernel)
		in_kernel(s);
	else
		blkev_setup(s, &o.io, on_io, NULL);
	cgscope_follow(s, 0);	/* --cgroup: its members, from the kernel's events */
	if (!o.per_disk)
		disk_hist(0);

	/* counting is on before the banner: whatever runs after it is seen */
	if (o.kernel) {	/* nothing is read: no ring buffer to size */
		klat_start(s);	/* the count, then the pairing */
		out_init(0);
	} else {
		stream_begin(s, 0);
		cgscope_started();
	}
	out_banner("Tracing block I/O%s. Output every %g seconds.%s\n", dtext, o.interval,
		   o.count ? "" : " Ctrl-C to end.");
	fflush(stdout);

	if (o.kernel)
		stream_idle_poll(0, o.interval, 0.05, poll, tick, NULL);
	else
		stream_run(s, 0, o.interval, tick, NULL);

	out_ending();
	if (o.kernel) {
		unsigned long long n = klat_unpaired(s);

		if (n)
			msg_warn("%llu completion%s without a traced start %s not counted "
				 "(I/O in flight at start, or during a renewal of the kernel's pairing table)",
				 n, n == 1 ? "" : "s", n == 1 ? "was" : "were");
		if (klat_unknown())
			msg_warn("%llu I/O not counted: the kernel paired their completion with a "
				 "start stamped after it, so their latency is not known",
				 klat_unknown());
	} else {
		stream_report_lost(s);
		cgscope_report("I/O");
		if (blkio_unsure())
			msg_warn("%llu I/O not counted: in flight at one sector with another "
				 "process's, so whose it was is not known", blkio_unsure());
		if (unknown)
			msg_warn("%llu I/O not counted: another request was in flight at the same "
				 "device and sector, so which completion was whose is not known",
				 unknown);
	}
	free(disks);
	return EXIT_OK;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* iosnoop - trace block device I/O with latency, one line per I/O
 *
 * Follows each request from block:block_rq_issue (block_rq_insert with -Q) to
 * block:block_rq_complete, paired by (device, sector) in user space, with the
 * submitting process taken from block:block_getrq in its own context. The
 * device and type filters run in the kernel. Overhead: about three events per
 * I/O are copied to user space (allocation, issue, completion; insert with -Q),
 * which at tens of thousands of IOPS is measurable: use the duration mode,
 * and iolatency(8) for a summary at high rates.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "who.h"

static const char usage_text[] =
"USAGE: iosnoop [-hQst] [-d device] [-i iotype] [-p PID] [-n name]\n"
"               [duration]\n"
"                 -d device       # device: name, /dev path or maj,min (eg, sda, \"202,1\")\n"
"                 -i iotype       # match type (eg, '*R*' for all reads)\n"
"                 -n name         # process name to match on I/O issue\n"
"                 -p PID          # PID to match on I/O issue\n"
"                 -Q              # use queue insert as start time\n"
"                 -s              # include start time of I/O (s)\n"
"                 -t              # include completion time of I/O (s)\n"
"                 -h              # this usage message\n"
"                 duration        # duration seconds, and use buffers\n"
"  eg,\n"
"       iosnoop                   # watch block I/O live (unbuffered)\n"
"       iosnoop 1                 # trace 1 sec (buffered)\n"
"       iosnoop -Q                # include queueing time in LATms\n"
"       iosnoop -ts               # include start and end timestamps\n"
"       iosnoop -i '*R*'          # trace reads\n"
"       iosnoop -p 91             # show I/O issued by PID 91\n"
"       iosnoop -Qp 91            # show I/O queued by PID 91, queue time\n"
"       iosnoop -d sda            # trace disk sda only (also /dev/sda, 8,0)\n"
"\n";

struct opts {
	struct blkio_opts io;
	double duration;
	pid_t pid;
	const char *name;
	regex_t name_re;
	int start_ts, end_ts;
};

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv, struct opts *o)
{
	int c;

	while ((c = opt_next(argc, argv, "d:hi:n:p:Qst", NULL, usage_text)) != -1) {
		switch (c) {
		case 'd':
		case 'i':
		case 'Q':
			blkio_option(&o->io, c, optarg);
			break;
		case 'n':
			opt_no_ctrl(optarg, "-n");
			opt_regex(&o->name_re, optarg, "-n");
			o->name = optarg;
			break;
		case 'p': o->pid = opt_pid(optarg, "-p"); break;
		case 's': o->start_ts = 1; break;
		case 't': o->end_ts = 1; break;
		}
	}
	if (o->pid && o->name)
		opt_usage("use either -p or -n, not both");
	if (argc - optind > 1)
		opt_usage("too many arguments (only a duration)");
	if (optind < argc)
		o->duration = opt_seconds(argv[optind], "duration");
}

/* on_io - one finished I/O: the perf-tools row */
static void on_io(const struct blkio_done *io, void *arg)
{
	struct opts *o = arg;
	char t[32], dev[24], comm[4 * 12 + 1];

	if (o->name && regexec(&o->name_re, io->comm, 0, NULL, 0) != 0)
		return;
	if (o->start_ts)
		fprintf(out, "%-15s ", out_time(io->start_ns, t, sizeof(t)));
	if (o->end_ts)
		fprintf(out, "%-15s ", out_time(io->end_ns, t, sizeof(t)));
	/* at most 12 bytes of the name, as perf-tools, escaped (output.h) */
	out_vis(comm, sizeof(comm), 0, io->comm, strnlen(io->comm, 12));
	fprintf(out, "%-12s %-6d %-4s %-8s %-12llu %-6llu %8.2f\n", comm, io->pid,
		io->rwbs, blkio_dev_str(io->dev, dev, sizeof(dev)), io->sector, io->bytes,
		(io->end_ns - io->start_ns) / 1e6);
}

int main(int argc, char **argv)
{
	static struct opts o;	/* static: lives as long as the run (-n regex) */
	struct session *s;
	char ftext[128] = "", dtext[256] = "", desc[240];

	msg_init("iosnoop");
	sig_init();
	parse(argc, argv, &o);
	o.io.who = 1;
	if (o.io.has_dev)
		snprintf(dtext, sizeof(dtext), " on %s", blkio_dev_desc(&o.io.dev, desc, sizeof(desc)));
	if (o.pid) {
		o.io.pid = o.pid;
		snprintf(ftext, sizeof(ftext), " issued by PID %d", (int)o.pid);
	} else if (o.name) {
		snprintf(ftext, sizeof(ftext), " issued by process name \"%.80s\"", o.name);
	}

	s = session_open("iosnoop");
	stream_size_buffer(s);	/* before tracing: resizing empties the buffer */
	blkio_setup(s, &o.io, on_io, &o);

	/* tracing is on before the banner: whatever runs after it is seen */
	session_start(s);
	if (o.pid)
		who_track(o.pid);	/* threads started before tracing was on */
	out_init(o.duration > 0);
	if (o.duration > 0)
		printf("Tracing block I/O%s%s for %g seconds (buffered)...\n", dtext, ftext,
		       o.duration);
	else
		printf("Tracing block I/O%s%s. Ctrl-C to end.\n", dtext, ftext);
	if (o.start_ts)
		printf("%-15s ", "STARTs");
	if (o.end_ts)
		printf("%-15s ", "ENDs");
	printf("%-12.12s %-6s %-4s %-8s %-12s %-6s %8s\n", "COMM", "PID", "TYPE", "DEV",
	       "BLOCK", "BYTES", "LATms");
	fflush(stdout);

	stream_run(s, o.duration, 0, NULL, NULL);

	out_ending();
	stream_report_lost(s);
	blkio_report();
	return EXIT_OK;
}

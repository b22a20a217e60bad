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

#include "blkdev.h"
#include "blkev.h"
#include "blkio.h"
#include "cgscope.h"
#include "child.h"
#include "fmt.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "who.h"

static const char usage_text[] =
"USAGE: iosnoop [-hjQst] [-d device] [-i iotype] [-p PID] [-n name]\n"
"               [duration]\n"
"       iosnoop [-hjQst] [-d device] [-i iotype] --exec CMD [duration]\n"
"       iosnoop [-hjQst] [-d device] [-i iotype] --cgroup PATH [duration]\n"
"       (each form also takes --show-cgroup)\n"
"                 -d device       # device: name, /dev path or maj,min (eg, sda, \"202,1\")\n"
"                 -i iotype       # match type (eg, '*R*' for all reads)\n"
"                 -n name         # process name to match on I/O issue\n"
"                 -p PID          # PID to match on I/O issue\n"
"                 --exec CMD      # run CMD by sh; I/O of it and all it starts\n"
"                 --cgroup PATH   # I/O issued in this cgroup v2, or below it\n"
"                 --show-cgroup   # include the submitter's cgroup (CGROUP: a\n"
"                                 # container's ID, else the path)\n"
"                 -Q              # use queue insert as start time\n"
"                 -s              # include start time of I/O (s)\n"
"                 -t              # include completion time of I/O (s)\n"
"                 -j              # JSON Lines, one object per I/O (also --json)\n"
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
"       iosnoop --cgroup system.slice/docker-4f2a.scope\n"
"                                 # the I/O one container issues\n"
"       iosnoop --show-cgroup     # which container issued each I/O\n"
"       iosnoop --exec 'tar xf a.tar'\n"
"                                 # the I/O one command issues, start to end\n"
"\n";

struct opts {
	struct blkio_opts io;
	double duration;
	pid_t pid;
	const char *name, *exec, *cgroup;
	regex_t name_re;
	int start_ts, end_ts, show_cg;
};

static struct opts o;

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = opt_next(argc, argv, "d:hi:jn:p:Qst", opt_scope_show, usage_text)) != -1) {
		switch (c) {
		case 'n':
			opt_no_ctrl(optarg, "-n");
			opt_regex(&o.name_re, optarg, "-n");
			o.name = optarg;
			break;
		case 'p': o.pid = opt_pid(optarg, "-p"); break;
		case 's': o.start_ts = 1; break;
		case 't': o.end_ts = 1; break;
		case OPT_EXEC: o.exec = optarg; break;
		case OPT_CGROUP: o.cgroup = optarg; break;
		case OPT_SHOW_CGROUP: o.show_cg = 1; break;
		default:	/* -d, -i, -Q */
			blkev_option(&o.io, c, optarg);
		}
	}
	opt_apart(o.pid, "-p", o.name != NULL, "-n");
	opt_apart(o.pid, "-p", o.exec != NULL, "--exec");
	opt_apart(o.name != NULL, "-n", o.exec != NULL, "--exec");
	opt_apart(o.pid, "-p", o.cgroup != NULL, "--cgroup");
	opt_apart(o.exec != NULL, "--exec", o.cgroup != NULL, "--cgroup");
	opt_operands(argc, 0, 1, NULL, "only a duration");
	if (optind < argc)
		o.duration = opt_seconds(argv[optind], "duration");
}

/* on_io - one finished I/O: the perf-tools row; in JSON, "time" is the completion */
static void on_io(const struct blkio_done *io, void *arg)
{
	static struct line line;
	char t[32], dev[24];

	(void)arg;
	if (o.name && io->pid < 0) {
		blkio_left_out();	/* its name is not known: counted on stderr */
		return;
	}
	if (o.name && regexec(&o.name_re, io->comm, 0, NULL, 0) != 0)
		return;
	line_begin(&line, io->mono ? io->end_ns : LINE_NO_TIME);
	/* -s and -t: text only */
	if (o.start_ts) {
		if (io->known & BLKIO_LAT)
			line_str(&line, fmt_time(io->start_ns, t, sizeof(t)), ALIGN_LEFT, 15, -1);
		else
			line_str(&line, "?", ALIGN_LEFT, 15, -1);
		line_add(&line, " ");
	}
	if (o.end_ts) {
		line_str(&line, fmt_time(io->end_ns, t, sizeof(t)), ALIGN_LEFT, 15, -1);
		line_add(&line, " ");
	}
	/* at most 12 bytes of the name, as perf-tools; "?" when not known */
	if (io->pid < 0)
		col_null(&line, "comm", "?", ALIGN_LEFT, 12);
	else
		col_str(&line, "comm", io->comm, ALIGN_LEFT, 12, 12);
	line_add(&line, " ");
	if (io->pid < 0)
		col_null(&line, "pid", "?", ALIGN_LEFT, 6);
	else
		col_dec(&line, "pid", io->pid, ALIGN_LEFT, 6);
	line_add(&line, " ");
	col_str(&line, "type", io->rwbs, ALIGN_LEFT, 4, -1);
	line_add(&line, " ");
	col_str(&line, "dev", blkdev_str(io->dev, dev, sizeof(dev)), ALIGN_LEFT, 8, -1);
	line_add(&line, " ");
	/* a cache flush has no block */
	if (io->known & BLKIO_SECTOR)
		col_dec(&line, "block", (long long)io->sector, ALIGN_LEFT, 12);
	else
		col_null(&line, "block", "?", ALIGN_LEFT, 12);
	line_add(&line, " ");
	if (io->known & BLKIO_BYTES)
		col_dec(&line, "bytes", (long long)io->bytes, ALIGN_LEFT, 6);
	else
		col_null(&line, "bytes", "?", ALIGN_LEFT, 6);
	line_add(&line, " ");
	/* two requests were in flight at one place: which completion was whose is not known */
	if (io->known & BLKIO_LAT)
		col_fixed(&line, "latms", io->end_ns - io->start_ns, 6, 2, ALIGN_RIGHT, 8);
	else
		col_null(&line, "latms", "?", ALIGN_RIGHT, 8);
	if (o.show_cg) {
		line_add(&line, " ");
		cgscope_col(&line, io->cg);
	}
	line_add(&line, "\n");
	line_put(&line);
}

int main(int argc, char **argv)
{
	struct session *s;
	char ftext[256] = "", dtext[256] = "", desc[240];

	msg_init("iosnoop");
	sig_init();
	parse(argc, argv);
	if (o.cgroup)
		cgscope_open(o.cgroup);
	if (o.show_cg)
		cgscope_show();
	if (o.exec)
		o.pid = child_shell(o.exec);	/* held until tracing is on */
	o.io.who = 1;
	if (o.io.has_dev)
		snprintf(dtext, sizeof(dtext), " on %s", blkdev_desc(&o.io.dev, desc, sizeof(desc)));
	if (o.pid) {
		o.io.pid = o.pid;
		snprintf(ftext, sizeof(ftext), " issued by PID %d", (int)o.pid);
	} else if (o.name) {
		snprintf(ftext, sizeof(ftext), " issued by process name \"%.80s\"", o.name);
	}
	if (o.cgroup)
		snprintf(ftext + strlen(ftext), sizeof(ftext) - strlen(ftext), " issued in cgroup %.80s",
			 o.cgroup);

	/* a spill file's writeback would be traced as I/O of its own */
	out_spill_memory();
	s = session_open("iosnoop");
	blkev_setup(s, &o.io, on_io, NULL);
	cgscope_follow(s, 0);	/* --cgroup: its members, from the kernel's events */

	/* tracing is on before the banner: whatever runs after it is seen */
	stream_begin(s, o.duration > 0);
	cgscope_started();
	if (o.pid)
		who_track(o.pid);	/* threads started before tracing was on */
	out_tracing(o.duration, "block I/O%s%s", dtext, ftext);
	if (o.start_ts && !out_json)
		printf("%-15s ", "STARTs");
	if (o.end_ts && !out_json)
		printf("%-15s ", "ENDs");
	if (!out_json)
		printf("%-12.12s %-6s %-4s %-8s %-12s %-6s %8s%s\n", "COMM", "PID", "TYPE", "DEV",
		       "BLOCK", "BYTES", "LATms", o.show_cg ? " CGROUP" : "");
	fflush(stdout);
	child_go();	/* --exec: the command runs from here */

	stream_run(s, o.duration, 0, NULL, NULL);

	stream_end(s);
	blkio_report();
	child_report();
	cgscope_report("I/O");
	return EXIT_OK;
}

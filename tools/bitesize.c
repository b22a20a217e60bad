/* SPDX-License-Identifier: GPL-2.0-only */
/* bitesize - block I/O sizes as a histogram, optionally per process
 *
 * Counts each request at block:block_rq_issue by its `bytes` field (the
 * data it carries, passthrough requests too; nr_sector is 0 for those) in
 * Kbyte buckets, until Ctrl-C or for a number of seconds, then prints the
 * original's table; with -P one table per process name, the task on the CPU
 * at issue (the event's comm: the submitter, or a kworker that issued for
 * it). The counting is fieldhist.c's: in the kernel where hist triggers
 * exist (proven at startup), else every issue is copied to user space.
 * Overhead: in the kernel, a table update per I/O; in user space, one
 * record per I/O.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkdev.h"
#include "blkev.h"
#include "blkio.h"
#include "clock.h"
#include "fieldhist.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "session.h"
#include "signals.h"

static const char usage_text[] =
"USAGE: bitesize [-hjP] [-b buckets] [-d device] [seconds]\n"
"                -b buckets      # bucket points in Kbytes (default \"1 8 64 128\")\n"
"                -d device       # this device only: name, /dev path or maj,min\n"
"                -P              # one histogram per process name\n"
"                -j              # JSON Lines, one object per histogram (also --json)\n"
"                -h              # this usage message\n"
"                seconds         # duration (default: until Ctrl-C)\n"
"  eg,\n"
"       bitesize                 # block I/O sizes, until Ctrl-C\n"
"       bitesize 10              # for 10 seconds\n"
"       bitesize -b \"8 16 32\"    # these Kbyte buckets\n"
"       bitesize -P 5            # per process name, for 5 seconds\n"
"       bitesize -d nvme0n1      # disk nvme0n1 only (or /dev/nvme0n1)\n"
"\n";

static double duration;
static int per_proc;
static struct blkio_opts io;	/* -d */
static struct fieldhist_spec spec = { "block", "block_rq_issue", "bytes", NULL, NULL,
				      { 1024, 8192, 65536, 131072 }, 4 };

/* parse - options and the duration, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c, i;

	while ((c = opt_next(argc, argv, "b:d:hjP", NULL, usage_text)) != -1) {
		switch (c) {
		case 'b':
			fieldhist_edges(&spec, optarg, "-b", 0, 4194304);
			for (i = 0; i < spec.nedge; i++)
				spec.edge[i] *= 1024;	/* Kbytes to bytes */
			break;
		case 'd': blkev_option(&io, c, optarg); break;
		case 'P': per_proc = 1; break;
		}
	}
	opt_operands(argc, 0, 1, NULL, "seconds only");
	if (optind < argc)
		duration = opt_seconds(argv[optind], "seconds");
	if (per_proc)
		spec.group = "comm";
	if (io.has_dev)
		spec.filter = blkev_filter(&io);	/* the device's number (and a partition's sectors) */
}

/* report - the table (one per process with -P), or one JSON object each */
static void report(void)
{
	static struct line line;
	char name[80];
	size_t n, i;
	const struct fieldhist_group *g = fieldhist_groups(&n);

	for (i = 0; i < n; i++) {
		if (out_json) {
			line_begin(&line, clock_ns());
			if (per_proc)
				col_str(&line, "comm", g[i].name, ALIGN_LEFT, 0, -1);
			col_str(&line, "unit", "bytes", ALIGN_LEFT, 0, -1);
			fieldhist_json(&line, "buckets", &g[i]);
			line_put(&line);
			continue;
		}
		printf("\n");
		if (per_proc) {
			/* a traced name: escaped, as every traced string */
			name[out_vis(name, sizeof(name), 0, g[i].name, strlen(g[i].name))] = '\0';
			printf("Process Name = %s\n", name);
		}
		fieldhist_print(stdout, &g[i], "Kbytes", "I/O", 1024);
	}
	if (!n && !out_json)
		printf("\nNo I/O.\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct session *s;
	char on[256] = "", desc[240];

	msg_init("bitesize");
	sig_init();
	parse(argc, argv);
	fieldhist_check(&spec);
	if (io.has_dev)
		snprintf(on, sizeof(on), " on %s", blkdev_desc(&io.dev, desc, sizeof(desc)));

	s = session_open("bitesize");
	fieldhist_setup(s, &spec);
	fieldhist_start(s);	/* counting is on before the banner */
	if (duration > 0)
		out_banner("Tracing block I/O size (bytes)%s, for %g seconds...\n", on, duration);
	else
		out_banner("Tracing block I/O size (bytes)%s, until Ctrl-C...\n", on);
	fflush(stdout);
	fieldhist_run(s, duration);

	if (!out_broken())
		report();
	out_ending();
	fieldhist_report(s);
	return EXIT_OK;
}

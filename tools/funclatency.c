// SPDX-License-Identifier: GPL-2.0-only
/* funclatency - a power-of-two histogram of the time kernel functions take
 *
 * Uses the function_graph tracer on the named functions alone: the kernel
 * times each call (its call and return times are in the return's record),
 * and each return's record is read in binary and counted here, per interval
 * (-i) or for the whole run. The graph runs where funcgraph's does (an
 * instance where the kernel graphs there, else the top level, saved and
 * restored). Lost records are counted and reported: a count is then short.
 * Overhead: each call of the functions costs the tracer's entry and return
 * and one record read in user space; keep to functions called at most some
 * tens of thousands of times a second.
 */
#include <stdio.h>
#include <string.h>

#include "child.h"
#include "clock.h"
#include "fgraph.h"
#include "fmt.h"
#include "ftracer.h"
#include "hist.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "session.h"
#include "signals.h"
#include "stream.h"

static const char usage_text[] =
"USAGE: funclatency [-hjmTu] [-p PID] [-i secs] [-d secs] [--exec CMD] funcstring\n"
"                 -d seconds      # trace duration\n"
"                 -h              # this usage message\n"
"                 -i seconds      # print a histogram every this many seconds\n"
"                 -j              # JSON Lines, one object per histogram (also --json)\n"
"                 -m              # milliseconds (default nanoseconds)\n"
"                 -p PID          # only this process (threads, children)\n"
"                 -T              # include a timestamp with each histogram\n"
"                 -u              # microseconds (default nanoseconds)\n"
"                 --exec CMD      # run CMD by sh; time it and all it starts\n"
"  eg,\n"
"       funclatency do_sys_openat2 # time opens, in nanoseconds\n"
"       funclatency -u -i 1 vfs_read # reads in microseconds, each second\n"
"       funclatency -m -p 181 do_nanosleep # sleeps of PID 181, in ms\n"
"\n";

struct opts {
	double duration, interval;
	int stamp;
	unsigned long long div;		/* ns per unit: 1, 1000 or 1000000 */
	const char *unit;		/* "nsecs", "usecs" or "msecs" */
	const char *exec;
	struct fgraph g;		/* the graph: the functions alone, returns counted */
};

static struct opts o = { .div = 1, .unit = "nsecs" };

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c, m = 0, u = 0;

	while ((c = opt_next(argc, argv, "d:hi:jmp:Tu", opt_exec, usage_text)) != -1) {
		switch (c) {
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'i': o.interval = opt_seconds(optarg, "-i"); break;
		case 'm': m = 1; o.div = 1000000; o.unit = "msecs"; break;
		case 'p': o.g.pid = opt_pid(optarg, "-p"); break;
		case 'T': o.stamp = 1; break;
		case 'u': u = 1; o.div = 1000; o.unit = "usecs"; break;
		case OPT_EXEC: o.exec = optarg; break;
		}
	}
	opt_operands(argc, 1, 1, "funcstring (a kernel function name or glob)",
		     "quote several functions as one argument");
	opt_apart(m, "-m", u, "-u");
	opt_apart(o.g.pid, "-p", o.exec != NULL, "--exec");
	o.g.funcs = argv[optind];
	opt_funcs(o.g.funcs, "a kernel function name or glob");
}

static struct hist dist;		/* this interval's (or the run's) */
static unsigned long long total_ns, count;

/* on_record - a return of a traced function: its time counted */
static void on_record(const struct stream_rec *r)
{
	unsigned long long ns;

	if (fgraph_duration(r, &ns) != 1)
		return;
	hist_add(&dist, ns / o.div, 1);
	total_ns += ns;
	count++;
}

/* print - the histogram so far, then empty it for the next interval */
static void print(void *unused)
{
	static struct line l;
	unsigned long long now = clock_ns(), total = total_ns / o.div;
	char hms[16];

	(void)unused;
	if (out_json) {
		line_begin(&l, now);
		col_str(&l, "unit", o.unit, ALIGN_LEFT, 0, -1);
		col_dec(&l, "count", (long long)count, ALIGN_LEFT, 0);
		col_dec(&l, "total", (long long)total, ALIGN_LEFT, 0);
		if (count)
			col_dec(&l, "avg", (long long)(total / count), ALIGN_LEFT, 0);
		else
			col_null(&l, "avg", "", ALIGN_LEFT, 0);
		col_hist(&l, "hist", &dist);
		line_put(&l);
	} else {
		fputc('\n', stdout);
		if (o.stamp)
			printf("%-8s\n", fmt_hms(now, hms, sizeof(hms)));
		hist_print_log2(stdout, &dist, o.unit);
		if (count)
			printf("\navg = %llu %s, total: %llu %s, count: %llu\n", total / count,
			       o.unit, total, o.unit, count);
	}
	out_batch_end();
	hist_init(&dist, 0);
	total_ns = count = 0;
}

int main(int argc, char **argv)
{
	msg_init("funclatency");
	sig_init();
	parse(argc, argv);
	if (o.exec)
		o.g.pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	o.g.n = ftracer_check(1, o.g.funcs, &o.g.list);
	o.g.records = on_record;
	hist_init(&dist, 0);
	fgraph_start(session_open("funclatency"), &o.g);
	msg_warn("each return is counted in user space, from function_graph's records");

	out_init(0);
	out_banner("Tracing %d functions for \"%s\"... Hit Ctrl-C to end.\n", o.g.n, o.g.funcs);
	fflush(stdout);

	fgraph_run_records(o.duration, o.interval, print, NULL);

	print(NULL);
	out_ending();
	child_report();
	return EXIT_OK;
}

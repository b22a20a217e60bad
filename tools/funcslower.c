// SPDX-License-Identifier: GPL-2.0-only
/* funcslower - show the calls of kernel functions slower than a threshold
 *
 * Uses the function_graph tracer with tracing_thresh: the kernel times each
 * call of the named functions itself and records only the returns that took
 * at least latency_us microseconds, so nothing else reaches user space. The
 * graph runs in a private instance where the kernel graphs there, else at the
 * top level, taken only when free, with every setting saved first and
 * restored exactly at exit; tracing_thresh is one for the whole kernel, so it
 * is taken only when nobody else set it, and put back at exit too.
 * Overhead: low to moderate. Only the named functions call into the tracer,
 * twice a call, and only the slow calls are recorded.
 */
#include <stdio.h>

#include "child.h"
#include "fgraph.h"
#include "ftracer.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "session.h"
#include "signals.h"
#include "stream.h"

static const char usage_text[] =
"USAGE: funcslower [-aChHjPt] [-p PID] [-L TID] [-d secs] [--exec CMD]\n"
"                  funcstring latency_us\n"
"                 -a              # all info (same as -HPt)\n"
"                 -C              # measure on-CPU time only\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -h              # this usage message\n"
"                 -H              # include column headers\n"
"                 -j              # JSON Lines, one object per slow call (also --json)\n"
"                 -p PID          # trace when this pid is on-CPU (threads, children)\n"
"                 -L TID          # trace when this thread is on-CPU\n"
"                 --exec CMD      # run CMD by sh; trace it and all it starts\n"
"                 -P              # show process names & PIDs\n"
"                 -t              # show timestamps\n"
"  eg,\n"
"       funcslower vfs_read 10000 # trace vfs_read() slower than 10 ms\n"
"       funcslower -P 'ext4_sync_file' 1000 # fsyncs over 1 ms, with the process\n"
"       funcslower -C -p 198 vfs_read 500 # on-CPU time over 500 us, PID 198\n"
"\n";

struct opts {
	double duration;
	int headers;
	const char *exec;
	struct fgraph g;	/* the graph asked for: the functions alone, a threshold */
};

static struct opts o = { .g = { .tail = 1 } };

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = opt_next(argc, argv, "aCd:hHjp:L:Pt", opt_exec, usage_text)) != -1) {
		switch (c) {
		case 'a': o.headers = o.g.proc = o.g.abstime = 1; break;
		case 'C': o.g.cpu_only = 1; break;
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'H': o.headers = 1; break;
		case 'p': o.g.pid = opt_pid(optarg, "-p"); break;
		case 'L': o.g.tid = opt_tid(optarg, "-L"); break;
		case 'P': o.g.proc = 1; break;
		case 't': o.g.abstime = 1; break;
		case OPT_EXEC: o.exec = optarg; break;
		}
	}
	opt_operands(argc, 2, 2, "funcstring and latency_us (microseconds)",
		     "quote several functions as one argument");
	opt_apart(o.g.pid, "-p", o.g.tid, "-L");
	opt_apart(o.g.pid, "-p", o.exec != NULL, "--exec");
	opt_apart(o.g.tid, "-L", o.exec != NULL, "--exec");
	o.g.funcs = argv[optind];
	opt_funcs(o.g.funcs, "a kernel function name or glob");
	/* up to an hour: the kernel keeps it in nanoseconds */
	o.g.thresh_us = opt_ulong(argv[optind + 1], "latency_us", 1, 3600000000UL);
}

int main(int argc, char **argv)
{
	msg_init("funcslower");
	sig_init();
	parse(argc, argv);
	if (o.exec)
		o.g.pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	o.g.n = ftracer_check(1, o.g.funcs, &o.g.list);
	fgraph_start(session_open("funcslower"), &o.g);

	out_init(o.duration > 0);
	ftracer_banner(o.g.funcs, o.g.pid, o.g.tid, NULL, o.g.thresh_us, o.duration);
	/* -P: each line names its task, so the task-switch banners go, as in perf-tools */
	if (o.g.proc)
		stream_text_no_switches();

	fgraph_run(o.duration, o.headers);

	out_ending();
	child_report();
	return EXIT_OK;
}

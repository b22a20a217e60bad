/* SPDX-License-Identifier: GPL-2.0-only */
/* funcgraph - graph a kernel function's calls to its children, with durations
 *
 * Uses the function_graph tracer: the kernel's own indented call graph of each
 * call of the named function(s), with the time each child took. The graph is
 * run in a private instance where the kernel can graph a function there
 * (function_graph and set_graph_function in instances), else at the top level,
 * with every setting saved first and restored exactly at exit; the top level is
 * refused while another tracer holds it. -p graphs the process's threads and
 * the threads and children they start (set_ftrace_pid with function-fork).
 * Overhead: high. Every kernel function gets a call to the tracer while this
 * runs, even when only one is graphed (expect the kernel 50% slower or worse);
 * try funccount first, and graph single functions, not globs.
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

static const char usage_text[] =
"USAGE: funcgraph [-aACDhHIjPtT] [-m maxdepth] [-p PID] [-L TID] [-d secs]\n"
"                 [-F usecs] [--exec CMD] funcstring\n"
"                 -a              # all info (same as -HPt)\n"
"                 -A              # show each call's arguments (6.16+, BTF)\n"
"                 -C              # measure on-CPU time only\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -D              # do not show function duration\n"
"                 -F usecs        # only returns that took this long, in the kernel\n"
"                 -h              # this usage message\n"
"                 -H              # include column headers\n"
"                 -I              # leave out interrupts (what runs in hard irqs)\n"
"                 -j              # JSON Lines, one object per entry and exit (also --json)\n"
"                 -m maxdepth     # max stack depth to show\n"
"                 -p PID          # trace when this pid is on-CPU (threads, children)\n"
"                 -L TID          # trace when this thread is on-CPU\n"
"                 --exec CMD      # run CMD by sh; trace it and all it starts\n"
"                 -P              # show process names & PIDs\n"
"                 -t              # show timestamps\n"
"                 -T              # comment function tails\n"
"  eg,\n"
"       funcgraph do_nanosleep    # trace do_nanosleep() and children\n"
"       funcgraph -m 3 do_sys_openat2 # trace do_sys_openat2() to 3 levels only\n"
"       funcgraph -a do_sys_openat2 # include timestamps and process name\n"
"       funcgraph -p 198 vfs_read # trace vfs_read() for PID 198 only\n"
"       funcgraph -d 1 do_sys_openat2 >out # trace 1 sec, then write to file\n"
"\n";

struct opts {
	double duration;
	int headers;
	const char *exec;
	struct fgraph g;	/* the graph asked for */
};

static struct opts o = { .g = { .children = 1 } };

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = opt_next(argc, argv, "aACd:DF:hHIjm:p:L:PtT", opt_exec, usage_text)) != -1) {
		switch (c) {
		case 'a': o.headers = o.g.proc = o.g.abstime = 1; break;
		case 'A': o.g.args = 1; break;
		case 'C': o.g.cpu_only = 1; break;
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'D': o.g.no_dur = 1; break;
		case 'F': o.g.thresh_us = opt_ulong(optarg, "-F", 1, 3600000000UL); break;
		case 'I': o.g.no_irqs = 1; break;
		case 'H': o.headers = 1; break;
		case 'm': o.g.maxdepth = opt_ulong(optarg, "-m", 1, 1000); break;
		case 'p': o.g.pid = opt_pid(optarg, "-p"); break;
		case 'L': o.g.tid = opt_tid(optarg, "-L"); break;
		case 'P': o.g.proc = 1; break;
		case 't': o.g.abstime = 1; break;
		case 'T': o.g.tail = 1; break;
		case OPT_EXEC: o.exec = optarg; break;
		}
	}
	opt_operands(argc, 1, 1, "funcstring (a kernel function name or glob)",
		     "quote several functions as one argument");
	opt_apart(o.g.pid, "-p", o.g.tid, "-L");
	opt_apart(o.g.pid, "-p", o.exec != NULL, "--exec");
	/*
	 * the record holds six argument registers whatever the function takes:
	 * how many are its arguments, and their names, the kernel reads from
	 * its BTF for the text alone
	 */
	opt_apart(o.g.args, "-A", out_json, "-j");
	opt_apart(o.g.tid, "-L", o.exec != NULL, "--exec");
	o.g.funcs = argv[optind];
	opt_funcs(o.g.funcs, "a kernel function name or glob");
	/* depth 1 shows no child: hook the functions alone, not every one */
	if (o.g.maxdepth == 1)
		o.g.children = 0;
}

int main(int argc, char **argv)
{
	msg_init("funcgraph");
	sig_init();
	parse(argc, argv);
	if (o.exec)
		o.g.pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	o.g.n = ftracer_check(1, o.g.funcs, &o.g.list);
	fgraph_start(session_open("funcgraph"), &o.g);

	out_init(o.duration > 0);
	ftracer_banner(o.g.funcs, o.g.pid, o.g.tid, NULL, o.g.thresh_us, o.duration);

	fgraph_run(o.duration, o.headers);

	out_ending();
	child_report();
	return EXIT_OK;
}

// SPDX-License-Identifier: GPL-2.0-only
/* funclatency - a power-of-two histogram of the time kernel functions take
 *
 * One function, on a kernel with kprobes and hist triggers (.buckets: 5.17+),
 * and no -p: timed and counted in the kernel. A kprobe at the call and a
 * kretprobe at the return, paired by task (klat.c: hist triggers with a
 * synthetic event), counted in buckets; the counts are read every 50 ms.
 * Nothing is read per call. First the same is proven on known calls: naps
 * of this run, timed in do_nanosleep.
 * Otherwise, the function_graph tracer on the named functions alone: the
 * kernel times each call (its call and return times are in the return's
 * record), and each return's record is read in binary and counted here. The
 * graph runs where funcgraph's does (an instance where the kernel graphs
 * there, else the top level, saved and restored). Lost records are counted
 * and reported: a count is then short.
 * Overhead: in the kernel, two probes and a hist trigger's work per call; in
 * user space, the tracer's entry and return and one record read per call:
 * keep to functions called at most some tens of thousands of times a second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "clock.h"
#include "fgraph.h"
#include "errlog.h"
#include "fmt.h"
#include "ftracer.h"
#include "hist.h"
#include "kernel.h"
#include "klat.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "probes.h"
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
	int kernel;			/* timed and counted in the kernel */
	const char *why;		/* why not, when its proof failed */
	const char *force;		/* FTT_COUNT: user or kernel, for testing both ways */
	struct fgraph g;		/* the graph: the functions alone, returns counted */
};

/* the calls in flight at once whose return the kernel can time (kretprobe instances) */
#define MAXACTIVE 512

/* the proof's known calls: PROOF_N naps of PROOF_NS each, timed in PROOF_FN */
#define PROOF_FN "do_nanosleep"
#define PROOF_N 3
#define PROOF_NS 10000000ULL

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
	o.force = getenv("FTT_COUNT");
	if (o.force && *o.force && strcmp(o.force, "user") && strcmp(o.force, "kernel"))
		opt_usage("FTT_COUNT must be user or kernel");
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

/* on_lat - n more calls timed in the kernel: the low end of their bucket (in
 * units of o.div ns, inside one power-of-two slot) and their exact sum in ns */
static void on_lat(unsigned int group, unsigned long long lat, unsigned long long n,
		   unsigned long long sum, void *ctx)
{
	(void)group;
	(void)ctx;
	hist_add(&dist, lat, n);
	total_ns += sum;
	count += n;
}

/* poll - fold in what the kernel counted since the last poll */
static void poll(void *arg)
{
	(void)arg;
	klat_poll(on_lat, NULL);
}

/* probe - the call and return probes on FN, as the pairing wants them; -1 if refused */
static int probe(struct session *s, const char *fn)
{
	/* g: a group for the count, the same for every call (an immediate value) */
	return probe_add(s, "fl_call", 0, fn, NULL) < 0 ||
	       probe_add_ret(s, "fl_return", fn, "g=\\0:u32", MAXACTIVE) < 0 ? -1 : 0;
}

/* naps - the proof's known calls; -1 if a signal cut one short */
static int naps(void *ctx)
{
	struct timespec ts = { 0, PROOF_NS };
	int i;

	(void)ctx;
	for (i = 0; i < PROOF_N; i++)
		if (nanosleep(&ts, NULL) < 0)
			return -1;
	return 0;
}

#define USER_SPACE "each return is counted in user space, from function_graph's records"

/*
 * prove - the kernel times known calls right, probed and paired as the
 * user's function will be: this run's naps, each timed once, at PROOF_NS or
 * a little more (klat_prove: the sleeps are relative, so the timer is set
 * inside do_nanosleep, after its call's stamp; 0.1 ms is left for the two
 * readings of the clock). NULL if so (the proof's probes and triggers are
 * gone again), else why not, for stderr ("" if said already).
 */
static const char *prove(struct session *s, struct klat_spec *sp)
{
	size_t mark = probes_mark();
	char self[32];
	const char *no;

	if (probe(s, PROOF_FN) < 0) {
		errlog_warn(NULL, "cannot probe %s in the kernel (kprobe_events) for the proof; "
			    USER_SPACE, PROOF_FN);
		probes_unwind(mark);
		return "";
	}
	snprintf(self, sizeof(self), "common_pid == %d", (int)getpid());
	sp->filter = self;
	no = klat_prove(s, sp, &(struct klat_proof){ naps, NULL, PROOF_N, PROOF_NS - 100000,
						    PROOF_NS + 1000000000ULL });
	sp->filter = NULL;
	if (no && !no[0]) {
		/* its triggers and probes stay for the exit */
		errlog_warn(s->inst, "the kernel refused a hist trigger of the proof; " USER_SPACE);
		return "";
	}
	probes_unwind(mark);
	return no;
}

/*
 * in_kernel - time the one function in the kernel (see the top): 0, or -1
 * with nothing enabled where the kernel cannot. The pairing key is the task:
 * a call that recurses, or is interrupted by an interrupt calling it, leaves
 * its outer return unpaired (reported), never paired with the inner call.
 * The idle tasks of all CPUs share task ID 0: theirs are not paired. This
 * run's own calls are left out.
 */
static int in_kernel(struct session *s)
{
	struct klat_spec sp = { s->group, "fl_call", "fl_return", "common_pid", "g",
				NULL, NULL, 0, o.div };
	char pair[64], count[64];
	const char *no;

	if (o.force && !strcmp(o.force, "user")) {
		o.why = "FTT_COUNT=user";
		return -1;
	}
	if (o.g.n != 1 || o.g.pid || !kernel_has(KF_KPROBES) || !kernel_has(KF_HIST) ||
	    !kernel_has(KF_SYNTH) || !kernel_has(KF_HIST_BUCKETS))
		return -1;
	no = prove(s, &sp);
	if (no) {
		if (sig_stop)
			exit(EXIT_OK);	/* stopped before it began: nothing to show */
		o.why = no;
		return -1;
	}
	if (probe(s, o.g.list[0]) < 0) {
		errlog_warn(NULL, "cannot probe %s in the kernel (kprobe_events)", o.g.list[0]);
		return -1;
	}
	/* not this run's own calls: its naps and reads would be in the histogram */
	snprintf(pair, sizeof(pair), "common_pid != 0 && common_pid != %d", (int)getpid());
	snprintf(count, sizeof(count), "common_pid != %d", (int)getpid());
	sp.filter = pair;
	sp.count_filter = count;
	if (klat_setup(s, &sp) < 0) {
		errlog_warn(s->inst, "the kernel refused the latency histograms");
		exit(EXIT_ERR);
	}
	return 0;
}

/* the calls and returns the kernel's probes missed */
struct missed {
	unsigned long long calls, returns;
};

static void on_probe(const char *event, unsigned long long hits, unsigned long long missed,
		     void *ctx)
{
	struct missed *m = ctx;
	size_t n = strlen(event);

	(void)hits;
	if (n >= 7 && !strcmp(event + n - 7, "fl_call"))
		m->calls += missed;
	else if (n >= 9 && !strcmp(event + n - 9, "fl_return"))
		m->returns += missed;
}

/* report_kernel - what the kernel did not time, said on stderr */
static void report_kernel(struct session *s)
{
	unsigned long long n = klat_unpaired(s), u = klat_unknown();
	struct missed m = { 0, 0 };

	if (n)
		msg_warn("%llu return%s without a traced call, not timed (in flight when tracing "
			 "began, inside another call of the same task, or in an idle CPU's interrupt)",
			 n, n == 1 ? "" : "s");
	if (u)
		msg_warn("%llu call%s not counted: the return was stamped before the call",
			 u, u == 1 ? "" : "s");
	if (probes_hits(s, on_probe, &m) < 0)
		msg_warn("cannot read kprobe_profile: calls the kernel's probes missed are not known");
	if (m.returns)
		msg_warn("%llu return%s not timed: more than %d calls in flight, or a probe "
			 "already running on that CPU", m.returns, m.returns == 1 ? "" : "s",
			 MAXACTIVE);
	if (m.calls)
		msg_warn("%llu call%s the kernel's probe missed (a probe already running on that "
			 "CPU)%s", m.calls, m.calls == 1 ? "" : "s",
			 m.returns ? ": with returns missed too, a latency may be wrong" : "");
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
	struct session *s;

	msg_init("funclatency");
	sig_init();
	parse(argc, argv);
	if (o.exec)
		o.g.pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	o.g.n = ftracer_check(1, o.g.funcs, &o.g.list);
	hist_init(&dist, 0);
	s = session_open("funclatency");
	o.kernel = in_kernel(s) == 0;
	if (!o.kernel && o.force && !strcmp(o.force, "kernel"))
		msg_die(EXIT_ERR, "FTT_COUNT=kernel: not timed in the kernel here (%s)",
			o.why && o.why[0] ? o.why : "one function, no -p or --exec, kprobes and "
			"hist triggers with .buckets, a proof passed");
	if (o.kernel) {
		klat_start(s);	/* the count of every return, then the pairing */
	} else {
		o.g.records = on_record;
		fgraph_start(s, &o.g);
		if (!o.why)
			msg_warn(USER_SPACE);
		else if (!strcmp(o.why, "FTT_COUNT=user"))
			msg_warn("FTT_COUNT=user: " USER_SPACE);
		else if (o.why[0])
			msg_warn("the kernel timed known calls wrong (%s): " USER_SPACE, o.why);
	}

	out_init(0);
	out_banner("Tracing %d functions for \"%s\"... Hit Ctrl-C to end.\n", o.g.n, o.g.funcs);
	fflush(stdout);

	if (o.kernel) {
		stream_idle_poll(o.duration, o.interval, 0.05, poll, print, NULL);
		klat_stop(s);
		klat_poll(on_lat, NULL);	/* the last counts */
	} else {
		fgraph_run_records(o.duration, o.interval, print, NULL);
	}

	print(NULL);
	out_ending();
	if (o.kernel)
		report_kernel(s);
	child_report();
	return EXIT_OK;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* funccount - count kernel function calls matching globs, in the kernel
 *
 * Counts are kept by the kernel and read once per interval; nothing is done in
 * user space per call. Two sources, first found wins: the function profiler
 * (CONFIG_FUNCTION_PROFILER: set_ftrace_filter and trace_stat, top-level state
 * saved and restored), else one kprobe per matched function, with the hit
 * count of each probe read from kprobe_profile. Neither can leave a task out,
 * so counting is switched on and off by one write each, on a file opened
 * before, and in between funccount only prints its banner and waits (one
 * ppoll): its reads of the counts and the rest of its output come after
 * (with -i, each interval's read and summary are counted).
 * Overhead: each counted call costs a function-entry hook (tens of ns); many
 * probes take long to set up (seconds per hundred on small machines), so more
 * than 1000 functions are refused unless forced (-F).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "kcount.h"
#include "kernel.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "probes.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "xalloc.h"

#define MAX_PROBES 1000		/* more need -F */

static const char usage_text[] =
"USAGE: funccount [-hFjT] [-i secs] [-d secs] [-t top] funcstring\n"
"                 -d seconds      # total duration of trace\n"
"                 -F              # force: allow more than 1000 functions\n"
"                 -h              # this usage message\n"
"                 -i seconds      # interval summary\n"
"                 -j              # JSON Lines, one object per summary (also --json)\n"
"                 -t top          # show top num entries only\n"
"                 -T              # include timestamp (for -i)\n"
"  eg,\n"
"       funccount 'vfs*'          # trace all funcs that match \"vfs*\"\n"
"       funccount -d 5 'tcp*'     # trace \"tcp*\" funcs for 5 seconds\n"
"       funccount -t 10 'ext4*'   # show top 10 \"ext4*\" funcs\n"
"       funccount -i 1 'ext4*'    # summary every 1 second\n"
"       funccount -i 1 -d 5 'ext4*' # 5 x 1 second summaries\n"
"       funccount 'vfs_read vfs_write' # several globs in one argument\n"
"\n";

struct opts {
	double duration, interval;
	unsigned long top;
	int force, stamp;
	const char *funcs;
};

static struct opts o;

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = opt_next(argc, argv, "d:Fhi:jt:T", NULL, usage_text)) != -1) {
		switch (c) {
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'F': o.force = 1; break;
		case 'i': o.interval = opt_seconds(optarg, "-i"); break;
		case 't': o.top = opt_ulong(optarg, "-t", 1, 1000000); break;
		case 'T': o.stamp = 1; break;
		}
	}
	opt_operands(argc, 1, 1, "funcstring (kernel function names or globs)",
		     "quote several globs as one argument");
	o.funcs = argv[optind];
	opt_funcs(o.funcs, "kernel function names or globs");
}

/* one counted function: counts are cumulative, printed as differences;
 * missed: calls the kernel saw but did not count (kprobe_profile) */
struct func {
	const char *name;
	unsigned long long last, now, missed_last, missed_now;
};

static struct session *sess;
static struct func *funcs;	/* funcs[i] counts list[i] */
static char **list;		/* the functions, sorted */
static int nfuncs;
static struct kcount kc;	/* the kernel's counters (kc.profiler: which) */

/* read_counts - the kernel's totals into funcs[].now (and missed_now) */
static void read_counts(void)
{
	int i;

	kcount_read(&kc);
	for (i = 0; i < nfuncs; i++) {
		funcs[i].now = kc.hits[i];
		funcs[i].missed_now = kc.missed[i];
	}
}

/* cmp_count - ascending count, then name (perf-tools order: top N last) */
static int cmp_count(const void *a, const void *b)
{
	const struct func *x = *(struct func *const *)a, *y = *(struct func *const *)b;
	unsigned long long cx = x->now - x->last, cy = y->now - y->last;

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * summary_json - one object: when the counts were read, and the counts as the
 * text lists them; counts that do not fit in one line (some 300) go on in
 * further objects with the same time
 */
static void summary_json(struct func **v, int first, int n)
{
	static struct line line;
	unsigned long long t = clock_ns();	/* fmt_iso's clock */
	int i;

	line_begin(&line, t);
	col_open(&line, "counts", '[');
	for (i = first; i < n; i++) {
		if (line.n + strlen(v[i]->name) + 128 > sizeof(line.buf)) {
			line_put(&line);
			line_begin(&line, t);
			col_open(&line, "counts", '[');
		}
		col_open(&line, NULL, '{');
		col_str(&line, "func", v[i]->name, ALIGN_LEFT, 0, -1);
		col_dec(&line, "count", (long long)(v[i]->now - v[i]->last), ALIGN_LEFT, 0);
		if (kc.profiler)	/* the profiler does not say what it missed */
			col_null(&line, "missed", "", ALIGN_LEFT, 0);
		else
			col_dec(&line, "missed", (long long)(v[i]->missed_now - v[i]->missed_last),
				ALIGN_LEFT, 0);
		col_close(&line);
	}
	col_close(&line);
	line_put(&line);
}

/* summary - print the counts since the last summary, then start a new interval */
static void summary(void *arg)
{
	struct func **v = xcalloc(nfuncs + 1, sizeof(*v));
	unsigned long long missed;
	int i, n = 0, first, some = 0;

	(void)arg;
	read_counts();
	for (i = 0; i < nfuncs; i++)
		if (funcs[i].now > funcs[i].last || funcs[i].missed_now > funcs[i].missed_last)
			v[n++] = &funcs[i];
	qsort(v, n, sizeof(*v), cmp_count);
	first = o.top && (unsigned long)n > o.top ? n - (int)o.top : 0;
	if (out_json) {
		summary_json(v, first, n);
		goto done;
	}
	printf("\n");
	if (o.stamp) {
		char buf[64];
		time_t t = time(NULL);

		strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Z %Y", localtime(&t));
		printf("%s\n", buf);
	}
	printf("%-30s %8s\n", "FUNC", "COUNT");
	for (i = first; i < n; i++) {
		missed = v[i]->missed_now - v[i]->missed_last;
		printf("%-30s %8llu", v[i]->name, v[i]->now - v[i]->last);
		if (missed)
			printf(" (missed %llu)", missed);
		printf("\n");
		some |= missed > 0;
	}
	if (some)
		msg_warn("the kernel missed calls (a probe hit while another ran on that CPU): "
			 "the counts marked \"missed N\" are short by N");
done:
	for (i = 0; i < nfuncs; i++) {
		funcs[i].last = funcs[i].now;
		funcs[i].missed_last = funcs[i].missed_now;
	}
	free(v);
	fflush(stdout);
}

/* match - the functions to count, into list; refuse in one line if the kernel will not */
static void match(void)
{
	nfuncs = probes_funcs(o.funcs, &list);
	if (nfuncs < 0 && errno == EPERM)
		msg_die(EXIT_ERR, "this kernel does not allow counting functions: it refuses "
			"function tracing (available_filter_functions: not permitted, "
			"kernel lockdown?)");
	if (nfuncs < 0)
		msg_die(EXIT_ERR, "cannot read available_filter_functions:");
	if (nfuncs == 0)
		msg_die(EXIT_ERR, "no traceable kernel function matches \"%s\" "
			"(see available_filter_functions)", o.funcs);
	if (nfuncs > MAX_PROBES && !kc.profiler && !o.force)
		msg_die(EXIT_ERR, "\"%s\" matches %d functions: more than %d probes are slow "
			"to set up; narrow the globs, or force with -F", o.funcs, nfuncs,
			MAX_PROBES);
}

/* name_rows - a row per function, named as the counts are: with the profiler,
 * the cut of its name it shows, one row for the functions that share it */
static void name_rows(void)
{
	char label[64];
	int i;

	funcs = xcalloc(nfuncs, sizeof(*funcs));
	for (i = 0; i < nfuncs; i++) {
		funcs[i].name = list[i];
		if (!kc.profiler)
			continue;
		probes_profiler_label(list, nfuncs, i, label, sizeof(label));
		if (strcmp(label, list[i]))
			funcs[i].name = xstrdup(label);
	}
}

int main(int argc, char **argv)
{
	char ttext[48] = "";

	msg_init("funccount");
	sig_init();
	parse(argc, argv);
	session_tracefs();
	kc.profiler = kernel_has(KF_FUNC_PROFILER);
	if (!kc.profiler && !kernel_has(KF_KPROBES))
		msg_die(EXIT_ERR, "this kernel does not allow counting functions: no function "
			"profiler (CONFIG_FUNCTION_PROFILER) and no kprobes (kprobe_events)");
	match();
	name_rows();

	sess = session_open("funccount");
	kcount_setup(&kc, sess, o.funcs, list, nfuncs);
	/* the counts start at 0: the profiler's at the switch, new probes' at creation */

	if (o.top)
		snprintf(ttext, sizeof(ttext), " Top %lu only.", o.top);
	out_init(0);

	/*
	 * between the switches, only the banner (it means "counting") and the
	 * wait (and -i's reads); a stop that comes first waits for the wait
	 */
	if (!o.interval)
		sig_hold();
	kcount_switch(&kc, 1);
	if (o.duration > 0)
		out_banner("Tracing \"%s\" for %g seconds.%s..\n", o.funcs, o.duration, ttext);
	else
		out_banner("Tracing \"%s\".%s.. Ctrl-C to end.\n", o.funcs, ttext);
	fflush(stdout);
	if (o.interval)
		stream_idle(o.duration, o.interval, summary, NULL);
	else
		stream_wait(o.duration);
	kcount_switch(&kc, 0);
	sig_release();
	/* the last (or only) interval, also when ended early by Ctrl-C */
	if (!out_broken())
		summary(NULL);
	out_ending();
	return EXIT_OK;
}

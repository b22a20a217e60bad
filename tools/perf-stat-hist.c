/* SPDX-License-Identifier: GPL-2.0-only */
/* perf-stat-hist - a histogram of a numeric field of any tracepoint
 *
 * Counts the events of one tracepoint by the value of one of its fields, in
 * power-of-N buckets (-P, -m) or buckets given (-b), filtered in the kernel
 * where -f says, until Ctrl-C or for a number of seconds; then prints the
 * counts, exact, in the original's table. Where the kernel has hist triggers
 * it counts by exact value (a trigger proven at startup, fieldhist.c) and
 * nothing goes through the ring buffer; elsewhere every event is copied to
 * user space and counted here, as stderr says.
 * Overhead: in the kernel, a table update per event; in user space, every
 * event is copied through the ring buffer.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "fieldhist.h"
#include "filter.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "session.h"
#include "signals.h"
#include "stream.h"

static const char usage_text[] =
"USAGE: perf-stat-hist [-hj] [-b buckets | -P power] [-m max] [-f filter]\n"
"                      tracepoint variable [seconds]\n"
"                 -b buckets      # bucket points, eg \"10 50 100\"\n"
"                 -P power        # power-of-N buckets (default 4)\n"
"                 -m max          # the last power-of-N bucket (default 1048576)\n"
"                 -f filter       # only events this filter matches\n"
"                 -j              # JSON Lines, one object at the end (also --json)\n"
"                 -h              # this usage message\n"
"                 tracepoint      # SYSTEM:EVENT, eg syscalls:sys_exit_read\n"
"                 variable        # a numeric field of it, eg ret\n"
"                 seconds         # duration (default: until Ctrl-C)\n"
"  eg,\n"
"       perf-stat-hist syscalls:sys_enter_read count 5\n"
"               # sizes read() asks for, for 5 seconds\n"
"       perf-stat-hist syscalls:sys_exit_read ret 5\n"
"               # what read() returns, for 5 seconds\n"
"       perf-stat-hist -P 10 syscalls:sys_exit_read ret 5\n"
"               # the same in power-of-10 buckets\n"
"       perf-stat-hist -P 2 -m 1024 syscalls:sys_exit_read ret 5\n"
"               # power-of-2 buckets up to 1024\n"
"       perf-stat-hist -b \"10 50 100 500\" syscalls:sys_exit_read ret 5\n"
"               # these buckets\n"
"       perf-stat-hist -b 10 syscalls:sys_exit_read ret 5\n"
"               # below 10, and 10 or more\n"
"       perf-stat-hist -f 'common_pid == 181' syscalls:sys_exit_read ret\n"
"               # reads of PID 181 only\n"
"\n";

struct opts {
	const char *buckets;	/* -b (NULL: power-of-N) */
	unsigned long power, max;
	double duration;
	char tp[256];		/* the tracepoint as given */
};

static struct opts o = { NULL, 4, 1048576, 0, "" };
static struct fieldhist_spec spec;
static char sys[128], ev[128];

/* power_edges - 0, 1, P, P^2, ... up to max, as the original */
static void power_edges(void)
{
	unsigned long long s = 1;

	spec.edge[spec.nedge++] = 0;
	while (s <= o.max && spec.nedge < FIELDHIST_EDGES) {
		spec.edge[spec.nedge++] = (long long)s;
		if (s > o.max / o.power)
			break;
		s *= o.power;
	}
}

/* parse - options and operands, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c, power = 0, max = 0;
	const char *colon, *tp;

	while ((c = opt_next(argc, argv, "b:f:hjm:P:", NULL, usage_text)) != -1) {
		switch (c) {
		case 'b': o.buckets = optarg; break;
		case 'f': spec.filter = optarg; break;
		case 'm': o.max = opt_ulong(optarg, "-m", 0, LLONG_MAX); max = 1; break;
		case 'P': o.power = opt_ulong(optarg, "-P", 2, 1UL << 31); power = 1; break;
		}
	}
	opt_apart(o.buckets != NULL, "-b", power, "-P");
	opt_apart(o.buckets != NULL, "-b", max, "-m");
	/* the tracepoint is checked first: "-- -f" names it, not what is missing */
	opt_operands(argc, 1, 3, "tracepoint and variable (eg, syscalls:sys_exit_read ret)",
		     "tracepoint, variable and seconds only");
	tp = argv[optind];
	colon = strchr(tp, ':');
	if (!colon || (size_t)(colon - tp) >= sizeof(sys) || strlen(colon + 1) >= sizeof(ev))
		opt_usage("tracepoint '%.60s' is not SYSTEM:EVENT", tp);
	memcpy(sys, tp, colon - tp);
	strcpy(ev, colon + 1);
	if (!opt_is_ident(sys) || !opt_is_ident(ev))
		opt_usage("tracepoint '%.60s' is not SYSTEM:EVENT (letters, digits, _)", tp);
	snprintf(o.tp, sizeof(o.tp), "%s:%s", sys, ev);
	opt_operands(argc, 2, 3, "variable (eg, syscalls:sys_exit_read ret)",
		     "tracepoint, variable and seconds only");
	spec.sys = sys;
	spec.ev = ev;
	spec.field = argv[optind + 1];
	if (optind + 2 < argc)
		o.duration = opt_seconds(argv[optind + 2], "seconds");
	if (spec.filter) {
		opt_no_ctrl(spec.filter, "-f");
		filter_check(spec.filter, "-f");
	}
	if (o.buckets)
		fieldhist_edges(&spec, o.buckets, "-b", LLONG_MIN + 1, LLONG_MAX);
	else
		power_edges();
}

/* banner - the original's line: what, which buckets, how long */
static void banner(void)
{
	char what[512], how[64], until[64];

	if (spec.filter)
		snprintf(what, sizeof(what), "%s (Filter: %s)", o.tp, spec.filter);
	else
		snprintf(what, sizeof(what), "%s", o.tp);
	if (o.buckets)
		snprintf(how, sizeof(how), "specified buckets");
	else
		snprintf(how, sizeof(how), "power-of-%lu, max %lld", o.power,
			 spec.edge[spec.nedge - 1]);
	if (o.duration > 0)
		snprintf(until, sizeof(until), "for %g seconds", o.duration);
	else
		snprintf(until, sizeof(until), "until Ctrl-C");
	out_banner("Tracing %s, %s, %s...\n", what, how, until);
	fflush(stdout);
}

/* report - the table, or one JSON object: tracepoint, variable, buckets */
static void report(void)
{
	static struct line line;
	size_t n;
	const struct fieldhist_group *g = fieldhist_groups(&n);

	if (out_json) {
		line_begin(&line, clock_ns());
		col_str(&line, "tracepoint", o.tp, ALIGN_LEFT, 0, -1);
		col_str(&line, "variable", spec.field, ALIGN_LEFT, 0, -1);
		fieldhist_json(&line, "buckets", g);
		line_put(&line);
	} else {
		printf("\n");
		fieldhist_print(stdout, g, "Range", "Count", 1);
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct session *s;

	msg_init("perf-stat-hist");
	sig_init();
	parse(argc, argv);
	fieldhist_check(&spec);

	s = session_open("perf-stat-hist");
	fieldhist_setup(s, &spec);
	fieldhist_start(s);	/* counting is on before the banner */
	banner();
	fieldhist_run(s, o.duration);

	if (!out_broken())
		report();
	out_ending();
	fieldhist_report(s);
	return EXIT_OK;
}

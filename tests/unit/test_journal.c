/* SPDX-License-Identifier: GPL-2.0-only */
/* test_journal - the records of a run's journal, and the ones the reaper refuses */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"

static int failed;
static char got[1024];

/* check - print PASS/FAIL name for one condition */
static void check(const char *name, int ok)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	if (!ok)
		failed = 1;
}

/* keep - journal_parse callback: "file=content;" for each record */
static void keep(const char *file, const char *content, int left, void *arg)
{
	size_t n = strlen(got);

	(void)arg;
	snprintf(got + n, sizeof(got) - n, "%s%s=%s;", left ? "+" : "", file, content);
}

/* parse - journal_parse on a copy of text; its result, records in `got` */
static int parse(const char *text, size_t len)
{
	char *copy = malloc(len + 1);
	int rc;

	memcpy(copy, text, len);
	copy[len] = '\0';
	got[0] = '\0';
	rc = journal_parse(copy, len, keep, NULL);
	free(copy);
	return rc;
}

#define PARSE(s) parse(s, sizeof(s) - 1)

int main(void)
{
	check("two_records", PARSE("current_tracer\n3\nnop\nmax_graph_depth\n1\n0\n") == 0 &&
	      !strcmp(got, "current_tracer=nop;max_graph_depth=0;"));
	check("empty_content", PARSE("set_ftrace_filter\n0\n\n") == 0 &&
	      !strcmp(got, "set_ftrace_filter=;"));
	check("multi_line_content", PARSE("set_graph_function\n10\nvfs_read\nx\n") == 0 &&
	      !strcmp(got, "set_graph_function=vfs_read\nx;"));
	check("option_path", PARSE("options/funcgraph-tail\n1\n1\n") == 0 &&
	      !strcmp(got, "options/funcgraph-tail=1;"));
	/* funcgraph -p where the kernel graphs only at the top level */
	check("function_fork", PARSE("options/function-fork\n1\n0\n") == 0 &&
	      !strcmp(got, "options/function-fork=0;"));
	check("profiler_records", PARSE("set_ftrace_filter\n18\nvfs_read\nvfs_write\n"
					"function_profile_enabled\n1\n0\n") == 0 &&
	      !strcmp(got, "set_ftrace_filter=vfs_read\nvfs_write;function_profile_enabled=0;"));
	check("trace_emptied", PARSE("trace\n0\n\n") == 0 && !strcmp(got, "trace=;"));
	check("refuses_trace_content", PARSE("trace\n1\nx\n") < 0);
	check("trace_clock", PARSE("trace_clock\n5\nlocal\n") == 0 && !strcmp(got, "trace_clock=local;"));
	check("refuses_unjournaled_file", PARSE("buffer_size_kb\n4\n1408\n") < 0 && !got[0]);
	check("refuses_unjournaled_option", PARSE("options/funcgraph-overrun\n1\n1\n") < 0);
	/* funcgraph -I, funcslower's threshold */
	check("irqs_option", PARSE("options/funcgraph-irqs\n1\n1\n") == 0 &&
	      !strcmp(got, "options/funcgraph-irqs=1;"));
	check("tracing_thresh", PARSE("tracing_thresh\n1\n0\n") == 0 &&
	      !strcmp(got, "tracing_thresh=0;"));
	check("refuses_event_file", PARSE("events/sched/enable\n1\n1\n") < 0);
	check("refuses_kprobe_events", PARSE("kprobe_events\n16\np:x/y vfs_read\n\n") < 0);
	check("refuses_newline_one_value", PARSE("current_tracer\n8\nnop\nfunc\n") < 0);
	check("refuses_newline_option", PARSE("options/funcgraph-cpu\n2\n1\n\n") < 0);
	check("refuses_trailing_newline_depth", PARSE("max_graph_depth\n2\n0\n\n") < 0);
	check("empty_journal", PARSE("") == 0 && !got[0]);
	check("refuses_dotdot", PARSE("../../etc/passwd\n1\nx\n") < 0 && !got[0]);
	check("refuses_absolute", PARSE("/etc/passwd\n1\nx\n") < 0);
	check("refuses_odd_name", PARSE("current tracer\n1\nx\n") < 0);
	check("refuses_long_length", PARSE("current_tracer\n30\nnop\n") < 0);
	check("refuses_short_length", PARSE("current_tracer\n1\nnop\n") < 0);
	check("refuses_truncated", PARSE("current_tracer\n3\nnop") < 0);
	check("refuses_no_length", PARSE("current_tracer\n") < 0);
	check("refuses_signed_length", PARSE("current_tracer\n-1\nx\n") < 0);
	check("refuses_nul_in_content", parse("current_tracer\n3\nn\0p\n", 21) < 0);
	check("keeps_records_before_junk", PARSE("current_tracer\n3\nnop\njunk") < 0 &&
	      !strcmp(got, "current_tracer=nop;"));
	/* the values a run left ("=FILE"), after what to put back */
	check("left_values", PARSE("current_tracer\n3\nnop\n=current_tracer\n14\nfunction_graph\n"
				   "=set_graph_function\n18\nvfs_read\nvfs_write\n") == 0 &&
	      !strcmp(got, "current_tracer=nop;+current_tracer=function_graph;"
			   "+set_graph_function=vfs_read\nvfs_write;"));
	check("left_trace_emptied", PARSE("=trace\n0\n\n") == 0 && !strcmp(got, "+trace=;"));
	check("refuses_left_unjournaled", PARSE("=buffer_size_kb\n4\n1408\n") < 0 && !got[0]);
	check("refuses_left_newline_one_value", PARSE("=tracing_on\n3\n1\n0\n") < 0);
	check("refuses_double_mark", PARSE("==current_tracer\n3\nnop\n") < 0);
	printf("%s test_journal\n", failed ? "FAIL" : "PASS");
	return failed;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_journal - the parser of the journals a SIGKILLed run leaves in /run/ftt
 *
 * The reaper writes what it parses back into tracefs, so besides "no crash, no
 * sanitizer report" every record it accepts is checked: a file a run
 * journals (the list below, kept apart from journal.c's on purpose), a single
 * line in a file of one value, nothing for the trace buffer, and a content that lies inside the input with
 * no NUL in it.
 */
#include "fuzz.h"
#include "journal.h"

struct span {
	const char *lo, *hi;
	int records;
};

/* check - journal_parse callback: the record is one the reaper may write */
static void check(const char *file, const char *content, int left, void *arg)
{
	struct span *s = arg;

	static const char *const lists[] = { "set_ftrace_filter", "set_graph_function",
		"set_ftrace_pid", "set_ftrace_notrace_pid", NULL };
	static const char *const values[] = { "current_tracer", "tracing_on", "max_graph_depth",
		"tracing_thresh", "function_profile_enabled", "options/sleep-time", "options/funcgraph-tail",
		"options/funcgraph-irqs", "options/funcgraph-duration", "options/funcgraph-proc", "options/funcgraph-abstime",
		"options/funcgraph-cpu", "options/funcgraph-overhead", "options/funcgraph-retval",
		"options/function-fork", "options/funcgraph-retaddr", "options/funcgraph-args", "trace_clock",
		NULL };
	int i, list = -1;

	(void)left;	/* a value left or one to put back: the same rules */

	for (i = 0; lists[i]; i++)
		if (!strcmp(file, lists[i]))
			list = 1;
	for (i = 0; values[i]; i++)
		if (!strcmp(file, values[i]))
			list = 0;
	if (!strcmp(file, "trace") && !*content)
		list = 2;
	if (list < 0 || (!list && strchr(content, '\n')))
		abort();
	if (content < s->lo || content + strlen(content) >= s->hi)
		abort();
	s->records++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct span s;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	s.lo = text;
	s.hi = text + size;
	s.records = 0;
	journal_parse(text, size, check, &s);
	free(text);
	return 0;
}

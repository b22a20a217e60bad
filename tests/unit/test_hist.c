/* SPDX-License-Identifier: GPL-2.0-only */
/* test_hist - histogram slots, ranges, bars and the perf-tools table layout */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

static int failed;

/* check - print PASS/FAIL name for one condition */
static void check(const char *name, int ok)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	if (!ok)
		failed = 1;
}

/* bcc_table - hist_print_log2 into a string */
static char *bcc_table(const struct hist *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	hist_print_log2(f, h, "usecs");
	fclose(f);
	return buf;
}

/* table - hist_print into a string */
static char *table(const struct hist *h, const char *unit)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	hist_print(f, h, unit, "I/O");
	fclose(f);
	return buf;
}

int main(void)
{
	struct hist h;
	unsigned long long lo, hi;
	char bar[HIST_BAR_WIDTH + 1], *t;

	check("log2_slot_0", hist_log2_slot(0) == 0);
	check("log2_slot_1", hist_log2_slot(1) == 1);
	check("log2_slot_2_3", hist_log2_slot(2) == 2 && hist_log2_slot(3) == 2);
	check("log2_slot_4_7", hist_log2_slot(4) == 3 && hist_log2_slot(7) == 3);
	check("log2_slot_1023_1024", hist_log2_slot(1023) == 10 && hist_log2_slot(1024) == 11);
	check("log2_slot_max", hist_log2_slot(~0ULL) == 64);

	hist_init(&h, 0);
	hist_range(&h, 0, &lo, &hi);
	check("log2_range_0", lo == 0 && hi == 1);
	hist_range(&h, 3, &lo, &hi);
	check("log2_range_3", lo == 4 && hi == 8);
	hist_range(&h, 64, &lo, &hi);
	check("log2_range_top_unbounded", lo == 1ULL << 63 && hi == 0);
	/* every value lies in the range of its slot */
	{
		unsigned long long v;
		int ok = 1;

		for (v = 0; v < 5000; v++) {
			hist_range(&h, hist_slot(&h, v), &lo, &hi);
			if (v < lo || v >= hi)
				ok = 0;
		}
		check("log2_value_in_its_range", ok);
	}

	hist_init(&h, 10);
	check("linear_slots", hist_slot(&h, 0) == 0 && hist_slot(&h, 9) == 0 &&
	      hist_slot(&h, 10) == 1 && hist_slot(&h, 25) == 2);
	check("linear_overflow_last", hist_slot(&h, 1000000) == HIST_SLOTS - 1);
	hist_range(&h, 2, &lo, &hi);
	check("linear_range", lo == 20 && hi == 30);
	hist_range(&h, HIST_SLOTS - 1, &lo, &hi);
	check("linear_last_unbounded", hi == 0);

	check("bar_full", strlen(hist_bar(bar, 38, 7, 7)) == 38);
	check("bar_empty", strlen(hist_bar(bar, 38, 0, 7)) == 0);
	check("bar_min_one", strlen(hist_bar(bar, 38, 1, 1000000)) == 1);
	check("bar_ceil", strlen(hist_bar(bar, 38, 1, 2)) == 19 && strlen(hist_bar(bar, 38, 1, 3)) == 13);
	check("bar_huge_counts", strlen(hist_bar(bar, 38, ~0ULL / 2, ~0ULL)) == 19);

	hist_init(&h, 0);
	hist_add(&h, 0, 4381);
	hist_add(&h, 1, 9);
	hist_add(&h, 5, 1);
	check("total", hist_total(&h) == 4391);
	t = table(&h, "ms");
	check("table_perf_tools_layout", !strcmp(t,
		"  >=(ms) .. <(ms)   : I/O      |Distribution                          |\n"
		"       0 -> 1       : 4381     |######################################|\n"
		"       1 -> 2       : 9        |#                                     |\n"
		"       2 -> 4       : 0        |                                      |\n"
		"       4 -> 8       : 1        |#                                     |\n"));
	free(t);

	hist_init(&h, 0);
	t = table(&h, "us");
	check("table_empty_one_row", !strcmp(t,
		"  >=(us) .. <(us)   : I/O      |Distribution                          |\n"
		"       0 -> 1       : 0        |                                      |\n"));
	free(t);

	/* bcc's layout: rows 1 ("0 -> 1", the zeros too) to the last one used,
	 * stars as the count's share of the largest, rounded down */
	hist_init(&h, 0);
	hist_add(&h, 0, 1);
	hist_add(&h, 1, 1);
	hist_add(&h, 40000, 3);
	hist_add(&h, 300000, 2);
	t = bcc_table(&h);
	check("bcc_table_header", !strncmp(t, "     usecs               : count     distribution\n", 50));
	check("bcc_table_first_row", strstr(t, "\n         0 -> 1          : 2        |"
				       "**************************              |\n") != NULL);
	check("bcc_table_row_40000", strstr(t, "\n     32768 -> 65535      : 3        |"
				       "****************************************|\n") != NULL);
	check("bcc_table_row_300000", strstr(t, "\n    262144 -> 524287     : 2        |"
				       "**************************              |\n") != NULL);
	check("bcc_table_empty_row", strstr(t, "\n         2 -> 3          : 0        |"
				       "                                        |\n") != NULL);
	check("bcc_table_last_row", strstr(t, "524287") && !strstr(t, "1048575"));
	free(t);
	hist_init(&h, 0);
	t = bcc_table(&h);
	check("bcc_table_empty", t && !*t);
	free(t);
	return failed;
}

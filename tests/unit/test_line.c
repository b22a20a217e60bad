/* SPDX-License-Identifier: GPL-2.0-only */
/* test_line - the line builder writes what the printf conversions it replaces would,
 * escapes text from the traced, and ends a line cut to fit as it says */
#include <limits.h>

#include "line.h"
#include "unit.h"

static struct line l;

/* same - l's text equals want; l is emptied */
static int same(const char *want)
{
	int ok = l.n == strlen(want) && !memcmp(l.buf, want, l.n);

	if (!ok)
		printf("  got \"%.*s\", want \"%s\"\n", l.n > 200 ? 200 : (int)l.n, l.buf, want);
	l.n = 0;
	l.cut = 0;
	return ok;
}

/* check_vis - a column is escaped, then padded to the width it shows */
static void check_vis(void)
{
	l.n = 0;
	line_str(&l, "a\x1b", ALIGN_LEFT, 8, 16);
	CHECK("line_str_vis", same("a\\x1b   "));
	line_str(&l, "\n", ALIGN_RIGHT, 6, -1);
	CHECK("line_rstr_vis", same("  \\x0a"));
}

/* put_lines - line_put of a line made by fill(), then of "next\n"; what was written */
static char *put_lines(void (*fill)(void), size_t *len)
{
	char *mem = NULL;
	FILE *saved = out;

	out = open_memstream(&mem, len);
	fill();
	line_put(&l);
	line_add(&l, "next\n");
	line_put(&l);
	fclose(out);
	out = saved;
	return mem;
}

/* fill_long - a text line of 20000 bytes (the buffer holds 16384), then its newline */
static void fill_long(void)
{
	int i;

	for (i = 0; i < 2000; i++)
		line_add(&l, "0123456789");
	line_add(&l, "\n");
}

/* fill_utf8 - a line of 2-byte characters, one byte off so the cut falls inside one */
static void fill_utf8(void)
{
	int i;

	line_add(&l, "x");
	for (i = 0; i < 10000; i++)
		line_str(&l, "\xc3\xa9", ALIGN_LEFT, 0, -1);
	line_add(&l, "\n");
}

/* fill_exact - a line that fills the buffer exactly, its newline last: not cut */
static void fill_exact(void)
{
	memset(l.buf, 'a', sizeof(l.buf) - 1);
	l.n = sizeof(l.buf) - 1;
	line_add(&l, "\n");
}

/* check_cut - a text line too long for the buffer still ends with a newline and says it was cut */
static void check_cut(void)
{
	static const char mark[] = " [truncated]\n";
	size_t len, m = sizeof(mark) - 1, n6 = 5;
	char *w = put_lines(fill_long, &len), *nl;

	nl = w ? memchr(w, '\n', len) : NULL;
	CHECK("cut: one line, then the next on its own",
	      nl && len >= n6 && !memcmp(w + len - n6, "next\n", n6) && nl + 1 == w + len - n6);
	CHECK("cut: marked at its end", nl && (size_t)(nl + 1 - w) > m &&
	      !memcmp(nl + 1 - m, mark, m));
	CHECK("cut: within the buffer", nl && (size_t)(nl + 1 - w) <= sizeof(l.buf));
	CHECK("cut: what is kept is the line's start", w && !memcmp(w, "0123456789012", 13));
	if (w && nl && len < 200)
		printf("  wrote \"%.*s\"\n", (int)len, w);
	free(w);

	w = put_lines(fill_utf8, &len);
	nl = w ? memchr(w, '\n', len) : NULL;
	CHECK("cut utf8: marked", nl && (size_t)(nl + 1 - w) > m && !memcmp(nl + 1 - m, mark, m));
	CHECK("cut utf8: at a whole character", nl && (size_t)(nl + 1 - w) > m + 2 &&
	      !memcmp(nl + 1 - m - 2, "\xc3\xa9", 2) && !memmem(w, len, "\\x", 2));
	free(w);

	w = put_lines(fill_exact, &len);
	CHECK("exact fit: not cut", w && len == sizeof(l.buf) + 5 && w[sizeof(l.buf) - 2] == 'a' &&
	      w[sizeof(l.buf) - 1] == '\n' && !memcmp(w + sizeof(l.buf), "next\n", 5));
	free(w);
}

int main(void)
{
	static const char *strs[] = { "", "a", "bash", "exactly16chars!!", "seventeen chars!!",
				      "a name longer than any column here" };
	static const long long nums[] = { 0, 1, -1, 9, 10, 99999, 100000, 1234567, -42,
					  LLONG_MAX, LLONG_MIN + 1 };
	static const unsigned long long bases[] = { 0, 1, 7, 8, 0100000, 02000000, 0x3, 0xabc,
						    ~0ULL };
	static const int widths[] = { 0, 1, 4, 6, 7, 8, 16 };
	char want[256];
	size_t i, j, k;

	for (i = 0; i < sizeof(strs) / sizeof(*strs); i++)
		for (j = 0; j < sizeof(widths) / sizeof(*widths); j++) {
			int w = widths[j];

			snprintf(want, sizeof(want), "%-*.16s", w, strs[i]);
			line_str(&l, strs[i], ALIGN_LEFT, w, 16);
			CHECK("str_max16", same(want));
			snprintf(want, sizeof(want), "%-*s", w, strs[i]);
			line_str(&l, strs[i], ALIGN_LEFT, w, -1);
			CHECK("str", same(want));
			snprintf(want, sizeof(want), "%*s", w, strs[i]);
			line_str(&l, strs[i], ALIGN_RIGHT, w, -1);
			CHECK("rstr", same(want));
		}
	for (i = 0; i < sizeof(nums) / sizeof(*nums); i++)
		for (j = 0; j < sizeof(widths) / sizeof(*widths); j++) {
			snprintf(want, sizeof(want), "%-*lld", widths[j], nums[i]);
			line_dec(&l, nums[i], ALIGN_LEFT, widths[j]);
			CHECK("dec_left", same(want));
			snprintf(want, sizeof(want), "%*lld", widths[j], nums[i]);
			line_dec(&l, nums[i], ALIGN_RIGHT, widths[j]);
			CHECK("dec_right", same(want));
		}
	/* line_num, the hot path's number: as "%0Wllu" and "%0Wllx" */
	for (i = 0; i < sizeof(bases) / sizeof(*bases); i++)
		for (k = 0; k < sizeof(widths) / sizeof(*widths); k++) {
			snprintf(want, sizeof(want), "%0*llu", widths[k], bases[i]);
			line_num(&l, bases[i], 10, widths[k]);
			CHECK("line_num_dec", same(want));
			snprintf(want, sizeof(want), "%0*llx", widths[k], bases[i]);
			line_num(&l, bases[i], 16, widths[k]);
			CHECK("line_num_hex", same(want));
		}
	line_addn(&l, "abcdef", 3);
	CHECK("line_addn", same("abc"));

	/* columns in a row, then a line that overflows: truncated, never past the end */
	line_str(&l, "cat", ALIGN_LEFT, 16, 16);
	line_add(&l, " ");
	line_dec(&l, 4242, ALIGN_LEFT, 6);
	line_add(&l, " ");
	line_str(&l, "0x3", ALIGN_RIGHT, 4, -1);
	line_add(&l, " /etc/passwd\n");
	CHECK("row", same("cat              4242    0x3 /etc/passwd\n"));
	for (i = 0; i < sizeof(l.buf) / 10 + 5; i++)
		line_str(&l, "0123456789", ALIGN_LEFT, 10, -1);
	CHECK("overflow_truncates", l.n == sizeof(l.buf));
	line_str(&l, "x", ALIGN_RIGHT, 100, -1);
	line_dec(&l, 5, ALIGN_LEFT, 100);
	line_num(&l, 5, 10, 100);
	line_add(&l, "more");
	CHECK("full_stays_full", l.n == sizeof(l.buf));
	l.n = 0;
	l.cut = 0;
	check_cut();
	check_vis();
	return unit_done("test_line");
}

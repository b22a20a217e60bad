/* SPDX-License-Identifier: GPL-2.0-only */
/* test_output - the line builder writes what the printf conversions it replaces would,
 * and text from the traced reaches the terminal escaped */
#include <limits.h>

#include "output.h"
#include "unit.h"

static struct out_line l;

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

/* vis_is - out_vis of src (n bytes) gives want */
static int vis_is(const char *src, size_t n, const char *want)
{
	char dst[256];
	size_t len = out_vis(dst, sizeof(dst), 0, src, n);
	int ok = len == strlen(want) && !strcmp(dst, want);

	if (!ok)
		printf("  out_vis gave \"%s\", want \"%s\"\n", dst, want);
	return ok;
}

/* written_is - what fn writes of src (n bytes) is want */
static int written_is(int text, const char *src, size_t n, const char *want)
{
	char *mem = NULL;
	size_t len = 0, done = n;
	FILE *fp = open_memstream(&mem, &len);
	int ok;

	if (text)
		done = out_text(fp, src, n);
	else
		out_write(fp, src, n);
	fclose(fp);
	ok = len == strlen(want) && !memcmp(mem, want, len) && (!text || done <= n);
	if (!ok)
		printf("  wrote \"%.*s\", want \"%s\"\n", (int)len, mem, want);
	free(mem);
	return ok;
}

/* S - a string literal and its length */
#define S(lit) lit, sizeof(lit) - 1

static void check_vis(void)
{
	char small[8];

	/* printable ASCII and UTF-8 as they are */
	CHECK("vis_plain", vis_is(S("/etc/passwd"), "/etc/passwd"));
	CHECK("vis_utf8", vis_is(S("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
				 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
	/* C0 (a newline too), DEL, ESC sequences */
	CHECK("vis_c0", vis_is(S("a\tb\nc\r\x7f"), "a\\x09b\\x0ac\\x0d\\x7f"));
	CHECK("vis_esc", vis_is(S("\x1b[1A\x1b[2K"), "\\x1b[1A\\x1b[2K"));
	/* C1 in UTF-8: CSI (U+009B), OSC (U+009D); the first printable one, U+00A0, stays */
	CHECK("vis_c1", vis_is(S("\xc2\x9b" "2J\xc2\x9d"), "\\xc2\\x9b2J\\xc2\\x9d"));
	CHECK("vis_nbsp", vis_is(S("\xc2\xa0"), "\xc2\xa0"));
	/* not UTF-8: a stray continuation, a cut character, overlong forms, surrogates, > U+10FFFF */
	CHECK("vis_stray", vis_is(S("\x80x"), "\\x80x"));
	CHECK("vis_cut", vis_is(S("\xe2\x82"), "\\xe2\\x82"));
	CHECK("vis_overlong", vis_is(S("\xc0\xaf\xe0\x80\xaf"), "\\xc0\\xaf\\xe0\\x80\\xaf"));
	CHECK("vis_surrogate", vis_is(S("\xed\xa0\x80"), "\\xed\\xa0\\x80"));
	CHECK("vis_too_big", vis_is(S("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"));
	CHECK("vis_nul", vis_is(S("a\0b"), "a\\x00b"));
	/* a full buffer stops at a whole character or escape, always terminated */
	CHECK("vis_full", out_vis(small, 5, 0, "ab\x1b", 3) == 2 && !strcmp(small, "ab"));
	CHECK("vis_full_utf8", out_vis(small, 3, 0, "a\xe2\x82\xac", 4) == 1 && !strcmp(small, "a"));
	/* a column is escaped, then padded to the width it shows */
	l.n = 0;
	line_str(&l, "a\x1b", 8, 16);
	CHECK("line_str_vis", same("a\\x1b   "));
	line_rstr(&l, "\n", 6);
	CHECK("line_rstr_vis", same("  \\x0a"));
	/* a line keeps its last newline only; a text stream keeps every newline */
	CHECK("write_line", written_is(0, S("cat\n2\x1b]0;x\x07 /tmp/a\n"), "cat\\x0a2\\x1b]0;x\\x07 /tmp/a\n"));
	CHECK("write_no_nl", written_is(0, S("a\nb"), "a\\x0ab"));
	CHECK("text_lines", written_is(1, S("a\x1b\nb\n"), "a\\x1b\nb\n"));
	/* a character cut at the end of a piece is held back, not escaped */
	CHECK("text_held", written_is(1, S("ab\xe2\x82"), "ab") && out_text(stdout, "ab\xe2\x82", 0) == 0);
	CHECK("text_bad_end", written_is(1, S("ab\xff"), "ab\\xff"));
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
		line_str(&l, "\xc3\xa9", 0, -1);
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
	char want[256], buf[80];
	size_t i, j, k;

	for (i = 0; i < sizeof(strs) / sizeof(*strs); i++)
		for (j = 0; j < sizeof(widths) / sizeof(*widths); j++) {
			int w = widths[j];

			snprintf(want, sizeof(want), "%-*.16s", w, strs[i]);
			line_str(&l, strs[i], w, 16);
			CHECK("str_max16", same(want));
			snprintf(want, sizeof(want), "%-*s", w, strs[i]);
			line_str(&l, strs[i], w, -1);
			CHECK("str", same(want));
			snprintf(want, sizeof(want), "%*s", w, strs[i]);
			line_rstr(&l, strs[i], w);
			CHECK("rstr", same(want));
		}
	for (i = 0; i < sizeof(nums) / sizeof(*nums); i++)
		for (j = 0; j < sizeof(widths) / sizeof(*widths); j++) {
			snprintf(want, sizeof(want), "%-*lld", widths[j], nums[i]);
			line_dec(&l, nums[i], widths[j]);
			CHECK("dec_left", same(want));
			snprintf(want, sizeof(want), "%*lld", widths[j], nums[i]);
			line_dec(&l, nums[i], -widths[j]);
			CHECK("dec_right", same(want));
		}
	for (i = 0; i < sizeof(bases) / sizeof(*bases); i++)
		for (k = 0; k < sizeof(widths) / sizeof(*widths); k++) {
			snprintf(want, sizeof(want), "%0*llo", widths[k], bases[i]);
			CHECK("oct", !strcmp(out_num(bases[i], 8, widths[k], buf, sizeof(buf)), want));
			snprintf(want, sizeof(want), "%0*llx", widths[k], bases[i]);
			CHECK("hex", !strcmp(out_num(bases[i], 16, widths[k], buf, sizeof(buf)), want));
		}
	CHECK("num_short_buffer", !strcmp(out_num(0x12345, 16, 0, buf, 4), "123"));
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
	line_str(&l, "cat", 16, 16);
	line_add(&l, " ");
	line_dec(&l, 4242, 6);
	line_add(&l, " ");
	line_rstr(&l, "0x3", 4);
	line_add(&l, " /etc/passwd\n");
	CHECK("row", same("cat              4242    0x3 /etc/passwd\n"));
	for (i = 0; i < sizeof(l.buf) / 10 + 5; i++)
		line_str(&l, "0123456789", 10, -1);
	CHECK("overflow_truncates", l.n == sizeof(l.buf));
	line_rstr(&l, "x", 100);
	line_dec(&l, 5, 100);
	line_num(&l, 5, 10, 100);
	line_add(&l, "more");
	CHECK("full_stays_full", l.n == sizeof(l.buf));
	l.n = 0;
	l.cut = 0;
	check_cut();
	check_vis();
	return unit_done("test_output");
}

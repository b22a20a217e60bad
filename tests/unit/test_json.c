/* SPDX-License-Identifier: GPL-2.0-only */
/* test_json - JSON Lines: every byte a traced process can choose is escaped so
 * the line parses, unknowns are null, histograms nest, and the same column
 * calls give the text */
#include <sys/utsname.h>
#include <time.h>

#include "fmt.h"
#include "json.h"
#include "line.h"
#include "msg.h"
#include "output.h"
#include "unit.h"

static struct line l;

/* esc_is - json_str of src (n bytes) gives want */
static int esc_is(const char *src, size_t n, const char *want)
{
	char dst[512];
	size_t len = json_str(dst, sizeof(dst), 0, src, n);
	int ok = len == strlen(want) && !strcmp(dst, want);

	if (!ok)
		printf("  json_str gave \"%s\", want \"%s\"\n", dst, want);
	return ok;
}

/* S - a string literal and its length */
#define S(lit) lit, sizeof(lit) - 1

/* check_escapes - every control byte, quotes, backslashes, C1, bytes not UTF-8 */
static void check_escapes(void)
{
	static const char *const c0[32] = {
		"\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006",
		"\\u0007", "\\b", "\\t", "\\n", "\\u000b", "\\f", "\\r", "\\u000e", "\\u000f",
		"\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016",
		"\\u0017", "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d",
		"\\u001e", "\\u001f" };
	char b[2], c1[2], want[16], small[8];
	int i;

	for (i = 0; i < 32; i++) {
		b[0] = (char)i;
		CHECK("json_c0", esc_is(b, 1, c0[i]));
	}
	CHECK("json_del", esc_is(S("\x7f"), "\\u007f"));
	for (i = 0x80; i <= 0x9f; i++) {
		c1[0] = (char)0xc2, c1[1] = (char)i;
		snprintf(want, sizeof(want), "\\u00%02x", i);
		CHECK("json_c1", esc_is(c1, 2, want));
	}
	for (i = 0x20; i < 0x7f; i++) {
		b[0] = (char)i;
		b[1] = '\0';
		CHECK("json_ascii", esc_is(b, 1, i == '"' ? "\\\"" : i == '\\' ? "\\\\" : b));
	}
	CHECK("json_quote", esc_is(S("a\"b\\c"), "a\\\"b\\\\c"));
	CHECK("json_utf8", esc_is(S("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0"),
				  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0"));
	/* not UTF-8: the text \xNN, its backslash escaped */
	CHECK("json_ff", esc_is(S("a\xff"), "a\\\\xff"));
	CHECK("json_stray", esc_is(S("\x80x"), "\\\\x80x"));
	CHECK("json_cut", esc_is(S("\xe2\x82"), "\\\\xe2\\\\x82"));
	CHECK("json_overlong", esc_is(S("\xc0\xaf"), "\\\\xc0\\\\xaf"));
	CHECK("json_surrogate", esc_is(S("\xed\xa0\x80"), "\\\\xed\\\\xa0\\\\x80"));
	CHECK("json_too_big", esc_is(S("\xf4\x90\x80\x80"), "\\\\xf4\\\\x90\\\\x80\\\\x80"));
	CHECK("json_c2_alone", esc_is(S("\xc2"), "\\\\xc2"));
	/* the tests' hostile name: ESC, newline, CSI in UTF-8, a byte not UTF-8 */
	CHECK("json_hostile", esc_is(S("a\033[1A\nb\302\233c\377"),
				     "a\\u001b[1A\\nb\\u009bc\\\\xff"));
	/* a full buffer stops at a whole character or escape, terminated */
	CHECK("json_full", json_str(small, 7, 0, "ab\x1b", 3) == 2 && !strcmp(small, "ab"));
	CHECK("json_full_utf8", json_str(small, 3, 0, "a\xe2\x82\xac", 4) == 1 && !strcmp(small, "a"));
}

/* check_time - ISO 8601 in UTC with nanoseconds */
static void check_time(void)
{
	char buf[48], now[48];
	struct timespec rt, mono;
	long long diff;

	CHECK("time_epoch", !strcmp(json_time(0, buf, sizeof(buf)), "1970-01-01T00:00:00.000000000Z"));
	CHECK("time_ns", !strcmp(json_time(1795563667123456789LL, buf, sizeof(buf)),
				 "2026-11-24T23:41:07.123456789Z"));
	/* a mono timestamp of now is now on the wall clock */
	clock_gettime(CLOCK_MONOTONIC, &mono);
	fmt_iso(mono.tv_sec * 1000000000ULL + mono.tv_nsec, buf, sizeof(buf));
	clock_gettime(CLOCK_REALTIME, &rt);
	json_time(rt.tv_sec * 1000000000LL + rt.tv_nsec, now, sizeof(now));
	diff = strncmp(buf, now, 19);
	CHECK("time_mono", strlen(buf) == 30 && buf[10] == 'T' && buf[29] == 'Z' &&
	      (diff == 0 || rt.tv_nsec < 100000000));
}

/* line_is - put l, and what out got is want */
static int line_is(const char *want)
{
	char *mem = NULL;
	size_t len = 0;
	int ok;

	out = open_memstream(&mem, &len);
	line_put(&l);
	fclose(out);
	ok = len == strlen(want) && !memcmp(mem, want, len);
	if (!ok)
		printf("  line \"%.*s\", want \"%s\"\n", (int)(len > 300 ? 300 : len), mem, want);
	free(mem);
	return ok;
}

/* line_is_end - put l, and what out got ends with want and is no longer than l.buf */
static int line_is_end(const char *want)
{
	char *mem = NULL;
	size_t len = 0, n = strlen(want);
	int ok;

	out = open_memstream(&mem, &len);
	line_put(&l);
	fclose(out);
	ok = len >= n && len <= sizeof(l.buf) && !memcmp(mem + len - n, want, n);
	free(mem);
	return ok;
}

/* columns - one row of every kind of column, as a tool makes it */
static void columns(void)
{
	line_begin(&l, LINE_NO_TIME);
	col_str(&l, "comm", "c\"at\n", ALIGN_LEFT, 8, 16);
	line_add(&l, " ");
	col_dec(&l, "pid", -42, ALIGN_RIGHT, 6);
	line_add(&l, " ");
	col_num(&l, "fd", 3, "0x3", ALIGN_RIGHT, 4);
	line_add(&l, " ");
	col_null(&l, "flags", "?", ALIGN_LEFT, 3);
	col_str(&l, "file", "/a\xff", ALIGN_LEFT, 6, -1);
	col_bool(&l, "cut", 1, " [cut]");
	col_bool(&l, "more", 0, " [...]");
	col_str(&l, "none", NULL, ALIGN_LEFT, 2, -1);
	col_fixed(&l, "latms", 273451, 6, 2, ALIGN_RIGHT, 8);
}

/* check_lines - the same calls in text and in JSON, nesting, overflow */
static void check_lines(void)
{
	char want[2048], big[20000];
	struct utsname u;
	int i;

	msg_init("unitjson");
	columns();
	CHECK("text_line", line_is("c\"at\\x0a    -42  0x3 ?  /a\\xff [cut]      0.27"));
	line_json_init();
	uname(&u);
	columns();
	snprintf(want, sizeof(want), "{\"time\":null,\"host\":\"%s\",\"tool\":\"unitjson\","
		 "\"comm\":\"c\\\"at\\n\",\"pid\":-42,\"fd\":3,\"flags\":null,\"file\":\"/a\\\\xff\","
		 "\"cut\":true,\"more\":false,\"none\":null,\"latms\":0.273451}\n", u.nodename);
	CHECK("json_line", line_is(want));
	/* a histogram: an array of objects */
	line_begin(&l, LINE_NO_TIME);
	col_str(&l, "disk", "sda", ALIGN_LEFT, 0, -1);
	col_open(&l, "hist", '[');
	for (i = 0; i < 2; i++) {
		col_open(&l, NULL, '{');
		col_dec(&l, "lo", i, ALIGN_LEFT, 0);
		col_dec(&l, "hi", i + 1, ALIGN_LEFT, 0);
		col_dec(&l, "count", 10 * i, ALIGN_LEFT, 0);
		col_close(&l);
	}
	col_close(&l);
	col_open(&l, "empty", '[');
	col_close(&l);
	col_open(&l, "open", '{');	/* left open: line_put closes it */
	snprintf(want, sizeof(want), "{\"time\":null,\"host\":\"%s\",\"tool\":\"unitjson\","
		 "\"disk\":\"sda\",\"hist\":[{\"lo\":0,\"hi\":1,\"count\":0},"
		 "{\"lo\":1,\"hi\":2,\"count\":10}],\"empty\":[],\"open\":{}}\n", u.nodename);
	CHECK("json_nest", line_is(want));
	/* a histogram as hist_print shows it: slots 0 to the last non-empty */
	{
		struct hist h;

		hist_init(&h, 0);
		hist_add(&h, 0, 2);
		hist_add(&h, 5, 3);
		line_begin(&l, LINE_NO_TIME);
		col_hist(&l, "hist", &h);
		snprintf(want, sizeof(want), "{\"time\":null,\"host\":\"%s\",\"tool\":\"unitjson\","
			 "\"hist\":[{\"lo\":0,\"hi\":1,\"count\":2},{\"lo\":1,\"hi\":2,\"count\":0},"
			 "{\"lo\":2,\"hi\":4,\"count\":0},{\"lo\":4,\"hi\":8,\"count\":3}]}\n",
			 u.nodename);
		CHECK("json_hist", line_is(want));
		hist_init(&h, 0);
		line_begin(&l, LINE_NO_TIME);
		col_hist(&l, "hist", &h);
		snprintf(want, sizeof(want), "{\"time\":null,\"host\":\"%s\",\"tool\":\"unitjson\","
			 "\"hist\":[{\"lo\":0,\"hi\":1,\"count\":0}]}\n", u.nodename);
		CHECK("json_hist_empty", line_is(want));
	}
	/* a time on the mono clock */
	line_begin(&l, 1000000000ULL);
	CHECK("json_time_member", !strncmp(l.buf, "{\"time\":\"", 9) && l.buf[9 + 29] == 'Z' &&
	      l.buf[9 + 30] == '"');
	l.n = 0;
	/* a line too long: the string is cut, the line still closes */
	memset(big, '\n', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	line_begin(&l, LINE_NO_TIME);
	col_open(&l, "a", '[');
	col_str(&l, NULL, big, ALIGN_LEFT, 0, -1);
	col_dec(&l, NULL, 1, ALIGN_LEFT, 0);
	CHECK("json_overflow_cut", l.n <= sizeof(l.buf) - 10 && !memcmp(l.buf + l.n - 3, "\\n\"", 3));
	CHECK("json_overflow_closed", l.depth == 1);
	CHECK("json_overflow_line", line_is_end("\\n\"],\"truncated\":true}\n"));
	/* a member left out says so too; a string that just fits does not */
	line_begin(&l, LINE_NO_TIME);
	i = (int)(sizeof(l.buf) - l.n - 100);
	memset(big, 'x', (size_t)i);
	big[i] = '\0';
	col_str(&l, "s", big, ALIGN_LEFT, 0, -1);
	CHECK("json_fits", !l.cut);
	col_str(&l, "t", big, ALIGN_LEFT, 0, 80);
	col_dec(&l, "n", 1234567890, ALIGN_LEFT, 0);
	CHECK("json_left_out", line_is_end(",\"truncated\":true}\n"));
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	line_begin(&l, LINE_NO_TIME);
	col_str(&l, "s", big, ALIGN_LEFT, 0, -1);
	CHECK("json_string_cut", line_is_end("yy\",\"truncated\":true}\n"));
	line_begin(&l, LINE_NO_TIME);
	col_str(&l, "s", "short", ALIGN_LEFT, 0, -1);
	CHECK("json_not_cut", line_is_end("\"s\":\"short\"}\n"));
	/* the text-only adders add nothing to a JSON line */
	line_begin(&l, LINE_NO_TIME);
	i = (int)l.n;
	line_str(&l, "x", ALIGN_LEFT, 4, -1);
	line_str(&l, "y", ALIGN_RIGHT, 4, -1);
	line_dec(&l, 5, ALIGN_LEFT, 4);
	line_add(&l, " ");
	CHECK("json_text_only", (int)l.n == i);
	l.n = 0;
	out_json = 0;
}

int main(void)
{
	check_escapes();
	check_time();
	check_lines();
	return unit_done("test_json");
}

/* test_output - the line builder writes what the printf conversions it replaces would */
#include <limits.h>

#include "output.h"
#include "unit.h"

static struct out_line l;

/* same - l's text equals want; l is emptied */
static int same(const char *want)
{
	int ok = l.n == strlen(want) && !memcmp(l.buf, want, l.n);

	if (!ok)
		printf("  got \"%.*s\", want \"%s\"\n", (int)l.n, l.buf, want);
	l.n = 0;
	return ok;
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
	CHECK("full_stays_full", l.n == sizeof(l.buf));
	return unit_done("test_output");
}

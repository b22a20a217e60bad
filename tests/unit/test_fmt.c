/* SPDX-License-Identifier: GPL-2.0-only */
/* test_fmt - numbers as text: what the printf conversions they replace would write */
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "unit.h"

int main(void)
{
	static const unsigned long long bases[] = { 0, 1, 7, 8, 0100000, 02000000, 0x3, 0xabc,
						    ~0ULL };
	static const int widths[] = { 0, 1, 4, 6, 7, 8, 16 };
	char want[256], buf[80];
	size_t i, k;

	for (i = 0; i < sizeof(bases) / sizeof(*bases); i++)
		for (k = 0; k < sizeof(widths) / sizeof(*widths); k++) {
			snprintf(want, sizeof(want), "%0*llo", widths[k], bases[i]);
			CHECK("oct", !strcmp(fmt_num(bases[i], 8, widths[k], buf, sizeof(buf)), want));
			snprintf(want, sizeof(want), "%0*llx", widths[k], bases[i]);
			CHECK("hex", !strcmp(fmt_num(bases[i], 16, widths[k], buf, sizeof(buf)), want));
		}
	CHECK("num_short_buffer", !strcmp(fmt_num(0x12345, 16, 0, buf, 4), "123"));
	return unit_done("test_fmt");
}

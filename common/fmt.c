/* SPDX-License-Identifier: GPL-2.0-only */
/* fmt.c - numbers and times as text: digits in a base, a trace timestamp in
 * seconds, a mono timestamp as wall-clock time
 *
 * Each writes what a printf conversion or strftime would; the digits are
 * written by hand, as the line builder (line.c) adds numbers on its hot path.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fmt.h"
#include "json.h"

/* fmt_digits - v in base 8, 10 or 16, zero-padded to width, at the end of d */
int fmt_digits(unsigned long long v, int base, int width, char *d, int size)
{
	int at = size;

	if (base == 16)
		do
			d[--at] = "0123456789abcdef"[v & 15];
		while ((v >>= 4));
	else if (base == 10)
		do
			d[--at] = (char)('0' + v % 10);
		while ((v /= 10));
	else
		do
			d[--at] = (char)('0' + v % (unsigned)base);
		while ((v /= (unsigned)base));
	while (at > size - width && at > 0)
		d[--at] = '0';
	return at;
}

/* fmt_num - v in base 8, 10 or 16, zero-padded to width, in buf */
char *fmt_num(unsigned long long v, int base, int width, char *buf, size_t len)
{
	char d[72];
	int at = fmt_digits(v, base, width, d, sizeof(d));
	size_t k = sizeof(d) - at;

	if (len) {
		k = k < len - 1 ? k : len - 1;
		memcpy(buf, d + at, k);
		buf[k] = '\0';
	}
	return buf;
}

/* fmt_time - format a trace timestamp (ns) as seconds.microseconds */
char *fmt_time(unsigned long long ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%06llu", ns / 1000000000ULL, (ns % 1000000000ULL) / 1000);
	return buf;
}

/* fmt_mono_offset - CLOCK_REALTIME - CLOCK_MONOTONIC in ns, taken once */
long long fmt_mono_offset(void)
{
	static long long offset;
	struct timespec rt, mono;

	if (!offset) {
		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC, &mono);
		offset = (rt.tv_sec - mono.tv_sec) * 1000000000LL + (rt.tv_nsec - mono.tv_nsec);
	}
	return offset;
}

/* fmt_iso - UTC wall-clock ISO 8601 time of a CLOCK_MONOTONIC timestamp */
char *fmt_iso(unsigned long long mono_ns, char *buf, size_t len)
{
	return json_time((long long)mono_ns + fmt_mono_offset(), buf, len);
}

/* fmt_hms - local wall-clock HH:MM:SS of a CLOCK_MONOTONIC timestamp (trace_clock mono) */
char *fmt_hms(unsigned long long mono_ns, char *buf, size_t len)
{
	struct tm tm;
	time_t t;

	t = (time_t)(((long long)mono_ns + fmt_mono_offset()) / 1000000000LL);
	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
	return buf;
}

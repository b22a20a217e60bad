/* SPDX-License-Identifier: GPL-2.0-only */
/* fmt.h - numbers and times as text: digits in a base, a trace timestamp in
 * seconds, a mono timestamp as wall-clock time (not format.h: event formats) */
#ifndef FTT_FMT_H
#define FTT_FMT_H

#include <stddef.h>

/* fmt_digits - v in base 8, 10 or 16, zero-padded to width, written to the end
 * of d (size bytes); where it starts */
int fmt_digits(unsigned long long v, int base, int width, char *d, int size);
/* fmt_num - v in base 8, 10 or 16, zero-padded to width ("%0Wllo", "%0Wllx") */
char *fmt_num(unsigned long long v, int base, int width, char *buf, size_t len);
/* fmt_time - format a trace timestamp (ns) as seconds.microseconds */
char *fmt_time(unsigned long long ns, char *buf, size_t len);
/* fmt_mono_offset - CLOCK_REALTIME - CLOCK_MONOTONIC in ns, taken on the first
 * call: every wall-clock time a run prints is converted on the same basis */
long long fmt_mono_offset(void);
/* fmt_iso - UTC wall-clock "YYYY-MM-DDTHH:MM:SS.NNNNNNNNNZ" of a CLOCK_MONOTONIC timestamp */
char *fmt_iso(unsigned long long mono_ns, char *buf, size_t len);
/* fmt_hms - local wall-clock HH:MM:SS of a CLOCK_MONOTONIC timestamp (trace_clock mono) */
char *fmt_hms(unsigned long long mono_ns, char *buf, size_t len);

#endif

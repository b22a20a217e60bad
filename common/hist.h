/* SPDX-License-Identifier: GPL-2.0-only */
/* hist.h - power-of-two and linear histograms, and the perf-tools bar printer */
#ifndef FTT_HIST_H
#define FTT_HIST_H

#include <stdio.h>

/* enough power-of-two slots for any 64-bit value; also the linear slot count */
#define HIST_SLOTS 65

/* the bar is 38 characters wide, as in perf-tools */
#define HIST_BAR_WIDTH 38

struct hist {
	unsigned long long slot[HIST_SLOTS];
	unsigned long long step;	/* 0: power-of-two slots; else linear slot width */
};

/* hist_log2_slot - power-of-two slot of v: 0 holds [0,1), k holds [2^(k-1), 2^k) */
int hist_log2_slot(unsigned long long v);
/* hist_init - empty histogram, power-of-two (step 0) or linear slots of width step */
void hist_init(struct hist *h, unsigned long long step);
/* hist_slot - the slot v falls in (linear: the last slot also takes everything above) */
int hist_slot(const struct hist *h, unsigned long long v);
/* hist_add - count n values of v */
void hist_add(struct hist *h, unsigned long long v, unsigned long long n);
/* hist_range - the [lo, hi) a slot covers (hi 0: unbounded) */
void hist_range(const struct hist *h, int slot, unsigned long long *lo, unsigned long long *hi);
/*
 * hist_lat - the latency from start_ns to end_ns in whole microseconds (usecs)
 * or whole milliseconds: each timestamp is truncated to microseconds first, as
 * the kernel's common_timestamp.usecs is, so a hist trigger pairing the same
 * two events counts the same value
 */
unsigned long long hist_lat(unsigned long long start_ns, unsigned long long end_ns, int usecs);
/* hist_total - number of values counted */
unsigned long long hist_total(const struct hist *h);
/* hist_bar - ceil(width * count / max) '#' characters (one at least for a non-zero count) */
char *hist_bar(char *buf, int width, unsigned long long count, unsigned long long max);
/*
 * hist_print - the perf-tools table: a header "  >=(UNIT) .. <(UNIT)   : LABEL |Distribution |"
 * then one row per slot from 0 to the highest non-empty one (just slot 0 when empty)
 */
void hist_print(FILE *f, const struct hist *h, const char *unit, const char *label);
/*
 * hist_print_log2 - a power-of-two histogram in bcc's layout: a header
 * "     LABEL               : count     distribution", then a row
 * "LO -> HI : COUNT |***|" per slot up to the highest non-empty one (the
 * first row, "0 -> 1", holds the zeros too); nothing when it is empty
 */
void hist_print_log2(FILE *f, const struct hist *h, const char *label);

#endif

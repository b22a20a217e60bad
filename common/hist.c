/* SPDX-License-Identifier: GPL-2.0-only */
/* hist.c - power-of-two and linear histograms, and the perf-tools bar printer
 *
 * Slots are half-open, [lo, hi), so the printed ">=" and "<" labels say
 * exactly what each row holds. Power-of-two slot k of a value is its bit
 * length: the same slot the kernel's ".log2" hist key gives for v + 1, so a
 * histogram built in the kernel and one built here agree value for value.
 */
#include <string.h>

#include "hist.h"

/* hist_log2_slot - power-of-two slot of v: 0 holds [0,1), k holds [2^(k-1), 2^k) */
int hist_log2_slot(unsigned long long v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

/* hist_init - empty histogram, power-of-two (step 0) or linear slots of width step */
void hist_init(struct hist *h, unsigned long long step)
{
	memset(h, 0, sizeof(*h));
	h->step = step;
}

/* hist_slot - the slot v falls in (linear: the last slot also takes everything above) */
int hist_slot(const struct hist *h, unsigned long long v)
{
	if (!h->step)
		return hist_log2_slot(v);
	return v / h->step >= HIST_SLOTS - 1 ? HIST_SLOTS - 1 : (int)(v / h->step);
}

/* hist_add - count n values of v */
void hist_add(struct hist *h, unsigned long long v, unsigned long long n)
{
	h->slot[hist_slot(h, v)] += n;
}

/* hist_range - the [lo, hi) a slot covers (hi 0: unbounded) */
void hist_range(const struct hist *h, int slot, unsigned long long *lo, unsigned long long *hi)
{
	if (!h->step) {
		*lo = slot ? 1ULL << (slot - 1) : 0;
		*hi = slot < 64 ? 1ULL << slot : 0;
		return;
	}
	*lo = slot * h->step;
	*hi = slot < HIST_SLOTS - 1 ? (slot + 1) * h->step : 0;
}

/* hist_lat - see hist.h */
unsigned long long hist_lat(unsigned long long start_ns, unsigned long long end_ns, int usecs)
{
	unsigned long long us = end_ns / 1000 - start_ns / 1000;

	return usecs ? us : us / 1000;
}

/* hist_total - number of values counted */
unsigned long long hist_total(const struct hist *h)
{
	unsigned long long n = 0;
	int i;

	for (i = 0; i < HIST_SLOTS; i++)
		n += h->slot[i];
	return n;
}

/* hist_bar - ceil(width * count / max) '#' characters (one at least for a non-zero count) */
char *hist_bar(char *buf, int width, unsigned long long count, unsigned long long max)
{
	unsigned long long n = 0;

	if (max && count) {
		/* exact integer ceiling; the 128-bit product cannot overflow */
		n = (unsigned long long)(((unsigned __int128)count * width + max - 1) / max);
		if (n > (unsigned long long)width)
			n = width;
	}
	memset(buf, '#', n);
	buf[n] = '\0';
	return buf;
}

/* hist_print_log2 - see hist.h */
void hist_print_log2(FILE *f, const struct hist *h, const char *label)
{
	unsigned long long max = 0, v;
	int i, j, last = 0, wide, stars;
	char bar[41];

	for (i = 0; i < HIST_SLOTS; i++) {
		v = i == 1 ? h->slot[0] + h->slot[1] : h->slot[i];
		if (i && v)
			last = i;
		if (i && v > max)
			max = v;
	}
	if (h->slot[0] && !last)
		last = 1;
	if (!last)
		return;
	wide = last > 32;
	stars = wide ? 20 : 40;
	if (wide)
		fprintf(f, "               %-29s : count     distribution\n", label);
	else
		fprintf(f, "     %-19s : count     distribution\n", label);
	for (i = 1; i <= last; i++) {
		unsigned long long lo = (1ULL << i) >> 1, hi = (1ULL << i) - 1;

		if (i >= 64) {
			lo = 1ULL << 63;
			hi = ~0ULL;
		}
		if (lo == hi)
			lo--;
		v = i == 1 ? h->slot[0] + h->slot[1] : h->slot[i];
		/* the count's share of the largest, in whole stars (rounded down) */
		for (j = 0; j < stars && (unsigned long long)(j + 1) * max <= (unsigned long long)stars * v;
		     j++)
			bar[j] = '*';
		bar[j] = '\0';
		if (wide)
			fprintf(f, "%20llu -> %-20llu : %-8llu |%-*s|\n", lo, hi, v, stars, bar);
		else
			fprintf(f, "%10llu -> %-10llu : %-8llu |%-*s|\n", lo, hi, v, stars, bar);
	}
}

/* hist_print - the perf-tools table, rows 0 .. highest non-empty slot */
void hist_print(FILE *f, const struct hist *h, const char *unit, const char *label)
{
	char from[32], to[32], bar[HIST_BAR_WIDTH + 1];
	unsigned long long max = 0, lo, hi;
	int i, last = 0;

	for (i = 0; i < HIST_SLOTS; i++) {
		if (h->slot[i])
			last = i;
		if (h->slot[i] > max)
			max = h->slot[i];
	}
	snprintf(from, sizeof(from), ">=(%s)", unit);
	snprintf(to, sizeof(to), "<(%s)", unit);
	fprintf(f, "%8s .. %-8s: %-8s |%-*s|\n", from, to, label, HIST_BAR_WIDTH, "Distribution");
	for (i = 0; i <= last; i++) {
		hist_range(h, i, &lo, &hi);
		if (hi)
			snprintf(to, sizeof(to), "%llu", hi);
		else
			snprintf(to, sizeof(to), "inf");
		fprintf(f, "%8llu -> %-8s: %-8llu |%-*s|\n", lo, to, h->slot[i], HIST_BAR_WIDTH,
			hist_bar(bar, HIST_BAR_WIDTH, h->slot[i], max));
	}
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* clock.c - monotonic time in seconds, for deadlines, intervals and cache ages */
#include <time.h>

#include "clock.h"

/* clock_s - see clock.h */
double clock_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

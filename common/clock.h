/* SPDX-License-Identifier: GPL-2.0-only */
/* clock.h - the one clock the loops and timers read */
#ifndef FTT_CLOCK_H
#define FTT_CLOCK_H

/* clock_s - CLOCK_MONOTONIC in seconds (trace_clock mono counts the same time) */
double clock_s(void);

#endif

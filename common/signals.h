/* SPDX-License-Identifier: GPL-2.0-only */
/* signals.h - every way to stop ends the same way: a flag the loops check */
#ifndef FTT_SIGNALS_H
#define FTT_SIGNALS_H

#include <signal.h>

extern volatile sig_atomic_t sig_stop;

/*
 * sig_init - SIGINT/TERM/HUP/QUIT/PIPE set sig_stop. System calls restart, so a
 * stop never cuts a write to stdout short; a second stop signal makes a pipe on
 * stdout non-blocking, for a reader that takes nothing (signals.c)
 */
void sig_init(void);
/* sig_request_stop - ask every loop to end (used for EPIPE and -d expiry) */
void sig_request_stop(void);

#endif

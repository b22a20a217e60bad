/* SPDX-License-Identifier: GPL-2.0-only */
/* signals.h - every way to stop ends the same way: a flag the loops check */
#ifndef FTT_SIGNALS_H
#define FTT_SIGNALS_H

#include <signal.h>

extern volatile sig_atomic_t sig_stop;
/*
 * sig_cut - set with sig_stop by a stop signal alone: the user wants the end
 * now, so what is left may be cut short. A run's own end (its command ended,
 * its count of intervals done) sets sig_stop only: everything recorded is read.
 */
extern volatile sig_atomic_t sig_cut;

/*
 * sig_init - SIGINT/TERM/HUP/QUIT/PIPE set sig_stop. System calls restart, so a
 * stop never cuts a write to stdout short; a second stop signal makes a pipe on
 * stdout non-blocking, for a reader that takes nothing (signals.c)
 */
void sig_init(void);
/* sig_request_stop - ask every loop to end, not in haste (EPIPE, a command's end, a count done) */
void sig_request_stop(void);
/*
 * sig_hold - hold the stop signals back until sig_wait (or sig_release), so
 * that one sent before the wait begins is not lost
 */
void sig_hold(void);
/*
 * sig_wait - wait for a stop, or `duration` seconds (0: no limit), or fd (-1:
 * none) to report an error or a hangup, as a pipe does once its reader is
 * gone: one blocking system call (ppoll, the held signals let in for it
 * alone), and again only when another signal wakes it; the clock is read
 * only then (and once to start). 1 if fd reported, else 0.
 */
int sig_wait(double duration, int fd);
/* sig_release - the stop signals as they were before sig_hold */
void sig_release(void);

#endif

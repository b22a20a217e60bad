/* SPDX-License-Identifier: GPL-2.0-only */
/* signals.c - every way to stop ends the same way: a flag the loops check
 *
 * Handlers restart interrupted system calls (SA_RESTART): a stop must not cut
 * short a write to stdout, or the lines in it would be lost while the reader is
 * still reading (a slow `| grep`). The loops still wake at once: their sleeps
 * (nanosleep, poll) are never restarted. A reader that takes nothing at all
 * would then hold the tool in its write forever; a second stop signal makes a
 * pipe on stdout non-blocking, so the write fails, the output is dropped (said
 * on stderr by output.c) and the tool ends, tracing state put back. The pipe
 * is shared (the shell, the other commands of a pipeline): at exit, its flags
 * are put back as they were, after what stdio still holds is dropped.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "signals.h"

volatile sig_atomic_t sig_stop;
volatile sig_atomic_t sig_cut;
static volatile sig_atomic_t stops;	/* stop signals received (SIGPIPE aside) */
static int out_flags = -1;		/* stdout's file status flags at the start, if a pipe */
static volatile sig_atomic_t out_nonblock;	/* set by a second stop */
static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
static sigset_t held_mask;			/* the mask before sig_hold */
static int held;

/* on_signal - set the flag; the second stop lets a stuck write to a pipe fail */
static void on_signal(int sig)
{
	int fl;

	if (sig != SIGPIPE && ++stops >= 2 && out_flags >= 0) {
		fl = fcntl(STDOUT_FILENO, F_GETFL);
		if (fl >= 0 && fcntl(STDOUT_FILENO, F_SETFL, fl | O_NONBLOCK) == 0)
			out_nonblock = 1;
	}
	sig_cut = 1;
	sig_stop = 1;
}

/* restore_out - at exit: stdout's pipe blocking again, as the others sharing it left it */
static void restore_out(void)
{
	if (!out_nonblock)
		return;
	/* what stdio still holds would block the exit in its last flush: dropped */
	fflush(stdout);
	__fpurge(stdout);
	fcntl(STDOUT_FILENO, F_SETFL, out_flags);
	out_nonblock = 0;
}

/* sig_init - SIGINT/TERM/HUP/QUIT/PIPE set sig_stop; calls restart */
void sig_init(void)
{
	struct sigaction sa;
	struct stat st;
	size_t i;

	if (fstat(STDOUT_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
		out_flags = fcntl(STDOUT_FILENO, F_GETFL);
		/* registered before the session's cleanup, so it runs after it */
		atexit(restore_out);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		sigaction(stop_sigs[i], &sa, NULL);
}

/* sig_request_stop - see signals.h */
void sig_request_stop(void)
{
	sig_stop = 1;
}

/* sig_hold - see signals.h */
void sig_hold(void)
{
	sigset_t set;
	size_t i;

	if (held)
		return;
	sigemptyset(&set);
	for (i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		sigaddset(&set, stop_sigs[i]);
	held = sigprocmask(SIG_BLOCK, &set, &held_mask) == 0;
}

/* sig_wait - see signals.h */
int sig_wait(double duration, int fd)
{
	struct pollfd p = { .fd = fd, .events = 0 };
	double end = 0, left = duration;
	struct timespec ts;
	int n;

	if (duration > 0)
		end = clock_s() + duration;
	while (!sig_stop) {
		if (duration > 0) {
			if (left <= 0)
				break;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		}
		/* a sleep that lets the held stops in atomically, and wakes on fd */
		n = ppoll(&p, fd >= 0, duration > 0 ? &ts : NULL, held ? &held_mask : NULL);
		if (n == 0)
			break;		/* the whole time passed */
		if (n > 0 && (p.revents & (POLLERR | POLLHUP)))
			return 1;
		if (duration > 0)
			left = end - clock_s();
	}
	return 0;
}

/* sig_release - see signals.h */
void sig_release(void)
{
	if (held)
		sigprocmask(SIG_SETMASK, &held_mask, NULL);
	held = 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* sysgen - make one system call N times as fast as possible (bench load)
 *
 * usage: sysgen getppid|kill N
 * getppid: N getppid() calls, the cheapest call there is, so what a tracer
 * adds to each call shows in the loop's rate. kill: N kill(own pid, 0) calls,
 * a signal 0 that checks the target and sends nothing, but is a kill(2) for
 * every tracer of the signal-sending calls. Each is made with syscall(2), so
 * the C library cannot answer it without entering the kernel.
 * Prints "pid N seconds ops_per_sec ops_per_cpu_sec" on stdout, as opengen
 * does: the second rate counts only the time this process ran.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* clock_s - seconds on clock `id` */
static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long n, i;
	double t0, t1, c0, c1;
	pid_t me = getpid();
	int kill0;

	if (argc != 3 || (strcmp(argv[1], "getppid") && strcmp(argv[1], "kill")) ||
	    (n = strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: sysgen getppid|kill N\n");
		return 2;
	}
	kill0 = !strcmp(argv[1], "kill");
	t0 = clock_s(CLOCK_MONOTONIC);
	c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	if (kill0) {
		for (i = 0; i < n; i++)
			if (syscall(SYS_kill, me, 0) != 0) {
				perror("sysgen: kill");
				return 1;
			}
	} else {
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
	}
	c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	t1 = clock_s(CLOCK_MONOTONIC);
	printf("%d %lu %.6f %.0f %.0f\n", (int)me, n, t1 - t0, n / (t1 - t0), n / (c1 - c0));
	return 0;
}

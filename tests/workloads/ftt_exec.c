/* SPDX-License-Identifier: GPL-2.0-only */
/* ftt_exec - exec workload for the execsnoop tests
 *
 * usage: ftt_exec [--thread-fork=MS] [--ids=FILE] [--sleep=MS] [--setuid=UID]
 *                 [--exec PATH ARG...] [ARG...]
 * --thread-fork starts a second thread, which waits MS milliseconds and forks:
 * the child (its parent: this process, through a thread that is not its main
 * one) goes on with the rest of the arguments, and this process exits with the
 * child's status. --ids appends "PID PPID" to FILE; --sleep waits before
 * exiting (and after a failed --exec); --setuid changes user first; --exec
 * replaces this program with PATH and the ARGs as its argv (argv[0] included),
 * exiting 127 if that fails.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

static int n_args, at;
static char **args;
static long fork_ms;

static int run(int i);

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (ms > 0 && nanosleep(&ts, &ts) < 0)
		;
}

/* forker - the second thread: wait, fork; the child runs the rest */
static void *forker(void *arg)
{
	int st;
	pid_t c;

	(void)arg;
	nap(fork_ms);
	c = fork();
	if (c == 0)
		exit(run(at));
	if (c < 0 || waitpid(c, &st, 0) != c)
		exit(1);
	exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
}

int main(int argc, char **argv)
{
	pthread_t t;

	n_args = argc;
	args = argv;
	if (argc > 1 && !strncmp(argv[1], "--thread-fork=", 14)) {
		fork_ms = atol(argv[1] + 14);
		at = 2;
		if (pthread_create(&t, NULL, forker, NULL))
			return 1;
		for (;;)
			pause();
	}
	return run(1);
}

/* run - the arguments from the i-th on */
static int run(int i)
{
	int argc = n_args;
	char **argv = args;
	long ms = 0;
	FILE *f;

	for (; i < argc; i++) {
		if (!strncmp(argv[i], "--ids=", 6)) {
			f = fopen(argv[i] + 6, "a");
			if (!f)
				return 1;
			fprintf(f, "%d %d\n", (int)getpid(), (int)getppid());
			fclose(f);
		} else if (!strncmp(argv[i], "--sleep=", 8)) {
			ms = atol(argv[i] + 8);
		} else if (!strncmp(argv[i], "--setuid=", 9)) {
			if (setuid((uid_t)atol(argv[i] + 9)) < 0)
				return 1;
		} else if (!strcmp(argv[i], "--exec") && i + 2 < argc) {
			execv(argv[i + 1], argv + i + 2);
			nap(ms);
			return 127;
		} else {
			break;
		}
	}
	nap(ms);
	return 0;
}

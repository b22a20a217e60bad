/* SPDX-License-Identifier: GPL-2.0-only */
/* ftt_exec - exec workload for the execsnoop tests
 *
 * usage: ftt_exec [--ids=FILE] [--sleep=MS] [--setuid=UID] [--exec PATH ARG...] [ARG...]
 * --ids appends "PID PPID" to FILE; --sleep waits before exiting (and after a
 * failed --exec); --setuid changes user first; --exec replaces this program with
 * PATH and the ARGs as its argv (argv[0] included), exiting 127 if that fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (ms > 0 && nanosleep(&ts, &ts) < 0)
		;
}

int main(int argc, char **argv)
{
	long ms = 0;
	int i;
	FILE *f;

	for (i = 1; i < argc; i++) {
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

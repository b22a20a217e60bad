/* SPDX-License-Identifier: GPL-2.0-only */
/* opengen - open one unique path N times as fast as possible (bench load)
 *
 * usage: opengen N [PATH]
 * Creates PATH (default /tmp/opengen.PID), then does open(O_RDONLY)+close N
 * times, then removes it. Static and libc-startup free of other opens, so a
 * tracer of syscalls:sys_enter_openat sees exactly N events from this PID.
 * Prints "pid N seconds ops_per_sec ops_per_cpu_sec" on stdout: the second
 * rate counts only the time this process ran, not the time it waited for a
 * CPU (on a shared virtual machine the wall-clock rate swings with the host).
 * bench/rungs.sh builds the same file dynamic, as opengen_libc: then each open
 * goes through the C library's open64 (where opensnoop's uprobe rung sees it),
 * and the dynamic loader's own opens of the library come before the loop.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	char path[128];
	unsigned long n, i;
	double t0, t1, c0, c1;
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: opengen N [PATH]\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 10);
	if (argc == 3)
		snprintf(path, sizeof(path), "%s", argv[2]);
	else
		snprintf(path, sizeof(path), "/tmp/opengen.%d", (int)getpid());
	fd = creat(path, 0600);		/* creat(2): not an openat event */
	if (fd < 0) {
		perror(path);
		return 1;
	}
	close(fd);
	t0 = clock_s(CLOCK_MONOTONIC);
	c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++) {
		fd = open(path, O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
	c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	t1 = clock_s(CLOCK_MONOTONIC);
	unlink(path);
	printf("%d %lu %.6f %.0f %.0f\n", (int)getpid(), n, t1 - t0, n / (t1 - t0),
	       n / (c1 - c0));
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* readgen - read(2) one byte from /dev/zero N times as fast as possible (bench load)
 *
 * usage: readgen N
 * Each iteration is one read() system call, so one vfs_read() in the kernel:
 * the per-call cost of counting vfs_read shows in this loop's rate.
 * Prints "pid N seconds ops_per_sec" on stdout.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* now_s - monotonic time in seconds */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long n, i;
	double t0, t1;
	char c;
	int fd;

	if (argc != 2 || (n = strtoul(argv[1], NULL, 10)) == 0) {
		fprintf(stderr, "usage: readgen N\n");
		return 2;
	}
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0) {
		perror("readgen: /dev/zero");
		return 1;
	}
	t0 = now_s();
	for (i = 0; i < n; i++)
		if (read(fd, &c, 1) != 1) {
			perror("readgen: read");
			return 1;
		}
	t1 = now_s();
	close(fd);
	printf("%d %lu %.6f %.0f\n", (int)getpid(), n, t1 - t0, n / (t1 - t0));
	return 0;
}

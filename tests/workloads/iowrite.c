/* SPDX-License-Identifier: GPL-2.0-only */
/* iowrite - O_DIRECT block I/O of a known shape, for the iosnoop/iolatency tests
 *
 * usage: iowrite [--comm=NAME] [-r] [-l LOOPS] [-t RATE] [-w FILE] DEV SECTOR BYTES COUNT
 * Writes (or with -r reads) COUNT blocks of BYTES at SECTOR (512-byte units),
 * one after the other, bypassing the page cache; -l does it all LOOPS times.
 * -t issues at most RATE I/O a second: after each 1/100 s worth it sleeps
 * until that share of a second has passed, and a late start is not made up
 * with a burst.
 * -w waits until FILE exists first, so a test can learn the PID and start
 * tracing before any I/O. --comm=NAME, first, names the process NAME.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <unistd.h>

/* pace - sleep until NEXT, then set it 1/100 s on from the later of NEXT and now */
static void pace(struct timespec *next)
{
	struct timespec now;

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL);
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > next->tv_sec || (now.tv_sec == next->tv_sec && now.tv_nsec > next->tv_nsec))
		*next = now;
	next->tv_nsec += 10000000;
	if (next->tv_nsec >= 1000000000) {
		next->tv_nsec -= 1000000000;
		next->tv_sec++;
	}
}

int main(int argc, char **argv)
{
	const char *wait = NULL;
	unsigned long long sector, bytes, count, loops = 1, rate = 0, i;
	struct timespec next = { 0, 0 };
	int c, rd = 0, fd;
	void *buf;

	if (argc > 1 && !strncmp(argv[1], "--comm=", 7)) {
		prctl(PR_SET_NAME, argv[1] + 7, 0, 0, 0);
		argv[1] = argv[0];	/* getopt starts after it */
		argv++;
		argc--;
	}
	while ((c = getopt(argc, argv, "rl:t:w:")) != -1) {
		if (c == 'r')
			rd = 1;
		else if (c == 'l')
			loops = strtoull(optarg, NULL, 10);
		else if (c == 't')
			rate = strtoull(optarg, NULL, 10);
		else if (c == 'w')
			wait = optarg;
		else
			return 2;
	}
	if (argc - optind != 4) {
		fprintf(stderr, "usage: iowrite [-r] [-l LOOPS] [-t RATE] [-w FILE] DEV SECTOR BYTES COUNT\n");
		return 2;
	}
	sector = strtoull(argv[optind + 1], NULL, 10);
	bytes = strtoull(argv[optind + 2], NULL, 10);
	count = strtoull(argv[optind + 3], NULL, 10);
	while (wait && access(wait, F_OK) != 0)
		usleep(20000);
	fd = open(argv[optind], (rd ? O_RDONLY : O_WRONLY) | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, 4096, bytes)) {
		perror(argv[optind]);
		return 1;
	}
	memset(buf, 0x5a, bytes);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < count * loops; i++) {
		if (rate && i % (rate / 100 + 1) == 0)
			pace(&next);
		off_t off = (off_t)(sector * 512 + i % count * bytes);
		ssize_t n = rd ? pread(fd, buf, bytes, off) : pwrite(fd, buf, bytes, off);

		if (n != (ssize_t)bytes) {
			perror("iowrite");
			return 1;
		}
	}
	close(fd);
	return 0;
}

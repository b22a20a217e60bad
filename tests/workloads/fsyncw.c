/* SPDX-License-Identifier: GPL-2.0-only */
/* fsyncw - writes each followed by fdatasync(), for the cache flush tests
 *
 * usage: fsyncw DEV COUNT
 * COUNT times: write 4096 bytes (through the page cache) at the next 4 KiB of
 * DEV, then fdatasync(), which writes them and then asks the device to flush
 * its write cache: one flush request each, where the device has a write cache.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[4096];
	unsigned long long count, i;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: fsyncw DEV COUNT\n");
		return 2;
	}
	count = strtoull(argv[2], NULL, 10);
	fd = open(argv[1], O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, 'f', sizeof(buf));
	for (i = 0; i < count; i++) {
		if (pwrite(fd, buf, sizeof(buf), (off_t)(i * sizeof(buf))) != (ssize_t)sizeof(buf) ||
		    fdatasync(fd) < 0) {
			perror("fsyncw");
			return 1;
		}
	}
	return 0;
}

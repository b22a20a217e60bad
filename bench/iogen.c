/* SPDX-License-Identifier: GPL-2.0-only */
/* iogen - N direct 4 KiB reads from a file, one at a time (block I/O bench load)
 *
 * usage: iogen N FILE [SIZE_MB]
 * Creates FILE of SIZE_MB (default 64) if it is shorter, then reads N 4 KiB
 * blocks at pseudo-random aligned offsets with O_DIRECT, so each read is one
 * block request (block_rq_issue/complete). FILE may be a block device: it is
 * read as it is, over its first SIZE_MB at most. Prints "pid N seconds iops".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <time.h>
#include <unistd.h>

#define BS 4096

/* now_s - monotonic time in seconds */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* fill - make the file at least `bytes` long with real (allocated) blocks */
static int fill(const char *path, off_t bytes)
{
	static char buf[1 << 20];
	struct stat st;
	off_t have;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT, 0600);
	if (fd < 0 || fstat(fd, &st) < 0)
		return -1;
	memset(buf, 'x', sizeof(buf));
	for (have = st.st_size; have < bytes; have += sizeof(buf))
		if (pwrite(fd, buf, sizeof(buf), have) != (ssize_t)sizeof(buf))
			return -1;
	fsync(fd);
	close(fd);
	return 0;
}

/* is_blockdev - 0 if path is a block device, with *size cut to its size; else -1 */
static int is_blockdev(const char *path, off_t *size)
{
	unsigned long long bytes = 0;
	struct stat st;
	int fd;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return -1;
	fd = open(path, O_RDONLY);
	if (fd >= 0 && ioctl(fd, BLKGETSIZE64, &bytes) == 0 && bytes >= BS &&
	    (off_t)bytes < *size)
		*size = (off_t)bytes;
	if (fd >= 0)
		close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n, i, blocks, x = 88172645463325252ULL & 0xffffffff;
	off_t size;
	double t0, t1;
	void *buf;
	int fd;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: iogen N FILE [SIZE_MB]\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 10);
	size = (off_t)(argc == 4 ? atol(argv[3]) : 64) << 20;
	if (is_blockdev(argv[2], &size) < 0 && fill(argv[2], size) < 0) {
		perror(argv[2]);
		return 1;
	}
	fd = open(argv[2], O_RDONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, BS, BS)) {
		perror(argv[2]);
		return 1;
	}
	blocks = size / BS;
	t0 = now_s();
	for (i = 0; i < n; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;	/* xorshift */
		if (pread(fd, buf, BS, (off_t)(x % blocks) * BS) != BS) {
			perror("pread");
			return 1;
		}
	}
	t1 = now_s();
	close(fd);
	printf("%d %lu %.6f %.0f\n", (int)getpid(), n, t1 - t0, n / (t1 - t0));
	return 0;
}

/* procread.c - best-effort reads of a live process through /proc
 *
 * One open, one read and one close per call: meant for event rates where the
 * cost of tracing is dominated by the kernel and the printing anyway.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procread.h"

/* proc_mem - read len bytes of pid's memory at addr; 0 on success */
int proc_mem(int pid, unsigned long long addr, void *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	if (!addr)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = pread(fd, buf, len, (off_t)addr);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* proc_mem_str - a NUL-terminated string of pid's memory at addr; its length */
int proc_mem_str(int pid, unsigned long long addr, char *buf, size_t len)
{
	char path[64];
	size_t got = 0, chunk;
	ssize_t n;
	int fd;

	if (!addr || len == 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* read up to each page end, so a string near unmapped memory still reads */
	while (got < len - 1) {
		chunk = 4096 - ((addr + got) & 4095);
		if (chunk > len - 1 - got)
			chunk = len - 1 - got;
		n = pread(fd, buf + got, chunk, (off_t)(addr + got));
		if (n <= 0)
			break;
		if (memchr(buf + got, '\0', n)) {
			close(fd);
			return (int)strlen(buf);
		}
		got += n;
	}
	close(fd);
	if (got == 0)
		return -1;
	buf[got] = '\0';
	return (int)got;
}

/* proc_cmdline - pid's arguments (NUL-separated, len bytes at most); the byte count */
int proc_cmdline(int pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	size_t got = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got < len && (n = read(fd, buf + got, len - got)) > 0)
		got += n;
	close(fd);
	/* a zombie or a kernel thread has none: nothing to show */
	return got ? (int)got : -1;
}

/* proc_status - the first number of the "Key:" line of /proc/PID/status */
long proc_status(int pid, const char *key)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* proc_fd_path - what /proc/PID/fd/FD links to (malloc'd), or NULL */
char *proc_fd_path(int pid, int fd)
{
	char path[64], buf[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

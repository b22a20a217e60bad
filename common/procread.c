/* procread.c - best-effort reads of a live process through /proc
 *
 * Memory is read through /proc/PID/mem descriptors kept open for the last
 * few processes read, so a busy process costs one pread per string, not an
 * open, a read and a close. A kept descriptor of a process that has since
 * exited or exec'd reads nothing, and is then opened again once. A process
 * found gone is not looked for again for a moment: a reader catching up on a
 * backlog would otherwise pay a failed open and readlink per record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "procread.h"

#define NMEM 8

static struct {
	int pid, fd;
} mem[NMEM];
static unsigned int mem_next;

#define NGONE 8
#define GONE_NS 20000000LL	/* how long a process found gone stays gone */

static struct {
	int pid;
	long long until;
} gone[NGONE];
static unsigned int gone_next;

/* now_ns - a cheap monotonic clock */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* is_gone - was pid found gone in the last GONE_NS */
static int is_gone(int pid)
{
	unsigned int i;

	for (i = 0; i < NGONE; i++)
		if (gone[i].pid == pid)
			return gone[i].until > now_ns();
	return 0;
}

/* mark_gone - remember that pid's /proc directory has gone (errno ENOENT/ESRCH) */
static void mark_gone(int pid)
{
	unsigned int i;

	if (errno != ENOENT && errno != ESRCH)
		return;
	for (i = 0; i < NGONE && gone[i].pid != pid; i++)
		;
	if (i == NGONE)
		i = gone_next++ % NGONE;
	gone[i].pid = pid;
	gone[i].until = now_ns() + GONE_NS;
}

/* mem_fd - the kept /proc/PID/mem descriptor of pid (fresh: open it anew); -1 */
static int mem_fd(int pid, int fresh)
{
	char path[64];
	unsigned int i;
	int fd;

	for (i = 0; i < NMEM; i++)
		if (mem[i].pid == pid && mem[i].fd > 0) {
			if (!fresh)
				return mem[i].fd;
			close(mem[i].fd);
			mem[i].pid = 0;
			mem[i].fd = 0;
			break;
		}
	if (is_gone(pid))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		mark_gone(pid);
		return -1;
	}
	i = mem_next++ % NMEM;
	if (mem[i].fd > 0)
		close(mem[i].fd);
	mem[i].pid = pid;
	mem[i].fd = fd;
	return fd;
}

/* mem_read - pread pid's memory, through a kept descriptor, opened anew once on failure */
static ssize_t mem_read(int pid, void *buf, size_t len, unsigned long long addr)
{
	ssize_t n = -1;
	int fd, tries;

	for (tries = 0; tries < 2 && n <= 0; tries++) {
		fd = mem_fd(pid, tries);
		if (fd < 0)
			return -1;
		n = pread(fd, buf, len, (off_t)addr);
	}
	return n;
}

/* proc_mem - read len bytes of pid's memory at addr; 0 on success */
int proc_mem(int pid, unsigned long long addr, void *buf, size_t len)
{
	if (!addr || pid <= 0)
		return -1;
	return mem_read(pid, buf, len, addr) == (ssize_t)len ? 0 : -1;
}

/* proc_mem_str - a NUL-terminated string of pid's memory at addr; its length */
int proc_mem_str(int pid, unsigned long long addr, char *buf, size_t len)
{
	size_t got = 0, chunk;
	ssize_t n;

	if (!addr || len == 0 || pid <= 0)
		return -1;
	/* read up to each page end, so a string near unmapped memory still reads;
	 * most paths are short, so the first read stops at 256 bytes */
	while (got < len - 1) {
		chunk = 4096 - ((addr + got) & 4095);
		if (!got && chunk > 256)
			chunk = 256;
		if (chunk > len - 1 - got)
			chunk = len - 1 - got;
		n = mem_read(pid, buf + got, chunk, addr + got);
		if (n <= 0)
			break;
		if (memchr(buf + got, '\0', n))
			return (int)strlen(buf);
		got += n;
	}
	if (got == 0)
		return -1;
	buf[got] = '\0';
	return (int)got;
}

/* proc_comm - pid's name from /proc/PID/comm into buf; 0 on success */
int proc_comm(int pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	if (is_gone(pid))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		mark_gone(pid);
		return -1;
	}
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
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

/* proc_file_number - the first number of the "Key:" line of a /proc file; -1 */
long proc_file_number(const char *path, const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f;

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

/* proc_status - the first number of the "Key:" line of /proc/PID/status */
long proc_status(int pid, const char *key)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	return proc_file_number(path, key);
}

/* proc_fd_path - what /proc/PID/fd/FD links to (malloc'd), or NULL */
char *proc_fd_path(int pid, int fd)
{
	char path[64], buf[4096];
	ssize_t n;

	if (is_gone(pid))
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

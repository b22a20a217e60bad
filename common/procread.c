/* SPDX-License-Identifier: GPL-2.0-only */
/* procread.c - small reads of a live process's /proc files
 *
 * One open, read and close per call; callers read a process once, when they
 * first meet it, not per event.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procread.h"
#include "xalloc.h"

/* the inode the kernel gives its initial PID namespace (PROC_PID_INIT_INO) */
#define PIDNS_INITIAL	"pid:[4026531836]"

/* read_proc - up to len - 1 bytes of /proc/PID/NAME into buf; how many, or -1 */
static ssize_t read_proc(int pid, const char *name, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	return n;
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

/* proc_start - when pid started (field 22 of /proc/PID/stat, clock ticks after boot); 0 */
unsigned long long proc_start(int pid)
{
	char buf[1024], *p, *end;
	unsigned long long v;
	ssize_t n = read_proc(pid, "stat", buf, sizeof(buf));
	int i;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "PID (COMM) STATE ...": the name may hold spaces and ')', so from the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	/* the 20th space after it starts field 22 */
	for (i = 0; i < 20; i++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return 0;
	}
	p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	v = strtoull(p, &end, 10);
	return *end == ' ' || *end == '\n' || *end == '\0' ? v : 0;
}

/* id_of - a directory entry's name as a PID, or 0 if it is not one */
static int id_of(const char *name)
{
	char *end;
	long v = strtol(name, &end, 10);

	return isdigit((unsigned char)name[0]) && !*end && v > 0 && v <= 0x7fffffff ? (int)v : 0;
}

/* proc_threads - see procread.h */
void proc_threads(void (*fn)(int tid, int tgid, void *arg), void *arg)
{
	DIR *d = opendir("/proc"), *t;
	struct dirent *e, *f;
	char path[64];
	int tgid, tid;

	while (d && (e = readdir(d))) {
		tgid = id_of(e->d_name);
		if (!tgid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", tgid);
		t = opendir(path);
		while (t && (f = readdir(t)))
			if ((tid = id_of(f->d_name)))
				fn(tid, tgid, arg);
		if (t)
			closedir(t);
	}
	if (d)
		closedir(d);
}

/* proc_pidns_initial - see procread.h */
int proc_pidns_initial(void)
{
	char buf[64];
	ssize_t n = readlink("/proc/self/ns/pid", buf, sizeof(buf) - 1);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strcmp(buf, PIDNS_INITIAL) == 0;
}

/* proc_tids - every thread of PID (from /proc/PID/task); returns the count */
int proc_tids(pid_t pid, pid_t **tids)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0, cap = 16;
	pid_t *v;

	v = xmalloc(cap * sizeof(*v));
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		if (n == cap) {
			cap *= 2;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[n++] = atoi(d->d_name);
	}
	if (dir)
		closedir(dir);
	else
		v[n++] = pid;	/* no task list: the PID alone */
	*tids = v;
	return n;
}

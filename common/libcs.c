/* SPDX-License-Identifier: GPL-2.0-only */
/* libcs.c - the C libraries running processes map
 *
 * One pass over /proc/PID/maps at startup: a file read per process, so some
 * milliseconds on a busy machine. A library first mapped later (a container
 * started after the scan) is not in the list. Each library is opened once,
 * and what is probed is that open file, never a name looked up again.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "libcs.h"

#define MAX_SEEN 64

#ifndef NS_GET_OWNER_UID
#define NS_GET_OWNER_UID _IO(0xb7, 0x4)	/* linux/nsfs.h */
#endif

/* libc_name - is a mapped file's name that of a C library (glibc or musl) */
static int libc_name(const char *path)
{
	const char *b = strrchr(path, '/');

	b = b ? b + 1 : path;
	return !strcmp(b, "libc.so.6") || !strncmp(b, "ld-musl-", 8) ||
	       !strncmp(b, "libc.musl-", 10) || (!strncmp(b, "libc-2.", 7) && strstr(b, ".so"));
}

/* open_as - path opened for reading (flags added), if it is a regular file
 * with inode ino (and device dev unless dev is 0); the descriptor or -1 */
static int open_as(const char *path, int flags, dev_t dev, unsigned long ino, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | flags);

	if (fd < 0)
		return -1;
	if (fstat(fd, st) == 0 && S_ISREG(st->st_mode) && st->st_ino == ino &&
	    (!dev || st->st_dev == dev))
		return fd;
	close(fd);
	return -1;
}

/* lib_open - the file pid maps at `range` (device dev, inode ino) as p, opened
 * once: the mapping's link in /proc (the kernel's own, no name to swap; a
 * filesystem may report another device there, so the inode alone), else p
 * as we see it (a chroot shows ours), else p under pid's root (another mount
 * namespace), each without following a last symlink; -1 if none is it */
static int lib_open(int pid, const char *range, const char *p, dev_t dev, unsigned long ino,
		    struct stat *st)
{
	char path[1100];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/map_files/%s", pid, range);
	if ((fd = open_as(path, 0, 0, ino, st)) >= 0)
		return fd;
	if ((fd = open_as(p, O_NOFOLLOW, dev, ino, st)) >= 0)
		return fd;
	if (snprintf(path, sizeof(path), "/proc/%d/root%s", pid, p) >= (int)sizeof(path))
		return -1;
	return open_as(path, O_NOFOLLOW, dev, ino, st);
}

/* ns_root - the uid (ours) that pid's user namespace maps its root to, if
 * that namespace is not ours and root made it; -1 otherwise */
static long ns_root(int pid)
{
	struct stat a, b;
	char path[64];
	unsigned long in, out;
	uid_t owner;
	long root = -1;
	FILE *f;
	int fd, r;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
	if (stat("/proc/self/ns/user", &a) < 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	r = fstat(fd, &b) == 0 && (a.st_dev != b.st_dev || a.st_ino != b.st_ino) &&
	    ioctl(fd, NS_GET_OWNER_UID, &owner) == 0 && owner == 0;
	close(fd);
	if (!r)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
	if (!(f = fopen(path, "re")))
		return -1;
	while (root < 0 && fscanf(f, "%lu %lu %*u", &in, &out) == 2)
		if (in == 0)
			root = out;
	fclose(f);
	return root;
}

/* lib_unsafe - why a user other than root could have written the library st
 * that pid maps; NULL if none could */
static const char *lib_unsafe(const struct stat *st, int pid, char *why, size_t len)
{
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return "writable by its group or others";
	if (st->st_uid == 0 || (long)st->st_uid == ns_root(pid))
		return NULL;
	snprintf(why, len, "owned by uid %lu, not root", (unsigned long)st->st_uid);
	return why;
}

/* libcs_file_unsafe - see libcs.h */
const char *libcs_file_unsafe(int fd, char *why, size_t len)
{
	char path[4096], link[64], *p;
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st) < 0)
		return "cannot be checked (fstat failed)";
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return "writable by its group or others";
	if (st.st_uid != 0) {
		snprintf(why, len, "owned by uid %lu, not root", (unsigned long)st.st_uid);
		return why;
	}
	/* the kernel's name for the open file: no symbolic link left in it */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0 || n >= (ssize_t)sizeof(path) - 1 || path[0] != '/')
		return "its directories cannot be checked (no path)";
	path[n] = '\0';
	while ((p = strrchr(path, '/'))) {
		p[p == path] = '\0';	/* the parent; "/" stays "/" */
		if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
			snprintf(why, len, "directory %.200s cannot be checked", path);
			return why;
		}
		if (st.st_uid != 0) {
			snprintf(why, len, "in %.200s, owned by uid %lu", path,
				 (unsigned long)st.st_uid);
			return why;
		}
		/* a sticky directory (/tmp) lets no one else rename root's file */
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
			snprintf(why, len, "in %.200s, writable by its group or others", path);
			return why;
		}
		if (p == path)
			break;
	}
	return NULL;
}

/* libcs_each - see libcs.h */
int libcs_each(int max, void (*fn)(int fd, const char *name, int k, void *ctx),
	       void (*left)(const char *name, int pid, const char *why, void *ctx), void *ctx)
{
	struct { dev_t dev; ino_t ino; } seen[MAX_SEEN];
	int nseen = 0, ngiven = 0, fd, i;
	struct stat st;
	char line[1200], maps[64], buf[64];
	const char *why;
	struct dirent *de;
	DIR *d;
	FILE *f;

	if (max > MAX_SEEN)
		max = MAX_SEEN;
	if (!(d = opendir("/proc")))
		return -1;
	while ((de = readdir(d)) && ngiven < max && nseen < MAX_SEEN) {
		int pid = atoi(de->d_name);

		if (pid <= 0)
			continue;
		snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
		f = fopen(maps, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f) && ngiven < max && nseen < MAX_SEEN) {
			char *p = strchr(line, '/'), range[64];
			unsigned int maj, min;
			unsigned long ino;

			line[strcspn(line, "\n")] = '\0';
			/* "START-END r-xp OFFSET MAJ:MIN INODE PATH" */
			if (!p || !strstr(line, " r-xp ") || !libc_name(p) || strstr(p, " (deleted)") ||
			    sscanf(line, "%63s %*s %*s %x:%x %lu", range, &maj, &min, &ino) != 4 ||
			    (fd = lib_open(pid, range, p, makedev(maj, min), ino, &st)) < 0)
				continue;
			for (i = 0; i < nseen && (seen[i].dev != st.st_dev || seen[i].ino != st.st_ino); i++)
				;
			if (i < nseen) {
				close(fd);
				continue;
			}
			seen[nseen].dev = st.st_dev;
			seen[nseen++].ino = st.st_ino;
			if ((why = lib_unsafe(&st, pid, buf, sizeof(buf)))) {
				close(fd);
				left(p, pid, why, ctx);
				continue;
			}
			fn(fd, p, ngiven++, ctx);
		}
		fclose(f);
	}
	closedir(d);
	return ngiven;
}

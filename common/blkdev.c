/* SPDX-License-Identifier: GPL-2.0-only */
/* blkdev.c - a block device named as the user names it, looked up in sysfs
 *
 * -d takes a kernel name (sda, nvme0n1p2, cciss!c0d0: sysfs writes '/' as
 * '!'), a path under /dev or major,minor. A name is looked up in
 * /sys/class/block/NAME/dev, a path by the device number of its node, and the
 * device must exist under /sys/dev/block/MAJ:MIN. A partition's disk is the
 * directory above it there, and its place on the disk its start and size
 * files: the block events report the whole disk and the sector on it. What
 * the user typed is checked before it is put in a path: a name of letters,
 * digits and "_.!-", a path's parts also ':' and '+', never "." or "..". A
 * device that is not there, or a name that is not one, is a usage error.
 * Labels take the kernel's name of a device from its uevent file (DEVNAME),
 * shown only when it is a name as sysfs and /dev have it.
 * Cost: a few small sysfs reads per lookup or label; none per event.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blkdev.h"
#include "options.h"

/*
 * Where -d looks a device up: sysfs for names and for the check that a
 * device exists, the device directory for paths. Only the unit tests move
 * them (blkdev_set_roots), to a fake tree of their own.
 */
static const char *sys_root = "/sys";
static const char *dev_root = "/dev";

#define DEV_NAME_MAX	64	/* a kernel block device name, with room to spare */
#define DEV_PATH_MAX	255	/* a path under /dev, as typed */

/* blkdev_set_roots - look for devices under sysfs and dev instead of /sys and /dev (unit tests) */
void blkdev_set_roots(const char *sysfs, const char *dev)
{
	sys_root = sysfs;
	dev_root = dev;
}

/*
 * name_ok - n bytes of a kernel block device name, [A-Za-z0-9_.!-] ('!'
 * stands for '/'), or also ':' and '+' in a /dev path's parts; not ".", no ".."
 */
static int name_ok(const char *s, size_t n, int path)
{
	const char *punct = path ? "_.!-:+" : "_.!-";
	size_t i;

	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && (!s[i] || !strchr(punct, s[i])))
			return 0;
	return n && !(n == 1 && s[0] == '.') && !memmem(s, n, "..", 2);
}

/* parts_ok - n bytes of names joined by single '/': no "." or "..", no "//", no '/' at either end */
static int parts_ok(const char *s, size_t n)
{
	const char *end = s + n, *q;

	for (;; s = q + 1) {
		q = memchr(s, '/', (size_t)(end - s));
		if (!q)
			q = end;
		if (!name_ok(s, (size_t)(q - s), 1))
			return 0;
		if (q == end)
			return 1;
	}
}

/* path_ok - "/dev/" and then names joined by single '/' (parts_ok), not too long */
static int path_ok(const char *s)
{
	return !strncmp(s, "/dev/", 5) && strlen(s) <= DEV_PATH_MAX && parts_ok(s + 5, strlen(s + 5));
}

/* read_line - the first line of a small (sysfs) file, without its newline; -1 and errno on error */
static int read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* read_u64 - a sysfs file holding one decimal number; -1 if absent or not that */
static int read_u64(const char *path, unsigned long long *v)
{
	char buf[32], *end;

	if (read_line(path, buf, sizeof(buf)) < 0 || !isdigit((unsigned char)buf[0]))
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return *end || errno ? -1 : 0;
}

/* parse_mm - "MAJ<sep>MIN" of decimal numbers in range as the kernel's encoding; -1 if not */
static int parse_mm(const char *s, char sep, unsigned int *dev)
{
	unsigned long maj, min;
	char *end;

	if (!isdigit((unsigned char)s[0]) || strlen(s) > 20)
		return -1;
	maj = strtoul(s, &end, 10);
	if (*end != sep || !isdigit((unsigned char)end[1]))
		return -1;
	min = strtoul(end + 1, &end, 10);
	if (*end)
		return -1;
	if (maj > 4095 || min > 1048575)
		return -2;
	*dev = (unsigned int)(maj << 20 | min);
	return 0;
}

/* sys_dev_path - "<sysfs>/dev/block/MAJ:MIN<tail>" of a device */
static void sys_dev_path(char *buf, size_t len, unsigned int dev, const char *tail)
{
	snprintf(buf, len, "%s/dev/block/%u:%u%s", sys_root, dev >> 20, dev & 0xfffff, tail);
}

/* by_name - the device sysfs knows by this name (<sysfs>/class/block/NAME/dev) */
static unsigned int by_name(const char *s, const char *what)
{
	char path[PATH_MAX], line[32];
	unsigned int dev;
	struct stat st;

	snprintf(path, sizeof(path), "%s/class/block/%s/dev", sys_root, s);
	if (read_line(path, line, sizeof(line)) < 0) {
		if (errno == ENOENT || errno == ENOTDIR) {
			snprintf(path, sizeof(path), "%s/class/block", sys_root);
			if (stat(path, &st) < 0)
				opt_usage("%s: cannot look up '%s': no %s (sysfs not mounted?)",
					  what, s, path);
			opt_usage("%s: no block device named '%s'", what, s);
		}
		opt_usage("%s: cannot look up block device '%s': %s", what, s, strerror(errno));
	}
	if (parse_mm(line, ':', &dev) < 0)
		opt_usage("%s: block device '%s' has no device number", what, s);
	return dev;
}

/* by_path - the block device a path under /dev is the node of */
static unsigned int by_path(const char *s, const char *what)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", dev_root, s + 4);
	if (stat(path, &st) < 0)
		opt_usage("%s: %s: %s", what, s, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		opt_usage("%s: %s is not a block device", what, s);
	if (major(st.st_rdev) > 4095 || minor(st.st_rdev) > 1048575)
		opt_usage("%s: %s has a device number out of range", what, s);
	return (unsigned int)(major(st.st_rdev) << 20 | minor(st.st_rdev));
}

/* blkdev_parse - see blkdev.h */
void blkdev_parse(const char *s, const char *what, struct blkdev *d)
{
	char path[PATH_MAX], line[32], mm[24];
	struct stat st;
	int r;

	memset(d, 0, sizeof(*d));
	if (strchr(s, ',')) {
		r = parse_mm(s, ',', &d->dev);
		if (r == -2)
			opt_usage("%s: %.40s is out of range (major 0-4095, minor 0-1048575)",
				  what, s);
		if (r < 0)
			opt_usage("%s: '%.40s' is not major,minor (eg, 8,0)", what, s);
	} else if (s[0] == '/') {
		if (!path_ok(s))
			opt_usage("%s: '%.60s' is not a device path under /dev", what, s);
		d->dev = by_path(s, what);
	} else {
		if (strlen(s) > DEV_NAME_MAX || !name_ok(s, strlen(s), 0))
			opt_usage("%s: '%.40s' is not a device name, /dev path or major,minor "
				  "(eg, sda, /dev/sda, 8,0)", what, s);
		d->dev = by_name(s, what);
	}
	blkdev_str(d->dev, mm, sizeof(mm));
	/* every block device the kernel has is in <sysfs>/dev/block */
	sys_dev_path(path, sizeof(path), d->dev, "");
	if (stat(path, &st) < 0) {
		snprintf(path, sizeof(path), "%s/dev/block", sys_root);
		if (stat(path, &st) < 0)
			opt_usage("%s: cannot check device %s: no %s (sysfs not mounted?)",
				  what, mm, path);
		opt_usage("%s: no block device %s", what, mm);
	}
	d->disk = d->dev;
	sys_dev_path(path, sizeof(path), d->dev, "/partition");
	if (access(path, F_OK) < 0)
		return;
	/* a partition: its disk is the directory above it in sysfs */
	sys_dev_path(path, sizeof(path), d->dev, "/../dev");
	if (read_line(path, line, sizeof(line)) < 0 || parse_mm(line, ':', &d->disk) < 0)
		opt_usage("%s: cannot find the disk of partition %s", what, mm);
	sys_dev_path(path, sizeof(path), d->dev, "/start");
	r = read_u64(path, &d->start);
	sys_dev_path(path, sizeof(path), d->dev, "/size");
	if (r < 0 || read_u64(path, &d->size) < 0)
		opt_usage("%s: cannot read where partition %s lies on its disk", what, mm);
	if (!d->size || d->start + d->size < d->start)
		opt_usage("%s: partition %s is empty", what, mm);
}

/* blkdev_str - "major,minor" of a kernel dev value */
char *blkdev_str(unsigned int dev, char *buf, size_t len)
{
	snprintf(buf, len, "%u,%u", dev >> 20, dev & 0xfffff);
	return buf;
}

/* blkdev_name - the kernel's name of a block device (DEVNAME), "" if unknown */
char *blkdev_name(unsigned int dev, char *buf, size_t len)
{
	char path[PATH_MAX], text[512], *p, *e;
	size_t n;
	int fd;
	ssize_t got;

	buf[0] = '\0';
	sys_dev_path(path, sizeof(path), dev, "/uevent");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return buf;
	got = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (got <= 0)
		return buf;
	text[got] = '\0';
	for (p = text; p; p = e ? e + 1 : NULL) {
		e = strchr(p, '\n');
		if (strncmp(p, "DEVNAME=", 8))
			continue;
		p += 8;
		n = e ? (size_t)(e - p) : strlen(p);
		/* a name as sysfs and /dev have it (cciss/c0d0): nothing else is shown */
		if (n >= len || !parts_ok(p, n))
			return buf;
		memcpy(buf, p, n);
		buf[n] = '\0';
		return buf;
	}
	return buf;
}

/* blkdev_label - "major,minor (name)", or "major,minor" when the name is unknown */
char *blkdev_label(unsigned int dev, char *buf, size_t len)
{
	char mm[24], name[DEV_NAME_MAX + 1];

	blkdev_str(dev, mm, sizeof(mm));
	if (blkdev_name(dev, name, sizeof(name))[0])
		snprintf(buf, len, "%s (%s)", mm, name);
	else
		snprintf(buf, len, "%s", mm);
	return buf;
}

/* blkdev_desc - see blkdev.h */
char *blkdev_desc(const struct blkdev *d, char *buf, size_t len)
{
	char a[DEV_NAME_MAX + 32], b[DEV_NAME_MAX + 32];

	blkdev_label(d->dev, a, sizeof(a));
	if (!d->size)
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s, sectors %llu-%llu of %s", a, d->start,
			 d->start + d->size - 1, blkdev_label(d->disk, b, sizeof(b)));
	return buf;
}

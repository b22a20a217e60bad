/* SPDX-License-Identifier: GPL-2.0-only */
/* blkdev.h - a block device named as the user names it, looked up in sysfs */
#ifndef FTT_BLKDEV_H
#define FTT_BLKDEV_H

#include <stddef.h>

/*
 * the device -d names: a disk, or a partition. The block events report the
 * whole disk and the sector on it, so a partition is traced as its range of
 * the disk's sectors.
 */
struct blkdev {
	unsigned int dev;		/* as named: major << 20 | minor */
	unsigned int disk;		/* the disk its I/O is reported on (dev, unless a partition) */
	unsigned long long start;	/* a partition's first sector on the disk */
	unsigned long long size;	/* a partition's sectors (0: a whole disk) */
};

/*
 * blkdev_parse - a block device that exists, named as the kernel names it
 * (sda, nvme0n1p2, cciss!c0d0), by a path under /dev, or as major,minor;
 * usage error (one line, nothing else touched) otherwise
 */
void blkdev_parse(const char *s, const char *what, struct blkdev *d);
/* blkdev_set_roots - look for devices under sysfs and dev instead of /sys and /dev (unit tests) */
void blkdev_set_roots(const char *sysfs, const char *dev);
/* blkdev_str - "major,minor" of a kernel dev value */
char *blkdev_str(unsigned int dev, char *buf, size_t len);
/* blkdev_name - the kernel's name of a block device (DEVNAME), "" if unknown */
char *blkdev_name(unsigned int dev, char *buf, size_t len);
/* blkdev_label - "major,minor (name)", or "major,minor" when the name is unknown */
char *blkdev_label(unsigned int dev, char *buf, size_t len);
/*
 * blkdev_desc - what -d selects, for a banner: "254,0 (vda)", or for a
 * partition "254,1 (vda1), sectors 2048-4095 of 254,0 (vda)"
 */
char *blkdev_desc(const struct blkdev *d, char *buf, size_t len);

#endif

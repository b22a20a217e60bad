/* SPDX-License-Identifier: GPL-2.0-only */
/* test_blkdev - -d's device lookup (names, /dev paths, major,minor) and labels,
 * against a fake sysfs and /dev built in a temporary directory */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "blkdev.h"
#include "msg.h"
#include "unit.h"

static char root[64];

/* put - write text to root/rel, making its directories */
static void put(const char *rel, const char *text)
{
	unit_put(root, rel, text);
}

/* link_to - a symbolic link root/rel -> target, making its directories */
static void link_to(const char *rel, const char *target)
{
	char path[512];

	unit_parents(root, rel);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (symlink(target, path) < 0) {
		printf("FAIL blkdev: cannot link %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* disk - a fake sysfs device dir devices/virtual/block/REL with dev and
 * uevent, linked from class/block/NAME and dev/block/MAJ:MIN */
static void disk(const char *rel, const char *name, const char *devname, unsigned maj, unsigned min)
{
	char p[256], t[256];

	snprintf(p, sizeof(p), "sys/devices/virtual/block/%s/dev", rel);
	snprintf(t, sizeof(t), "%u:%u\n", maj, min);
	put(p, t);
	snprintf(p, sizeof(p), "sys/devices/virtual/block/%s/uevent", rel);
	snprintf(t, sizeof(t), "MAJOR=%u\nMINOR=%u\nDEVNAME=%s\nDEVTYPE=disk\n", maj, min, devname);
	put(p, t);
	snprintf(p, sizeof(p), "sys/class/block/%s", name);
	snprintf(t, sizeof(t), "../../devices/virtual/block/%s", rel);
	link_to(p, t);
	snprintf(p, sizeof(p), "sys/dev/block/%u:%u", maj, min);
	link_to(p, t);
}

/* build_tree - the fake machine: vda (254,0) with partition vda1 (254,1:
 * sectors 2048-6143), cciss!c0d0 (104,0, /dev/cciss/c0d0), a name whose
 * number sysfs does not list, one whose dev file is junk, and /dev */
static void build_tree(void)
{
	disk("vda", "vda", "vda", 254, 0);
	disk("vda/vda1", "vda1", "vda1", 254, 1);
	put("sys/devices/virtual/block/vda/vda1/partition", "1\n");
	put("sys/devices/virtual/block/vda/vda1/start", "2048\n");
	put("sys/devices/virtual/block/vda/vda1/size", "4096\n");
	disk("cciss!c0d0", "cciss!c0d0", "cciss/c0d0", 104, 0);
	disk("sd-x_1.2", "sd-x_1.2", "sd-x_1.2", 8, 16);
	/* listed under class/block but not under dev/block: gone */
	put("sys/devices/virtual/block/ghost/dev", "254:16\n");
	link_to("sys/class/block/ghost", "../../devices/virtual/block/ghost");
	put("sys/devices/virtual/block/junk/dev", "254:x\n");
	link_to("sys/class/block/junk", "../../devices/virtual/block/junk");
	/* a name with a hostile DEVNAME: the label shows no name */
	disk("odd", "odd", "odd\033[1A", 254, 32);
	put("dev/notblk", "");
	link_to("dev/disk/by-id/virtio-abc", "../../vda");
	link_to("dev/disk/by-path/pci-0000:00:02.0", "../../vda1");
}

/* nodes - block device nodes (root only): vda, vda1, cciss/c0d0, and one
 * whose number the fake sysfs does not have */
static int nodes(void)
{
	static const struct { const char *rel; unsigned maj, min; } n[] = {
		{ "dev/vda", 254, 0 }, { "dev/vda1", 254, 1 }, { "dev/cciss/c0d0", 104, 0 },
		{ "dev/stale", 250, 250 },
	};
	char path[512];
	size_t i;

	put("dev/cciss/.keep", "");
	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, n[i].rel);
		if (mknod(path, S_IFBLK | 0600, makedev(n[i].maj, n[i].min)) < 0)
			return -1;
	}
	return 0;
}

static struct blkdev got;

/* parse - blkdev_parse in a child (it exits on refusal) */
static void parse(const void *s)
{
	blkdev_parse(s, "-d", &got);
}

/* refused - s must be refused: exit 2, one stderr line matching want */
static void refused(const char *s, const char *want)
{
	char err[512], name[160];
	int rc = unit_exit_status(parse, s, err, sizeof(err));
	char *nl = strchr(err, '\n');

	snprintf(name, sizeof(name), "refuse '%.100s'", s);
	CHECK(name, rc == 2);
	CHECK(name, nl && nl[1] == '\0');
	CHECK(name, strstr(err, want) != NULL);
	if (rc != 2 || !strstr(err, want))
		printf("     rc %d, got: %s", rc, err);
}

/* accepted - s must resolve to dev (a disk), or to a partition of disk at [start, start+size) */
static void accepted(const char *s, unsigned dev, unsigned disk, unsigned long long start,
		     unsigned long long size)
{
	char err[512], name[160];

	snprintf(name, sizeof(name), "accept '%.100s'", s);
	CHECK(name, unit_exit_status(parse, s, err, sizeof(err)) == 0 && !err[0]);
	if (err[0]) {
		printf("     got: %s", err);
		return;
	}
	blkdev_parse(s, "-d", &got);
	CHECK(name, got.dev == dev && got.disk == disk && got.start == start && got.size == size);
	if (got.dev != dev || got.disk != disk || got.start != start || got.size != size)
		printf("     got dev %u:%u disk %u:%u start %llu size %llu\n", got.dev >> 20,
		       got.dev & 0xfffff, got.disk >> 20, got.disk & 0xfffff, got.start, got.size);
}

/* str_is - a label function's text must be want */
static void str_is(const char *what, const char *s, const char *want)
{
	CHECK(what, strcmp(s, want) == 0);
	if (strcmp(s, want))
		printf("     %s: got '%s', wanted '%s'\n", what, s, want);
}

#define MM(a, b) ((unsigned int)(a) << 20 | (b))

int main(void)
{
	char sysroot[128], devroot[128], nosys[128], buf[256], lab[64], pad[64], name[80];
	struct blkdev d;

	msg_init("unit");
	snprintf(root, sizeof(root), "/tmp/ftt-unit-blkdev.XXXXXX");
	if (!mkdtemp(root)) {
		printf("FAIL blkdev: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	snprintf(sysroot, sizeof(sysroot), "%s/sys", root);
	snprintf(devroot, sizeof(devroot), "%s/dev", root);
	snprintf(nosys, sizeof(nosys), "%s/nosys", root);
	blkdev_set_roots(sysroot, devroot);
	build_tree();

	/* names, as sysfs has them */
	accepted("vda", MM(254, 0), MM(254, 0), 0, 0);
	accepted("vda1", MM(254, 1), MM(254, 0), 2048, 4096);
	accepted("cciss!c0d0", MM(104, 0), MM(104, 0), 0, 0);
	accepted("sd-x_1.2", MM(8, 16), MM(8, 16), 0, 0);
	refused("nosuchdisk", "-d: no block device named 'nosuchdisk'");
	refused("ghost", "-d: no block device 254,16");
	refused("junk", "-d: block device 'junk' has no device number");
	refused("../x", "is not a device name");
	refused("..", "is not a device name");
	refused(".", "is not a device name");
	refused("a/b", "is not a device name");
	refused("", "is not a device name");
	refused("vda\n", "is not a device name");
	refused("a\nb", "'a?b' is not a device name");
	refused("vda ", "is not a device name");
	refused("vda*", "is not a device name");
	refused("v\"da", "is not a device name");
	refused("8:0", "is not a device name");
	memset(pad, 'a', 61);
	pad[61] = '\0';
	snprintf(name, sizeof(name), "vda%s", pad);	/* 64 bytes: still a name */
	refused(name, "no block device named");
	snprintf(name, sizeof(name), "vda%sb", pad);	/* 65 bytes */
	refused(name, "is not a device name");

	/* major,minor: only one that exists */
	accepted("254,0", MM(254, 0), MM(254, 0), 0, 0);
	accepted("254,1", MM(254, 1), MM(254, 0), 2048, 4096);
	refused("250,250", "-d: no block device 250,250");
	refused("254,16", "-d: no block device 254,16");
	refused("8", "no block device named '8'");
	refused("8,1x", "is not major,minor");
	refused("x,1", "is not major,minor");
	refused("8,", "is not major,minor");
	refused(",8", "is not major,minor");
	refused("-8,0", "is not major,minor");
	refused("8,+0", "is not major,minor");
	refused("4096,0", "out of range");
	refused("0,1048576", "out of range");
	refused("99999999999999999999,0", "is not major,minor");

	/* paths under /dev */
	refused("/tmp/x", "is not a device path under /dev");
	refused("/dev", "is not a device path under /dev");
	refused("/dev/", "is not a device path under /dev");
	refused("/dev/../etc/x", "is not a device path under /dev");
	refused("/dev/./vda", "is not a device path under /dev");
	refused("/dev//vda", "is not a device path under /dev");
	refused("/dev/vda/", "is not a device path under /dev");
	refused("/dev/v da", "is not a device path under /dev");
	refused("/dev/vda\n", "is not a device path under /dev");
	refused("dev/vda", "is not a device name");
	refused("/dev/nosuch", "-d: /dev/nosuch: No such file or directory");
	refused("/dev/notblk", "-d: /dev/notblk is not a block device");
	if (getuid() != 0 || nodes() < 0) {
		printf("SKIP blkdev: /dev paths to block devices need root (mknod)\n");
	} else {
		accepted("/dev/vda", MM(254, 0), MM(254, 0), 0, 0);
		accepted("/dev/vda1", MM(254, 1), MM(254, 0), 2048, 4096);
		accepted("/dev/cciss/c0d0", MM(104, 0), MM(104, 0), 0, 0);
		accepted("/dev/disk/by-id/virtio-abc", MM(254, 0), MM(254, 0), 0, 0);
		accepted("/dev/disk/by-path/pci-0000:00:02.0", MM(254, 1), MM(254, 0), 2048, 4096);
		refused("/dev/stale", "-d: no block device 250,250");
	}

	/* no sysfs: even major,minor cannot be checked */
	blkdev_set_roots(nosys, devroot);
	refused("8,0", "-d: cannot check device 8,0: no");
	refused("vda", "-d: cannot look up 'vda': no ");
	blkdev_set_roots(sysroot, devroot);

	/* labels */
	str_is("str 254,0", blkdev_str(MM(254, 0), lab, sizeof(lab)), "254,0");
	str_is("str 4095,1048575", blkdev_str(MM(4095, 1048575), lab, sizeof(lab)),
	       "4095,1048575");
	str_is("name vda", blkdev_name(MM(254, 0), lab, sizeof(lab)), "vda");
	str_is("name cciss", blkdev_name(MM(104, 0), lab, sizeof(lab)), "cciss/c0d0");
	str_is("name unknown", blkdev_name(MM(250, 250), lab, sizeof(lab)), "");
	str_is("name hostile", blkdev_name(MM(254, 32), lab, sizeof(lab)), "");
	str_is("name too long for buf", blkdev_name(MM(8, 16), lab, 4), "");
	str_is("label vda", blkdev_label(MM(254, 0), lab, sizeof(lab)), "254,0 (vda)");
	str_is("label cciss", blkdev_label(MM(104, 0), lab, sizeof(lab)), "104,0 (cciss/c0d0)");
	str_is("label unknown", blkdev_label(MM(7, 3), lab, sizeof(lab)), "7,3");
	str_is("label hostile", blkdev_label(MM(254, 32), lab, sizeof(lab)), "254,32");
	blkdev_parse("vda", "-d", &d);
	str_is("desc disk", blkdev_desc(&d, buf, 128), "254,0 (vda)");
	blkdev_parse("vda1", "-d", &d);
	str_is("desc partition", blkdev_desc(&d, buf, 128),
	       "254,1 (vda1), sectors 2048-6143 of 254,0 (vda)");

	if (unit_rmtree(root) != 0)
		printf("FAIL blkdev: could not remove %s\n", root);
	return unit_done("blkdev");
}

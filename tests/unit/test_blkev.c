/* SPDX-License-Identifier: GPL-2.0-only */
/* test_blkev - the kernel filter -d and -i make: a disk by its number, a
 * partition as its disk's range of sectors */
#include "blkev.h"
#include "msg.h"
#include "unit.h"

#define MM(a, b) ((unsigned int)(a) << 20 | (b))

int main(void)
{
	/* vda (254,0) and its partition vda1 (254,1), sectors 2048-6143 */
	const struct blkdev vda = { .dev = MM(254, 0), .disk = MM(254, 0) };
	const struct blkdev vda1 = { .dev = MM(254, 1), .disk = MM(254, 0), .start = 2048,
				     .size = 4096 };
	struct blkio_opts o = { 0 };
	const char *want;
	char *f;

	msg_init("unit");

	/* the kernel filter: a partition is its disk's range of sectors */
	o.has_dev = 1;
	o.dev = vda1;
	f = blkev_filter(&o);
	want = "dev == 266338304 && sector >= 2048 && sector < 6144";
	CHECK("filter partition", strcmp(f, want) == 0);
	if (strcmp(f, want))
		printf("     filter partition: got '%s', wanted '%s'\n", f, want);
	free(f);
	o.dev = vda;
	o.type = "*R*";
	f = blkev_filter(&o);
	CHECK("filter disk", strstr(f, " && dev == 266338304") && !strstr(f, "sector"));
	if (!strstr(f, " && dev == 266338304"))
		printf("     got: %s\n", f);
	free(f);
	return unit_done("blkev");
}

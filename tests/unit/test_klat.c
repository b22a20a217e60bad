/* SPDX-License-Identifier: GPL-2.0-only */
/* test_klat - what the in-kernel latency counts hand on, read from bucket
 * histograms in a directory that stands in for tracefs: a latency the kernel
 * computed as negative (an end paired with a start stamped after it) is not
 * a latency of 0 */
#include "klat.h"
#include "session.h"
#include "unit.h"

#define HIST "instances/ftt-iolatency-4242-k0/events/synthetic/ftt_iolatency_4242_lat0/hist"

static char got[1024];

/* on_lat - klat_poll's callback: "group lat n;" */
static void on_lat(unsigned int group, unsigned long long lat, unsigned long long n, void *ctx)
{
	size_t len = strlen(got);

	(void)ctx;
	snprintf(got + len, sizeof(got) - len, "%u %llu %llu;", group, lat, n);
}

int main(void)
{
	struct klat_spec sp = { "block", "block_rq_issue", "block_rq_complete", "dev,sector", "dev",
				"", NULL, 1 };
	static struct session ps;
	static char dir[128];

	unit_tmpdir(dir, sizeof(dir), "klat");
	unit_put(dir, "instances/ftt-iolatency-4242-k0/trace", "");
	ps.inst = tracefs_instance_alloc(dir, "ftt-iolatency-4242-k0");
	if (!ps.inst)
		return unit_skip("klat", "tracefs_instance_alloc refused the stand-in directory");
	/* 3 I/O of 87 us, 2 whose end came 5 us before the start it was paired with */
	unit_put(dir, HIST,
		 "# event histogram\n#\n"
		 "# trigger info: hist:keys=dev,lat:vals=hitcount:sort=hitcount:size=2048 if lat < 1024 [active]\n"
		 "#\n\n"
		 "{ dev:        259, lat:         87 } hitcount:          3\n"
		 "{ dev:        259, lat: 18446744073709551611 } hitcount:          2\n"
		 "\nTotals:\n    Hits: 5\n    Entries: 2\n    Dropped: 0\n");
	klat_attach(&ps, &sp, "ftt_iolatency_4242_lat0");
	klat_poll(on_lat, NULL);
	CHECK("a negative latency is not handed on as 0", !strcmp(got, "259 87 3;"));
	if (strcmp(got, "259 87 3;"))
		printf("     got: '%s', wanted '259 87 3;'\n", got);
	CHECK("and counts as unknown", klat_unknown() == 2);
	if (klat_unknown() != 2)
		printf("     unknown: %llu, wanted 2\n", klat_unknown());

	tracefs_instance_free(ps.inst);
	if (unit_rmtree(dir) != 0)
		printf("FAIL klat: could not remove %s\n", dir);
	return unit_done("klat");
}

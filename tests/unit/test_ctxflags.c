/* SPDX-License-Identifier: GPL-2.0-only */
/* test_ctxflags - the flags column is the kernel's own for each era of its
 * bits: 5.10 (one preempt column, irqs-not-supported), 5.13 (migrate-disable
 * column), 5.18 (BH-disabled), 6.13 (need-resched-lazy) */
#include "ctxflags.h"
#include "unit.h"

/* is - the column for (flags, pc) on kernel rel is want */
static int is(const char *rel, unsigned int flags, unsigned int pc, const char *want)
{
	struct ctxflags k;
	char out[8];

	if (ctxflags_for(&k, rel) < 0) {
		printf("  %s: refused\n", rel);
		return 0;
	}
	ctxflags_text(&k, flags, pc, out);
	if (strcmp(out, want))
		printf("  %s flags 0x%02x pc 0x%02x: got \"%s\", want \"%s\"\n", rel, flags, pc, out, want);
	return !strcmp(out, want);
}

int main(void)
{
	/* eras from the release string */
	CHECK("era_5.10", is("5.10.0-30-amd64", 0, 0, "...."));
	CHECK("era_5.13", is("5.13.0", 0, 0, "....."));
	{
		struct ctxflags k;

		/* a release that does not say its version: no meaning is guessed */
		CHECK("era_unparsed_refused", ctxflags_for(&k, "garbage") < 0 &&
		      ctxflags_for(&k, NULL) < 0 && ctxflags_for(&k, "6") < 0);
	}

	/* 5.10: one preempt column, the byte in hex */
	CHECK("5.10_irqs_off", is("5.10.0", 0x01, 1, "d..1"));
	CHECK("5.10_pc_byte", is("5.10.0", 0x01, 0x21, "d..21"));
	CHECK("5.10_nosupport", is("5.10.0", 0x02, 0, "X..."));
	CHECK("5.10_nosupport_under_d", is("5.10.0", 0x03, 0, "d..."));
	CHECK("5.10_bh_bit_unused", is("5.10.0", 0x80, 0, "...."));
	CHECK("5.10_N", is("5.10.0", 0x04 | 0x20, 0, ".N.."));
	CHECK("5.10_n", is("5.10.0", 0x04, 0, ".n.."));
	CHECK("5.10_p", is("5.10.0", 0x20, 0, ".p.."));
	CHECK("5.10_hardirq", is("5.10.0", 0x09, 1, "d.h1"));
	CHECK("5.10_softirq", is("5.10.0", 0x10, 0, "..s."));
	CHECK("5.10_H", is("5.10.0", 0x18, 0, "..H."));
	CHECK("5.10_Z", is("5.10.0", 0x48, 0, "..Z."));
	CHECK("5.10_z", is("5.10.0", 0x40, 0, "..z."));

	/* 5.13: preempt depth and migrate-disable depth, a nibble each */
	CHECK("5.13_split", is("5.15.0", 0x01, 0x21, "d..12"));
	CHECK("5.13_migrate_only", is("5.15.0", 0, 0x10, "....1"));
	CHECK("5.13_nosupport", is("5.17.0", 0x02, 0, "X...."));
	CHECK("5.13_bh_bit_unused", is("5.17.9", 0x81, 0, "d...."));

	/* 5.18: BH-disabled */
	CHECK("5.18_b", is("5.18.0", 0x80, 0, "b...."));
	CHECK("5.18_D", is("6.1.0-18-amd64", 0x81, 2, "D..2."));
	CHECK("5.18_nosupport", is("6.12.0", 0x02, 0, "X...."));
	CHECK("5.18_bh_over_nosupport", is("6.12.0", 0x82, 0, "b...."));
	CHECK("6.12_no_lazy", is("6.12.48+deb13-amd64", 0x02 | 0x04 | 0x20, 0, "XN..."));

	/* 6.13: need-resched-lazy, every combination its own letter */
	CHECK("6.13_l", is("6.13.0", 0x02, 0, ".l..."));
	CHECK("6.13_L", is("6.13.0", 0x02 | 0x20, 0, ".L..."));
	CHECK("6.13_b", is("6.13.0", 0x02 | 0x04, 0, ".b..."));
	CHECK("6.13_B", is("7.3.4", 0x02 | 0x04 | 0x20, 0, ".B..."));
	CHECK("6.13_N", is("7.3.4", 0x04 | 0x20, 0, ".N..."));
	CHECK("6.13_n", is("7.3.4", 0x04, 0, ".n..."));
	CHECK("6.13_p", is("7.3.4", 0x20, 0, ".p..."));
	CHECK("6.13_never_X", is("7.3.4", 0x02, 0, ".l..."));
	/* every bit, as a uprobe hit's record has them on 6.18 (its text: "DBZff") */
	CHECK("6.18_all_bits", is("6.18.0", 0xff, 0xff, "DBZff"));
	CHECK("6.18_softirq_bh", is("6.18.0", 0x90, 0x01, "b.s1."));

	printf("%d passed, %d failed\n", unit_passed, unit_failed);
	return unit_failed != 0;
}

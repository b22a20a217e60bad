/* SPDX-License-Identifier: GPL-2.0-only */
/* test_decode - fields found by name stay right when the events are parsed again */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "decode.h"
#include "unit.h"

/* ASan keeps freed memory from new allocations: no address is reused there */
#ifdef __SANITIZE_ADDRESS__
#define NO_REUSE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_REUSE 1
#endif
#endif

/* two layouts of one event: "x" moves from offset 8 to offset 12 */
static const char fmt_old[] =
	"name: ev\nID: 7\nformat:\n"
	UNIT_COMMON_FIELDS
	"\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int y;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"x=%d\", REC->x\n";
static const char fmt_new[] =
	"name: ev\nID: 7\nformat:\n"
	UNIT_COMMON_FIELDS
	"\tfield:int y;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int x;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"x=%d\", REC->x\n";

/* parse - a handle holding one event of format fmt; the event in *ev */
static struct tep_handle *parse(const char *fmt, struct tep_event **ev)
{
	struct tep_handle *tep = tep_alloc();

	*ev = NULL;
	if (tep && tep_parse_format(tep, ev, fmt, strlen(fmt), "sys") != TEP_ERRNO__SUCCESS)
		*ev = NULL;
	return tep;
}

int main(void)
{
	int data[4] = { 7, 1234, 111, 222 };	/* type, pid, then 111 at 8, 222 at 12 */
	struct tep_record rec = { .size = sizeof(data), .data = data };
	struct tep_event *ev, *first;
	struct tep_handle *tep;
	int i, reused = 0;

	/* a reparse may give the new event the old one's address: that is when a
	 * lookup kept from before would read the old layout */
	for (i = 0; i < 20; i++) {
		tep = parse(fmt_old, &ev);
		CHECK("old layout parsed", ev != NULL);
		if (!ev)
			return 1;
		CHECK("x in the old layout", decode_s64(ev, &rec, "x") == 111);
		CHECK("pid", decode_pid(ev, &rec) == 1234);
		first = ev;
		decode_forget();
		tep_free(tep);
		tep = parse(fmt_new, &ev);
		CHECK("new layout parsed", ev != NULL);
		if (!ev)
			return 1;
		reused += ev == first;
		CHECK("x in the new layout after a reparse", decode_s64(ev, &rec, "x") == 222);
		CHECK("y in the new layout after a reparse", decode_s64(ev, &rec, "y") == 111);
		decode_forget();
		tep_free(tep);
	}
	printf("%d of 20 reparses gave the event the freed one's address\n", reused);
#ifndef NO_REUSE
	CHECK("an address was reused (so the case was tested)", reused > 0);
#endif
	return unit_done("test_decode");
}

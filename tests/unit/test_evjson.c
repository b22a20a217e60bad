/* SPDX-License-Identifier: GPL-2.0-only */
/* test_evjson - each field of a record as JSON by its name and type (evjson_fields) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "decode.h"
#include "evjson.h"
#include "line.h"
#include "msg.h"
#include "output.h"
#include "unit.h"

static const char fmt[] =
	"name: ev\nID: 7\nformat:\n"
	UNIT_COMMON_FIELDS
	"\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int u;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:1;\n"
	"\tfield:__u8 saddr[4];\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] s;\toffset:36;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc u32[] a;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] e;\toffset:44;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 big;\toffset:48;\tsize:8;\tsigned:0;\n"
	"\tfield:short neg;\toffset:56;\tsize:2;\tsigned:1;\n"
	"\tfield:const char * p;\toffset:60;\tsize:8;\tsigned:0;\n"
	"\tfield:s8 arr[2];\toffset:68;\tsize:2;\tsigned:1;\n\n"
	"print fmt: \"x=%d\", REC->x\n";

/* put - n bytes of v at offset at of the record */
static void put(unsigned char *rec, int at, const void *v, size_t n)
{
	memcpy(rec + at, v, n);
}

/* fields - evjson_fields of the record (size bytes) in buf, from its "fields" on */
static const char *fields(struct tep_event *ev, unsigned char *data, int size, char *buf,
			  size_t len)
{
	static struct line l;
	struct tep_record rec = { .size = size, .data = data };
	char *text = NULL, *p;
	size_t n = 0;

	out = open_memstream(&text, &n);
	line_begin(&l, LINE_NO_TIME);
	evjson_fields(&l, ev, &rec, 0);
	line_put(&l);
	fclose(out);
	p = text ? strstr(text, ",\"fields\":") : NULL;
	snprintf(buf, len, "%s", p ? p + 1 : "(none)");
	free(text);
	return buf;
}

int main(void)
{
	static const char want[] =
		"\"fields\":{\"x\":-5,\"u\":4000000000,\"comm\":\"ab\\\"c\\n\","
		"\"saddr\":[127,0,0,1],\"s\":\"p/\\u0001q\\\\xff\",\"a\":[1,4294967295],"
		"\"e\":null,\"big\":18446744073709551615,\"neg\":-2,"
		"\"p\":140737488355328,\"arr\":[-1,2]}}\n";
	unsigned char rec[96] = { 7, 0, 0, 0, 0x2a };
	unsigned int loc, a[2] = { 1, 4294967295u };
	unsigned long long big = ~0ULL, p = 0x800000000000ULL;
	int x = -5;
	unsigned int u = 4000000000u;
	short neg = -2;
	signed char arr[2] = { -1, 2 };
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev = NULL;
	char buf[1024];

	msg_init("test_evjson");
	line_json_init();
	if (!tep || tep_parse_format(tep, &ev, fmt, strlen(fmt), "sys") != TEP_ERRNO__SUCCESS ||
	    !ev) {
		printf("FAIL the format does not parse\n");
		return 1;
	}
	put(rec, 8, &x, 4);
	put(rec, 12, &u, 4);
	put(rec, 16, "ab\"c\n\0junk", 10);
	put(rec, 32, "\x7f\0\0\x01", 4);
	loc = 6 << 16 | 72;			/* "p/\1q\xff" and its NUL */
	put(rec, 36, &loc, 4);
	put(rec, 72, "p/\1q\xff", 6);
	loc = 8 << 16 | 80;
	put(rec, 40, &loc, 4);
	put(rec, 80, a, 8);
	loc = 0 << 16 | 88;			/* no byte: a fetch that failed */
	put(rec, 44, &loc, 4);
	put(rec, 48, &big, 8);
	put(rec, 56, &neg, 2);
	put(rec, 60, &p, 8);
	put(rec, 68, arr, 2);

	fields(ev, rec, 88, buf, sizeof(buf));
	CHECK("each field by name and type", !strcmp(buf, want));
	if (strcmp(buf, want))
		printf("  got  %s  want %s", buf, want);

	/* a string that points past the record's end: no field is trusted */
	loc = 6 << 16 | 84;
	put(rec, 36, &loc, 4);
	fields(ev, rec, 88, buf, sizeof(buf));
	CHECK("a record that does not match its format: null and the error",
	      !strcmp(buf, "\"fields\":null,\"error\":\"record of 88 bytes does not match its "
			   "format\"}\n"));
	if (strncmp(buf, "\"fields\":null", 13))
		printf("  got  %s", buf);

	decode_forget();
	tep_free(tep);
	return unit_done("test_evjson");
}

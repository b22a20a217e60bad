/* SPDX-License-Identifier: GPL-2.0-only */
/* test_kstack - each row gets the stack recorded after it on its own CPU, whatever
 * the other CPUs' records in between; a row whose stack never comes shows [?] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "kstack.h"
#include "msg.h"
#include "names.h"
#include "output.h"
#include "session.h"
#include "unit.h"

static const char fmt[] =
	"name: kernel_stack\nID: 4\nformat:\n"
	UNIT_COMMON_FIELDS
	"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n\n"
	"print fmt: \"\\t=> %ps\\n\", (void *)REC->caller[0]\n";

static struct session s;
static struct tep_event *ev;
static char *mem;
static size_t mem_len;

/* row - an event's row on cpu, as tcpretrans holds it */
static void row(int cpu, const char *text)
{
	kstack_hold(cpu, text, strlen(text));
}

/* stack - a kernel_stack record on cpu with the frames a (n of them) */
static void stack(int cpu, const unsigned long long *a, int n)
{
	unsigned char data[16 + 8 * 8] = { 4, 0 };
	struct tep_record rec = { .size = sizeof(data), .data = data, .cpu = cpu };

	memcpy(data + 8, &n, sizeof(n));
	memcpy(data + 16, a, n * sizeof(*a));
	kstack_under(&s, ev, &rec, cpu);
}

/* frame - " => SYMBOL\n" of addr, as kstack_print shows it */
static const char *frame(unsigned long long addr, char *buf, size_t len)
{
	char sym[256];

	snprintf(buf, len, " => %s\n", names_ksym(&s, addr, sym, sizeof(sym)));
	return buf;
}

/* written - what was printed since the last call is want */
static int written(const char *want)
{
	int ok;

	fflush(out);
	ok = mem_len == strlen(want) && !memcmp(mem, want, mem_len);
	if (!ok)
		printf("  got:\n%.*s  want:\n%s", (int)mem_len, mem, want);
	fclose(out);
	free(mem);
	mem = NULL;
	out = open_memstream(&mem, &mem_len);
	return ok;
}

int main(void)
{
	static const unsigned long long a[] = { 0x1111, 0x1112 }, b[] = { 0x2222 };
	char a0[300], a1[300], b0[300], want[2048];

	msg_init("test_kstack");
	s.tep = tep_alloc();
	if (!s.tep || tep_parse_format(s.tep, &ev, fmt, strlen(fmt), "ftrace") !=
	    TEP_ERRNO__SUCCESS || !ev) {
		printf("FAIL the format does not parse\n");
		return 1;
	}
	frame(a[0], a0, sizeof(a0));
	frame(a[1], a1, sizeof(a1));
	frame(b[0], b0, sizeof(b0));
	out = open_memstream(&mem, &mem_len);

	/* two CPUs at once: merged by time, B's row comes before A's stack */
	row(0, "row A\n");
	row(1, "row B\n");
	stack(0, a, 2);
	stack(1, b, 1);
	snprintf(want, sizeof(want), "row A\n%s%srow B\n%s", a0, a1, b0);
	CHECK("two CPUs: each stack under its own row", written(want));

	/* the other order of the stacks */
	row(0, "row A\n");
	row(1, "row B\n");
	stack(1, b, 1);
	stack(0, a, 2);
	snprintf(want, sizeof(want), "row B\n%srow A\n%s%s", b0, a0, a1);
	CHECK("two CPUs, B's stack first", written(want));

	/* a row followed on its CPU by another event: its stack is unknown */
	row(0, "row C\n");
	row(0, "row D\n");
	stack(0, b, 1);
	snprintf(want, sizeof(want), "row C\n => [?]\nrow D\n%s", b0);
	CHECK("no stack between two rows", written(want));

	/* lost events after a row: the stack after the gap is not its */
	row(1, "row E\n");
	kstack_release(1);
	stack(1, a, 2);
	CHECK("gap: the row with [?], the stack dropped", written("row E\n => [?]\n"));

	/* a stack with no row held on its CPU (row on the other) */
	row(1, "row F\n");
	stack(0, a, 2);
	CHECK("stack of an unseen event: not printed", written(""));
	stack(1, b, 1);
	snprintf(want, sizeof(want), "row F\n%s", b0);
	CHECK("row F then its stack", written(want));

	/* a stack not yet read at the end of a drain still pairs in the next */
	row(0, "row G\n");
	kstack_drained(0);
	CHECK("drain: the row waits", written(""));
	stack(0, a, 1);
	snprintf(want, sizeof(want), "row G\n%s", a0);
	CHECK("drain: its stack in the next drain", written(want));

	/* ... but not past a second drain; and the last drain releases all */
	row(0, "row H\n");
	kstack_drained(0);
	kstack_drained(0);
	CHECK("two drains: released", written("row H\n => [?]\n"));
	row(1, "row I\n");
	row(0, "row J\n");
	kstack_drained(1);
	CHECK("last drain: every row, in the order held",
	      written("row I\n => [?]\nrow J\n => [?]\n"));
	stack(0, a, 1);
	CHECK("after the last drain: nothing held", written(""));

	fclose(out);
	free(mem);
	tep_free(s.tep);
	return unit_done("kstack");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* kstack.c - kernel stack traces of events (options/stacktrace, ftrace:kernel_stack)
 *
 * With the instance option "stacktrace" set, the kernel writes an
 * ftrace:kernel_stack record right after each event on the same CPU: an array
 * "caller" of return addresses, ended by 0, ULONG_MAX or the record's end.
 * The addresses are turned into symbols with /proc/kallsyms (decode_ksym).
 * Overhead: one stack walk per traced event in the kernel.
 */
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "format.h"
#include "kstack.h"
#include "session.h"

/* kstack_enable - options/stacktrace on; the kernel_stack event or NULL */
struct tep_event *kstack_enable(struct session *s)
{
	struct tep_event *ev = format_event(s, "ftrace", "kernel_stack");

	if (!ev || !tep_find_field(ev, "caller"))
		return NULL;
	if (session_option(s, "stacktrace", 1) < 0)
		return NULL;
	return ev;
}

/*
 * kstack_print - a kernel_stack record as " => symbol+0xoff" lines
 *
 * The format declares caller[8], but the kernel stores as many frames as it
 * walked: like the kernel's own printer, read up to the end of the record.
 */
void kstack_print(struct session *s, FILE *fp, struct tep_event *ev, struct tep_record *rec)
{
	struct tep_format_field *f = tep_find_field(ev, "caller");
	unsigned long long nr = ~0ULL;
	const unsigned char *p;
	int i, step;
	char sym[256];

	if (!f || f->offset >= rec->size)
		return;
	/*
	 * The word size comes from the field itself (caller[8] of 64 bytes: 8),
	 * never from the tep handle, which knows it only after parsing the
	 * header page and says 0 before.
	 */
	step = f->elementsize;
	if (step != 4 && step != 8)
		step = tep_get_long_size(s->tep);
	if (step != 4 && step != 8)
		step = (int)sizeof(long);
	/* "size" is the number of frames the kernel stored, where it says */
	if (tep_find_field(ev, "size"))
		nr = decode_u64(ev, rec, "size");
	p = (const unsigned char *)rec->data + f->offset;
	for (i = 0; nr-- > 0 && f->offset + i + step <= rec->size; i += step) {
		unsigned long long a = 0;
		unsigned int a32;

		/* records are only 4-byte aligned: no direct 8-byte loads */
		if (step == 8) {
			memcpy(&a, p + i, sizeof(a));
		} else {
			memcpy(&a32, p + i, sizeof(a32));
			a = a32;
		}

		if (a == 0 || a == ~0ULL || (step == 4 && a == 0xffffffffULL))
			break;
		fprintf(fp, " => %s\n", decode_ksym(s, a, sym, sizeof(sym)));
	}
}

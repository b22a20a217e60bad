/* SPDX-License-Identifier: GPL-2.0-only */
/* kstack.c - kernel stack traces of events (options/stacktrace, ftrace:kernel_stack)
 *
 * With the instance option "stacktrace" set, the kernel writes an
 * ftrace:kernel_stack record right after each event on the same CPU: an array
 * "caller" of return addresses, ended by 0, ULONG_MAX or the record's end.
 * The addresses are turned into symbols with /proc/kallsyms (names_ksym).
 * The stream merges the CPUs by time, so a tool that prints a row of its own
 * per event holds the row per CPU (kstack_hold) and prints it with the stack
 * that comes next on that CPU, or with " => [?]" where none does.
 * Overhead: one stack walk per traced event in the kernel.
 */
#include <string.h>

#include "decode.h"
#include "format.h"
#include "kstack.h"
#include "line.h"
#include "names.h"
#include "output.h"
#include "session.h"
#include "xalloc.h"

/* frames read from one record: more than the kernel records (a page of 4-byte words) */
#define KSTACK_MAX 1024
static unsigned long long frame[KSTACK_MAX];

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
 * frames - the return addresses of a kernel_stack record into frame[],
 * innermost first; how many
 *
 * The format declares caller[8], but the kernel stores as many frames as it
 * walked: like the kernel's own printer, read up to the end of the record.
 */
static int frames(struct session *s, struct tep_event *ev, struct tep_record *rec)
{
	struct tep_format_field *f = tep_find_field(ev, "caller");
	unsigned long long nr = ~0ULL;
	const unsigned char *p;
	int i, k = 0, step;

	if (!f || f->offset >= rec->size)
		return 0;
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
	for (i = 0; nr-- > 0 && k < KSTACK_MAX && f->offset + i + step <= rec->size; i += step) {
		unsigned long long v = 0;
		unsigned int v32;

		/* records are only 4-byte aligned: no direct 8-byte loads */
		if (step == 8) {
			memcpy(&v, p + i, sizeof(v));
		} else {
			memcpy(&v32, p + i, sizeof(v32));
			v = v32;
		}
		if (v == 0 || v == ~0ULL || (step == 4 && v == 0xffffffffULL))
			break;
		frame[k++] = v;
	}
	return k;
}

/* kstack_enable_user - options/userstacktrace on; the user_stack event or NULL */
struct tep_event *kstack_enable_user(struct session *s)
{
	struct tep_event *ev = format_event(s, "ftrace", "user_stack");

	if (!ev || !tep_find_field(ev, "caller"))
		return NULL;
	if (session_option(s, "userstacktrace", 1) < 0)
		return NULL;
	return ev;
}

/* kstack_is_user - is ev ftrace:user_stack */
static int kstack_is_user(const struct tep_event *ev)
{
	return !strcmp(ev->system, "ftrace") && !strcmp(ev->name, "user_stack");
}

/* kstack_print - see kstack.h */
void kstack_print(struct session *s, struct tep_event *ev, struct tep_record *rec)
{
	static struct line l;
	char sym[256];
	int i, n = frames(s, ev, rec);

	for (i = 0; i < n; i++) {
		line_add(&l, " => ");
		if (kstack_is_user(ev))	/* user addresses: no symbols here, as ftrace */
			snprintf(sym, sizeof(sym), " <%016llx>", frame[i]);
		else
			names_ksym(s, frame[i], sym, sizeof(sym));
		line_add(&l, sym);
		line_add(&l, "\n");
		line_put(&l);
	}
}

/* kstack_json - see kstack.h */
void kstack_json(struct session *s, struct line *l, struct tep_event *ev,
		 struct tep_record *rec)
{
	char sym[256];
	int i, n = frames(s, ev, rec);

	col_open(l, "stack", '[');
	for (i = 0; i < n; i++) {
		if (kstack_is_user(ev))
			snprintf(sym, sizeof(sym), "0x%llx", frame[i]);
		else
			names_ksym(s, frame[i], sym, sizeof(sym));
		col_str(l, NULL, sym, ALIGN_LEFT, 0, -1);
	}
	col_close(l);
}

/* a row held on one CPU until the record after it there */
struct held {
	char *row;
	size_t n, cap;
	unsigned long long seq;	/* 0: none held; else the order rows were held in */
	int drains;		/* drains ended since it was held */
};

static struct held *held;
static int nr_held;
static unsigned long long held_seq;

/* hold_slot - cpu's slot (grown as CPUs are met); NULL for a negative cpu */
static struct held *hold_slot(int cpu)
{
	if (cpu < 0)
		return NULL;
	if (cpu >= nr_held) {
		held = xreallocarray(held, cpu + 1, sizeof(*held));
		memset(held + nr_held, 0, (cpu + 1 - nr_held) * sizeof(*held));
		nr_held = cpu + 1;
	}
	return &held[cpu];
}

/* put_held - print h's row; then it is no longer held */
static void put_held(struct held *h)
{
	out_write(out, h->row, h->n);
	h->seq = 0;
}

/* kstack_hold - see kstack.h */
void kstack_hold(int cpu, const char *row, size_t n)
{
	struct held *h = hold_slot(cpu);

	if (!h) {
		out_write(out, row, n);
		return;
	}
	kstack_release(cpu);	/* no stack came between the two events */
	if (n > h->cap) {
		h->row = xrealloc(h->row, n);
		h->cap = n;
	}
	memcpy(h->row, row, n);
	h->n = n;
	h->seq = ++held_seq;
	h->drains = 0;
}

/* kstack_under - see kstack.h */
void kstack_under(struct session *s, struct tep_event *ev, struct tep_record *rec, int cpu)
{
	struct held *h = cpu >= 0 && cpu < nr_held ? &held[cpu] : NULL;

	if (!h || !h->seq)
		return;		/* its event was not seen (lost, or before the start) */
	put_held(h);
	kstack_print(s, ev, rec);
}

/* kstack_release - see kstack.h */
void kstack_release(int cpu)
{
	struct held *h = cpu >= 0 && cpu < nr_held ? &held[cpu] : NULL;

	if (!h || !h->seq)
		return;
	put_held(h);
	out_write(out, " => [?]\n", 8);
}

/* kstack_drained - see kstack.h */
void kstack_drained(int last)
{
	struct held *first;
	int i;

	for (i = 0; i < nr_held; i++)
		if (held[i].seq)
			held[i].drains++;
	/* in the order they were held, as they came in time */
	for (;;) {
		for (first = NULL, i = 0; i < nr_held; i++)
			if (held[i].seq && (last || held[i].drains >= 2) &&
			    (!first || held[i].seq < first->seq))
				first = &held[i];
		if (!first)
			return;
		kstack_release((int)(first - held));
	}
}

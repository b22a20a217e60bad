/* SPDX-License-Identifier: GPL-2.0-only */
/* evtext.c - a binary event record as a line of ftrace's text
 *
 * The columns of trace_pipe, made in user space from the record read in binary:
 * "COMM-PID [CPU] FLAGS SECS.USECS: NAME: FIELDS". Reading binary pages a page
 * at a time instead of the kernel's text one event at a time keeps the reader
 * out of the traced workload's way (bench/RESULTS.md), and the name of a
 * process comes from /proc when the kernel has not saved it yet, where
 * trace_pipe prints "<...>". FIELDS is the event's own print format
 * (libtraceevent, with the kernel's enum names put in by kenum.c, so that the
 * text is the kernel's: tests/live/tpoint.sh compares); system call events are printed as the kernel prints them,
 * "sys_openat(dfd: 0xffffff9c, ..., mode: 0)" and "sys_openat -> 0x3", in
 * Linux 6.18's style on every kernel (values below 10 in decimal, others in
 * hex with 0x).
 */
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "evtext.h"
#include "kstack.h"
#include "output.h"
#include "session.h"

/*
 * A line is built in a buffer and written with one fwrite: formatting it with
 * printf was a third of the reader's CPU at 500000 events a second.
 */
struct line {
	size_t n;
	char b[8192];
};

/* put - append n bytes, cut at the end of the buffer */
static void put(struct line *l, const char *p, size_t n)
{
	if (n > sizeof(l->b) - l->n)
		n = sizeof(l->b) - l->n;
	memcpy(l->b + l->n, p, n);
	l->n += n;
}

/* puts_ - append a string */
static void puts_(struct line *l, const char *p)
{
	put(l, p, strlen(p));
}

/* pad - append k copies of c */
static void pad(struct line *l, char c, int k)
{
	while (k-- > 0 && l->n < sizeof(l->b))
		l->b[l->n++] = c;
}

/* put_num - v in base 10 or 16, right-aligned in `width` columns filled with `fill` */
static void put_num(struct line *l, unsigned long long v, int base, int width, char fill)
{
	char d[24];
	int i = sizeof(d);

	do {
		d[--i] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	pad(l, fill, width - (int)(sizeof(d) - i));
	put(l, d + i, sizeof(d) - i);
}

/* put_value - 6.18's style: below 10 in decimal, else hex with 0x */
static void put_value(struct line *l, unsigned long long v)
{
	if (v >= 10)
		puts_(l, "0x");
	put_num(l, v, v < 10 ? 10 : 16, 1, '0');
}

/*
 * evtext_flags - the flags column ("d..1."), from libtraceevent, which knows each
 * kernel's bits; NULL for a record too short to hold them. It depends on common_flags and common_preempt_count only, so
 * each pair seen is formatted once; an event with other common fields (an RT
 * kernel's) is formatted every time.
 */
const char *evtext_flags(struct session *s, struct tep_event *ev, struct tep_record *rec)
{
	static struct { int key; char text[16]; } cache[256];
	static struct trace_seq seq;
	static struct tep_event *last;
	static unsigned int gen;
	static int plain, end;
	struct tep_format_field *f;
	int key, i;

	if (ev != last || gen != decode_generation()) {
		last = ev;
		gen = decode_generation();
		plain = 1;
		end = 2;
		for (f = ev->format.common_fields; f; f = f->next) {
			if (strcmp(f->name, "common_type") && strcmp(f->name, "common_flags") &&
			    strcmp(f->name, "common_preempt_count") &&
			    strcmp(f->name, "common_pid"))
				plain = 0;
			if (f->offset + f->size > end)
				end = f->offset + f->size;
		}
	}
	/* libtraceevent reads the common fields without looking at the size */
	if (!rec->data || rec->size < end)
		return NULL;
	key = (int)(decode_u64(ev, rec, "common_flags") & 0xff) << 8 |
	      (int)(decode_u64(ev, rec, "common_preempt_count") & 0xff);
	i = (key ^ key >> 8) & 0xff;
	if (plain && cache[i].key == key + 1)
		return cache[i].text;
	if (!seq.buffer)
		trace_seq_init(&seq);
	trace_seq_reset(&seq);
	tep_print_event(s->tep, &seq, rec, "%s", TEP_PRINT_LATENCY);
	trace_seq_terminate(&seq);
	if (!plain)
		return seq.buffer;
	snprintf(cache[i].text, sizeof(cache[i].text), "%s", seq.buffer);
	cache[i].key = key + 1;
	return cache[i].text;
}

/* head - "COMM-PID [CPU] FLAGS SECS.USECS:" as the kernel pads it */
static void head(struct line *l, struct session *s, struct tep_event *ev, struct tep_record *rec)
{
	int pid = decode_pid(ev, rec);
	const char *comm = decode_comm(s, pid);
	const char *flags = evtext_flags(s, ev, rec);
	char vis[4 * 64 + 1];
	size_t at;

	/* the name as it shows (output.h), right-aligned in 16 */
	at = out_vis(vis, sizeof(vis) - 1, 0, comm, strlen(comm));
	vis[at] = '\0';
	pad(l, ' ', 16 - (int)at);
	puts_(l, vis);
	pad(l, '-', 1);
	at = l->n;
	if (pid < 0) {
		pad(l, '-', 1);
		put_num(l, -(long long)pid, 10, 1, '0');
	} else {
		put_num(l, pid, 10, 1, '0');
	}
	pad(l, ' ', 7 - (int)(l->n - at));
	puts_(l, " [");
	put_num(l, rec->cpu, 10, 3, '0');
	puts_(l, "] ");
	puts_(l, flags ? flags : "?????");
	pad(l, ' ', 1);
	put_num(l, rec->ts / 1000000000ULL, 10, 5, ' ');
	pad(l, '.', 1);
	put_num(l, rec->ts % 1000000000ULL / 1000, 10, 6, '0');
	pad(l, ':', 1);
}

/* evtext_head - see evtext.h */
void evtext_head(struct session *s, FILE *fp, struct tep_event *ev, struct tep_record *rec)
{
	static struct line l;

	l.n = 0;
	head(&l, s, ev, rec);
	out_write(fp, l.b, l.n);
}

/* field_u64 - a fixed field's value, 0 if it does not lie inside the record */
static unsigned long long field_u64(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f->offset < 0 || f->size <= 0 || f->offset + f->size > rec->size ||
	    tep_read_number_field(f, rec->data, &v) < 0)
		return 0;
	return v;
}

/* user_string - since 6.19 a pointer argument X may come with the string it
 * pointed to, taken at the call, as the field __X_val: ' "string"' after the
 * pointer, as the kernel prints it (control bytes made visible) */
static void user_string(struct line *l, struct tep_event *ev, struct tep_record *rec,
			const char *name)
{
	char field[80], vis[4 * 512 + 8];
	const char *s;
	int n = 0;

	snprintf(field, sizeof(field), "__%s_val", name);
	if (!tep_find_field(ev, field))
		return;
	s = decode_raw(ev, rec, field, &n);
	if (!s || n <= 0)
		return;
	if (n > 512)
		n = 512;
	while (n && s[n - 1] == '\0')
		n--;
	n = (int)out_vis(vis, sizeof(vis), 0, s, n);
	vis[n] = '\0';
	puts_(l, " \"");
	puts_(l, vis);
	puts_(l, "\"");
}

/* syscall_text - sys_enter_X as "sys_X(a: v, ...)", sys_exit_X as "sys_X -> 0xRET"; 0 if neither */
static int syscall_text(struct line *l, struct tep_event *ev, struct tep_record *rec)
{
	struct tep_format_field *f;
	const char *sep = "";
	unsigned long long ret;

	if (strcmp(ev->system, "syscalls"))
		return 0;
	if (!strncmp(ev->name, "sys_enter_", 10)) {
		puts_(l, " sys_");
		puts_(l, ev->name + 10);
		pad(l, '(', 1);
		for (f = ev->format.fields; f; f = f->next) {
			if (!strcmp(f->name, "__syscall_nr") || (f->flags & TEP_FIELD_IS_DYNAMIC))
				continue;
			puts_(l, sep);
			puts_(l, f->name);
			puts_(l, ": ");
			put_value(l, field_u64(f, rec));
			user_string(l, ev, rec, f->name);
			sep = ", ";
		}
		pad(l, ')', 1);
		return 1;
	}
	if (!strncmp(ev->name, "sys_exit_", 9) && (f = tep_find_field(ev, "ret"))) {
		ret = field_u64(f, rec);
		/* the kernel prints the long: sign-extend a narrower field */
		if (f->size > 0 && f->size < 8 && (ret >> (f->size * 8 - 1)) & 1)
			ret |= ~0ULL << (f->size * 8);
		puts_(l, " sys_");
		puts_(l, ev->name + 9);
		puts_(l, " -> 0x");
		put_num(l, ret, 16, 1, '0');
		return 1;
	}
	return 0;
}

/* evtext_line - see evtext.h */
void evtext_line(struct session *s, FILE *fp, struct tep_event *ev, struct tep_record *rec)
{
	static struct trace_seq seq;
	static struct line l;

	l.n = 0;
	head(&l, s, ev, rec);
	/* before the size check: caller[] holds as many frames as were walked */
	if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "kernel_stack")) {
		puts_(&l, " <stack trace>\n");
		out_write(fp, l.b, l.n);
		kstack_print(s, fp, ev, rec);
		return;
	}
	if (!decode_record_ok(ev, rec)) {
		out_write(fp, l.b, l.n);
		fprintf(fp, " %s: [record of %d bytes does not match its format]\n", ev->name,
			rec->size);
		return;
	}
	if (!syscall_text(&l, ev, rec)) {
		if (!seq.buffer)
			trace_seq_init(&seq);
		trace_seq_reset(&seq);
		tep_print_event(s->tep, &seq, rec, "%s: %s", TEP_PRINT_NAME, TEP_PRINT_INFO);
		trace_seq_terminate(&seq);
		pad(&l, ' ', 1);
		puts_(&l, seq.buffer);
	}
	pad(&l, '\n', 1);
	out_write(fp, l.b, l.n);
}

/* evtext_header - see evtext.h */
void evtext_header(FILE *fp, const char *what)
{
	fprintf(fp, "# tracer: nop (instance, %s)\n", what);
	fputs("#\n"
	      "#                                _-----=> irqs-off/BH-disabled\n"
	      "#                               / _----=> need-resched\n"
	      "#                              | / _---=> hardirq/softirq\n"
	      "#                              || / _--=> preempt-depth\n"
	      "#                              ||| / _-=> migrate-disable\n"
	      "#                              |||| /     delay\n"
	      "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	      "#              | |         |   |||||     |         |\n", fp);
}

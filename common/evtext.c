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

#include "ctxflags.h"
#include "decode.h"
#include "evtext.h"
#include "kstack.h"
#include "line.h"
#include "session.h"

/*
 * evtext_flags - the flags column ("d..1."), as the running kernel prints it
 * (ctxflags.c); NULL for a record too short to hold the common fields
 */
const char *evtext_flags(struct tep_event *ev, struct tep_record *rec)
{
	static char text[8];
	static struct tep_event *last;
	static unsigned int gen;
	static int end;
	struct tep_format_field *f;

	if (ev != last || gen != decode_generation()) {
		last = ev;
		gen = decode_generation();
		end = 4;
		for (f = ev->format.common_fields; f; f = f->next)
			if (f->offset + f->size > end)
				end = f->offset + f->size;
	}
	if (!rec->data || rec->size < end || !ctxflags_running())
		return NULL;
	return ctxflags_text(ctxflags_running(), (unsigned int)decode_u64(ev, rec, "common_flags"),
			     (unsigned int)decode_u64(ev, rec, "common_preempt_count"), text);
}

/* evtext_head - see evtext.h */
void evtext_head(struct line *l, struct tep_event *ev,
		 struct tep_record *rec, const char *comm)
{
	int pid = decode_pid(ev, rec);
	const char *flags = evtext_flags(ev, rec);

	line_str(l, comm ? comm : "<...>", ALIGN_RIGHT, 16, -1);
	line_add(l, "-");
	line_dec(l, pid, ALIGN_LEFT, 7);
	line_add(l, " [");
	line_num(l, rec->cpu, 10, 3);
	line_add(l, "] ");
	line_add(l, flags ? flags : "?????");
	line_add(l, " ");
	line_dec(l, (long long)(rec->ts / 1000000000ULL), ALIGN_RIGHT, 5);
	line_add(l, ".");
	line_num(l, rec->ts % 1000000000ULL / 1000, 10, 6);
	line_add(l, ":");
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
 * pointer, as the kernel prints it (up to its NUL, control bytes made visible) */
static void user_string(struct line *l, struct tep_event *ev, struct tep_record *rec,
			const char *name)
{
	char field[80];
	const char *s;
	int n = 0;

	snprintf(field, sizeof(field), "__%s_val", name);
	if (!tep_find_field(ev, field))
		return;
	s = decode_raw(ev, rec, field, &n);
	if (!s || n <= 0)
		return;
	line_add(l, " \"");
	line_str(l, s, ALIGN_LEFT, 0, n > 512 ? 512 : n);
	line_add(l, "\"");
}

/* syscall_text - sys_enter_X as "sys_X(a: v, ...)", sys_exit_X as "sys_X -> 0xRET"; 0 if neither */
static int syscall_text(struct line *l, struct tep_event *ev, struct tep_record *rec)
{
	struct tep_format_field *f;
	const char *sep = "";
	unsigned long long v;

	if (strcmp(ev->system, "syscalls"))
		return 0;
	if (!strncmp(ev->name, "sys_enter_", 10)) {
		line_add(l, " sys_");
		line_add(l, ev->name + 10);
		line_add(l, "(");
		for (f = ev->format.fields; f; f = f->next) {
			if (!strcmp(f->name, "__syscall_nr") || (f->flags & TEP_FIELD_IS_DYNAMIC))
				continue;
			line_add(l, sep);
			line_add(l, f->name);
			line_add(l, ": ");
			/* 6.18's style: below 10 in decimal, else hex with 0x */
			v = field_u64(f, rec);
			if (v < 10) {
				line_num(l, v, 10, 1);
			} else {
				line_addn(l, "0x", 2);
				line_num(l, v, 16, 1);
			}
			user_string(l, ev, rec, f->name);
			sep = ", ";
		}
		line_add(l, ")");
		return 1;
	}
	if (!strncmp(ev->name, "sys_exit_", 9) && (f = tep_find_field(ev, "ret"))) {
		v = field_u64(f, rec);
		/* the kernel prints the long: sign-extend a narrower field */
		if (f->size > 0 && f->size < 8 && (v >> (f->size * 8 - 1)) & 1)
			v |= ~0ULL << (f->size * 8);
		line_add(l, " sys_");
		line_add(l, ev->name + 9);
		line_add(l, " -> 0x");
		line_num(l, v, 16, 1);
		return 1;
	}
	return 0;
}

/* evtext_line - see evtext.h */
void evtext_line(struct session *s, struct tep_event *ev, struct tep_record *rec,
		 const char *comm)
{
	static struct trace_seq seq;
	static struct line l;
	char what[160];

	evtext_head(&l, ev, rec, comm);
	/* before the size check: caller[] holds as many frames as were walked */
	if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "kernel_stack")) {
		line_add(&l, " <stack trace>\n");
		line_put(&l);
		kstack_print(s, ev, rec);
		return;
	}
	if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "user_stack")) {
		line_add(&l, " <user stack trace>\n");
		line_put(&l);
		kstack_print(s, ev, rec);
		return;
	}
	if (!decode_record_ok(ev, rec)) {
		snprintf(what, sizeof(what), " %s: [record of %d bytes does not match its format]",
			 ev->name, rec->size);
		line_add(&l, what);
	} else if (!syscall_text(&l, ev, rec)) {
		if (!seq.buffer)
			trace_seq_init(&seq);
		trace_seq_reset(&seq);
		tep_print_event(s->tep, &seq, rec, " %s: %s", TEP_PRINT_NAME, TEP_PRINT_INFO);
		trace_seq_terminate(&seq);
		line_add(&l, seq.buffer);
	}
	line_add(&l, "\n");
	line_put(&l);
}

/* evtext_header - see evtext.h */
void evtext_header(FILE *fp, const char *tracer, const char *what)
{
	fprintf(fp, "# tracer: %s (instance, %s)\n", tracer, what);
	fputs("#\n", fp);
	if (ctxflags_running())
		fputs(ctxflags_legend(ctxflags_running()), fp);
}

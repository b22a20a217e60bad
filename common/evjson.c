/* SPDX-License-Identifier: GPL-2.0-only */
/* evjson.c - a binary event record as one JSON object, every field by name
 *
 * tpoint's and kprobe's -j: the columns of the text line (evtext.c) as
 * members, and each field of the event's format decoded from the record by
 * its name and type, so that no value is read from the text the print format
 * makes. Costs about what the text line costs: one pass over the fields.
 */
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "evjson.h"
#include "evtext.h"
#include "kstack.h"
#include "line.h"
#include "names.h"
#include "output.h"

/* is_char - is the field's element type plain char (char[16], __data_loc char[]) */
static int is_char(const struct tep_format_field *f)
{
	const char *t = f->type;

	if (!strncmp(t, "__data_loc ", 11))
		t += 11;
	else if (!strncmp(t, "__rel_loc ", 10))
		t += 10;
	if (!strncmp(t, "const ", 6))
		t += 6;
	return !strncmp(t, "char", 4) && (t[4] == '[' || t[4] == '\0');
}

/* elem_size - the size of one element of an array field (of a scalar: its
 * size); 1 (its bytes) when the type does not say */
static int elem_size(struct tep_event *ev, const struct tep_format_field *f)
{
	int n = f->elementsize;

	if (!(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		n = f->size;
	else if ((n != 1 && n != 2 && n != 4 && n != 8) && (f->flags & TEP_FIELD_IS_LONG))
		n = tep_get_long_size(ev->tep) ? tep_get_long_size(ev->tep) : (int)sizeof(long);
	return n == 1 || n == 2 || n == 4 || n == 8 ? n : 1;
}

/* number - "key":v of the size-byte number at p, sign-extended if sign */
static void number(struct line *l, const char *key, struct tep_event *ev,
		   const void *p, int size, int sign)
{
	unsigned long long v = tep_read_number(ev->tep, p, size);

	if (!sign) {
		col_fixed(l, key, v, 0, 0, ALIGN_LEFT, 0);	/* JSON: the exact unsigned decimal */
		return;
	}
	switch (size) {
	case 1: col_dec(l, key, (signed char)v, ALIGN_LEFT, 0); break;
	case 2: col_dec(l, key, (short)v, ALIGN_LEFT, 0); break;
	case 4: col_dec(l, key, (int)v, ALIGN_LEFT, 0); break;
	default: col_dec(l, key, (long long)v, ALIGN_LEFT, 0); break;
	}
}

/* field - "name":value of one field, read from the record (decode_raw) */
static void field(struct line *l, struct tep_event *ev, struct tep_record *rec,
		  const struct tep_format_field *f)
{
	const unsigned char *p;
	int n = 0, size, sign = !!(f->flags & TEP_FIELD_IS_SIGNED), i;

	p = decode_raw(ev, rec, f->name, &n);
	if (!p || n < 0) {
		col_null(l, f->name, "", ALIGN_LEFT, 0);
		return;
	}
	if (is_char(f) && (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC))) {
		/* up to the first NUL; no bytes at all is a probe's failed fetch
		 * ("(fault)" in the text; a string always has its NUL) */
		col_str(l, f->name, n ? (const char *)p : NULL, ALIGN_LEFT, 0, n);
		return;
	}
	size = elem_size(ev, f);
	if (!(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) && size == n) {
		number(l, f->name, ev, p, size, sign);
		return;
	}
	if (n % size) {
		col_null(l, f->name, "", ALIGN_LEFT, 0);
		return;
	}
	if (size == 1 && f->size == n && !(f->flags & TEP_FIELD_IS_ARRAY))
		sign = 0;	/* a scalar of another size: its bytes */
	col_open(l, f->name, '[');
	for (i = 0; i < n; i += size)
		number(l, NULL, ev, p + i, size, sign);
	col_close(l);
}

/* evjson_fields - see evjson.h */
void evjson_fields(struct line *l, struct tep_event *ev, struct tep_record *rec, int flags)
{
	struct tep_format_field *f;
	char msg[80];

	if (!decode_record_ok(ev, rec)) {
		col_null(l, "fields", "", ALIGN_LEFT, 0);
		snprintf(msg, sizeof(msg), "record of %d bytes does not match its format",
			 rec->size);
		col_str(l, "error", msg, ALIGN_LEFT, 0, -1);
		return;
	}
	col_open(l, "fields", '{');
	for (f = ev->format.fields; f; f = f->next)
		if (!(flags & (EVJSON_PROBE | EVJSON_UPROBE)) || strncmp(f->name, "__probe_", 8))
			field(l, ev, rec, f);
	col_close(l);
}

/* common_ok - do the record's common fields (pid, flags) lie inside it */
static int common_ok(struct tep_event *ev, struct tep_record *rec)
{
	struct tep_format_field *f;

	if (!rec->data)
		return 0;
	for (f = ev->format.common_fields; f; f = f->next)
		if (f->offset < 0 || f->size < 0 || f->offset + f->size > rec->size)
			return 0;
	return 1;
}

/* probe_sym - "key":"symbol+0xoff" of the probe's address field ("0xADDR" if user),
 * null if the record lacks it */
static void probe_sym(struct line *l, struct session *s, struct tep_event *ev,
		      struct tep_record *rec, const char *key, const char *field, int user)
{
	char sym[256];
	int n = 0;

	if (!decode_raw(ev, rec, field, &n) || n <= 0) {
		col_null(l, key, "", ALIGN_LEFT, 0);
	} else if (user) {	/* an address in the task: hex, no symbol */
		snprintf(sym, sizeof(sym), "0x%llx", decode_u64(ev, rec, field));
		col_str(l, key, sym, ALIGN_LEFT, 0, -1);
	} else
		col_str(l, key, names_ksym(s, decode_u64(ev, rec, field), sym, sizeof(sym)),
			ALIGN_LEFT, 0, -1);
}

/* evjson_line - see evjson.h */
void evjson_line(struct session *s, struct tep_event *ev, struct tep_record *rec, int mono,
		 const char *name, int flags, const char *comm)
{
	static struct line l;
	int ok = common_ok(ev, rec), pid = ok ? decode_pid(ev, rec) : 0;
	int stack = !strcmp(ev->system, "ftrace") &&
		    (!strcmp(ev->name, "kernel_stack") || !strcmp(ev->name, "user_stack"));
	char what[300];

	line_begin(&l, mono ? rec->ts : LINE_NO_TIME);
	col_str(&l, "comm", ok ? comm : NULL, ALIGN_LEFT, 0, -1);
	if (ok)
		col_dec(&l, "pid", pid, ALIGN_LEFT, 0);
	else
		col_null(&l, "pid", "", ALIGN_LEFT, 0);
	col_dec(&l, "cpu", rec->cpu, ALIGN_LEFT, 0);
	col_str(&l, "flags", ok ? evtext_flags(ev, rec) : NULL, ALIGN_LEFT, 0, -1);
	col_fixed(&l, "timestamp", rec->ts, 9, 6, ALIGN_LEFT, 0);
	if (stack || !name) {
		snprintf(what, sizeof(what), "%s:%s", ev->system, ev->name);
		name = what;
	}
	col_str(&l, "event", name, ALIGN_LEFT, 0, -1);
	if (stack) {
		kstack_json(s, &l, ev, rec);
	} else {
		if ((flags & (EVJSON_PROBE | EVJSON_UPROBE)) && decode_has(ev, "__probe_ip")) {
			probe_sym(&l, s, ev, rec, "func", "__probe_ip", flags & EVJSON_UPROBE);
		} else if (flags & (EVJSON_PROBE | EVJSON_UPROBE)) {
			probe_sym(&l, s, ev, rec, "func", "__probe_func", flags & EVJSON_UPROBE);
			probe_sym(&l, s, ev, rec, "ret_ip", "__probe_ret_ip", flags & EVJSON_UPROBE);
		}
		evjson_fields(&l, ev, rec, flags);
	}
	line_put(&l);
}

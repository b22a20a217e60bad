/* SPDX-License-Identifier: GPL-2.0-only */
/* decode.c - event fields by name, on every kernel's layout
 *
 * Fields are found in the format the kernel publishes for each event, so a field
 * added or moved by a newer kernel (block ioprio, 6.x) never shifts a value.
 */
#include <string.h>

#include "decode.h"

#define NCACHE 256

static struct {
	struct tep_event *ev;
	const char *name;
	char copy[32];
	struct tep_format_field *f;
} cache[NCACHE];
static unsigned int generation = 1;

/* decode_forget - see decode.h */
void decode_forget(void)
{
	memset(cache, 0, sizeof(cache));
	generation++;
}

/* decode_generation - see decode.h */
unsigned int decode_generation(void)
{
	return generation;
}

/*
 * find - the field of ev named name. Tools name fields with string constants,
 * so the last lookup of each (event, name pointer) pair is kept, a missing
 * field too (decode_has asks for fields that only some kernels have); the
 * name is compared again, so a reused buffer holding another name still finds
 * the right field. Saves a linear search with strcmp per field per record.
 * The events are the session's: decode_forget empties the cache before they
 * are freed, as a new event may be given a freed one's address.
 */
static struct tep_format_field *find(struct tep_event *ev, const char *name)
{
	unsigned long h = (unsigned long)ev * 0x9E3779B97F4A7C15ULL ^ (unsigned long)name;
	struct tep_format_field *f;

	h = (h ^ (h >> 17) ^ (h >> 31)) % NCACHE;
	if (cache[h].ev == ev && cache[h].name == name && !strcmp(cache[h].copy, name))
		return cache[h].f;
	f = tep_find_any_field(ev, name);
	cache[h].ev = ev;
	cache[h].name = name;
	cache[h].f = f;
	if (strlen(name) < sizeof(cache[h].copy))
		strcpy(cache[h].copy, name);
	else
		cache[h].ev = NULL;	/* too long to keep: look it up each time */
	return f;
}

/* decode_has - does the event have a field of this name */
int decode_has(struct tep_event *ev, const char *field)
{
	return find(ev, field) != NULL;
}

/* in_record - does the field's fixed slot lie inside the record */
static int in_record(const struct tep_format_field *f, const struct tep_record *rec)
{
	return f && f->offset >= 0 && f->size >= 0 && rec->size >= 0 &&
	       (long long)f->offset + f->size <= rec->size;
}

/* decode_u64 - unsigned field value; 0 if the field is missing */
unsigned long long decode_u64(struct tep_event *ev, struct tep_record *rec, const char *field)
{
	struct tep_format_field *f = find(ev, field);
	unsigned long long v = 0;

	if (!in_record(f, rec) || tep_read_number_field(f, rec->data, &v) < 0)
		return 0;
	return v;
}

/* decode_s64 - signed field value, sign-extended from the field's size */
long long decode_s64(struct tep_event *ev, struct tep_record *rec, const char *field)
{
	struct tep_format_field *f = find(ev, field);
	unsigned long long v;

	if (!in_record(f, rec) || tep_read_number_field(f, rec->data, &v) < 0)
		return 0;
	switch (f->size) {
	case 1: return (signed char)v;
	case 2: return (short)v;
	case 4: return (int)v;
	default: return (long long)v;
	}
}

/*
 * decode_raw - see decode.h: the one reader of a field's bytes. A fixed
 * field's slot, a __data_loc's (__rel_loc's) word and the offset and length
 * in that word, which come from the record, are all checked against it.
 */
const void *decode_raw(struct tep_event *ev, struct tep_record *rec, const char *field, int *len)
{
	struct tep_format_field *f = find(ev, field);
	const char *p, *data = rec->data;
	int n = 0;

	*len = 0;
	if (!data || !in_record(f, rec))
		return NULL;
	p = tep_get_field_raw(NULL, ev, field, rec, &n, 0);
	if (!p || n < 0 || p < data || p - data + (long long)n > rec->size)
		return NULL;
	*len = n;
	return p;
}

/* decode_str - a char array or __data_loc string field, NUL-terminated into buf */
const char *decode_str(struct tep_event *ev, struct tep_record *rec, const char *field,
		       char *buf, size_t len)
{
	int n = 0;
	const char *p = decode_raw(ev, rec, field, &n);

	if ((size_t)n >= len)
		n = len - 1;
	if (n > 0)
		memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

/* decode_pid - the common_pid of a record */
int decode_pid(struct tep_event *ev, struct tep_record *rec)
{
	return (int)decode_s64(ev, rec, "common_pid");
}

/* loc_ok - a __data_loc/__rel_loc field points inside the record (strings: NUL-terminated) */
static int loc_ok(const struct tep_format_field *f, const struct tep_record *rec)
{
	const unsigned char *d = rec->data;
	unsigned long long loc;
	long long off, len;

	if (tep_read_number_field((struct tep_format_field *)f, rec->data, &loc) < 0)
		return 0;
	off = loc & 0xffff;
	len = (loc >> 16) & 0xffff;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (off + len > rec->size)
		return 0;
	if ((f->flags & TEP_FIELD_IS_STRING) && len > 0 && !memchr(d + off, '\0', len))
		return 0;
	return 1;
}

/* decode_record_ok - every field of ev, fixed and dynamic, lies inside rec */
int decode_record_ok(struct tep_event *ev, struct tep_record *rec)
{
	struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields }, *f;
	int i;

	if (!rec->data || rec->size < 8)
		return 0;
	for (i = 0; i < 2; i++)
		for (f = lists[i]; f; f = f->next) {
			if (!in_record(f, rec))
				return 0;
			if ((f->flags & TEP_FIELD_IS_DYNAMIC) && !loc_ok(f, rec))
				return 0;
		}
	return 1;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* decode.h - event fields by name, on every kernel's layout */
#ifndef FTT_DECODE_H
#define FTT_DECODE_H

#include <stddef.h>
#include <tracefs.h>

/* decode_has - does the event have a field of this name */
int decode_has(struct tep_event *ev, const char *field);
/* decode_u64 - unsigned field value; 0 if the field is missing */
unsigned long long decode_u64(struct tep_event *ev, struct tep_record *rec, const char *field);
/* decode_s64 - signed field value, sign-extended from the field's size */
long long decode_s64(struct tep_event *ev, struct tep_record *rec, const char *field);
/* decode_str - a char array or __data_loc string field, NUL-terminated into buf */
const char *decode_str(struct tep_event *ev, struct tep_record *rec, const char *field,
		       char *buf, size_t len);
/*
 * decode_raw - the bytes of a field (fixed, __data_loc or __rel_loc) and their
 * number in *len, or NULL: only ever bytes inside the record. Every read of a
 * field's bytes goes through it (or decode_str, decode_u64, ...).
 */
const void *decode_raw(struct tep_event *ev, struct tep_record *rec, const char *field, int *len);
/* decode_pid - the common_pid of a record */
int decode_pid(struct tep_event *ev, struct tep_record *rec);
/* decode_record_ok - every field (fixed, __data_loc, __rel_loc) lies inside the record */
int decode_record_ok(struct tep_event *ev, struct tep_record *rec);
/* decode_forget - forget what was looked up in events about to be freed (a reparse) */
void decode_forget(void);
/* decode_generation - a number that changes at each decode_forget (for callers' caches) */
unsigned int decode_generation(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* evjson.h - a binary event record as one JSON object, every field by name */
#ifndef FTT_EVJSON_H
#define FTT_EVJSON_H

#include <tracefs.h>

struct line;
struct session;

/* evjson_line flag: the probe's own fields (__probe_ip, __probe_func,
 * __probe_ret_ip) as symbols, "func" (and "ret_ip"), not in "fields" */
#define EVJSON_PROBE 1
/* evjson_line flag: the same for a uprobe, the addresses (the task's) in hex */
#define EVJSON_UPROBE 4

/*
 * evjson_fields - "fields":{...}, each field of the event's format (the
 * common_* aside) under its name, decoded from the record by its type: a
 * number (signed or unsigned as the format says, by the field's size); a
 * string for a char array or __data_loc char[], cut at the first NUL (null
 * when it holds no byte: a probe's fetch that failed, "(fault)"); an
 * array of numbers for other arrays (a field of another size: its bytes);
 * null for a field that does not lie inside the record. A record that does
 * not match its format: "fields":null and "error" saying so.
 */
void evjson_fields(struct line *l, struct tep_event *ev, struct tep_record *rec, int flags);
/*
 * evjson_line - the record as one JSON Lines object written to out (line.h's
 * JSON mode): time (null unless mono, the instance on the mono clock), host,
 * tool, comm (the task's name at the record, null when not known), pid, cpu, flags, timestamp (trace seconds, exact), event (name,
 * or SYSTEM:EVENT when NULL), then the fields; an ftrace:kernel_stack record
 * (-s) as "event":"ftrace:kernel_stack" and "stack":["symbol+0xoff",...]
 */
void evjson_line(struct session *s, struct tep_event *ev, struct tep_record *rec, int mono,
		 const char *name, int flags, const char *comm);

#endif

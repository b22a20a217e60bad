/* SPDX-License-Identifier: GPL-2.0-only */
/* format.c - the kernel's event formats, parsed for decoding
 *
 * Each event's layout is read from its format file in tracefs and parsed by
 * libtraceevent into the session's tep handle; decode.c then finds fields
 * by name in it. Costs one read and parse per event a tool asks for, at
 * startup, and a read of /proc/kallsyms when one of them prints kernel
 * symbols: a parse of every format in tracefs would cost up to a second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode.h"
#include "format.h"
#include "kenum.h"
#include "msg.h"
#include "names.h"
#include "session.h"
#include "xalloc.h"

/* parse_format - add one event's format to tep, once (a list may name it
 * twice: a tool's own events and a mechanism's); -1 if it cannot be read or parsed */
static int parse_format(struct tep_handle *tep, const char *sys, const char *ev)
{
	char *fmt, *fixed;
	int size = 0, rc;

	if (tep_find_event_by_name(tep, sys, ev))
		return 0;	/* a second copy would hide the first from its ID */
	fmt = tracefs_event_file_read(NULL, sys, ev, "format", &size);
	if (!fmt)
		return -1;
	fixed = kenum_resolve(fmt, &size);
	if (fixed) {
		free(fmt);
		fmt = fixed;
	}
	rc = tep_parse_event(tep, fmt, size, sys);
	free(fmt);
	return rc ? -1 : 0;
}

/* parse_system - add every event of a system; the number parsed */
static int parse_system(struct tep_handle *tep, const char *sys)
{
	char **events = tracefs_system_events(NULL, sys);
	int i, n = 0;

	for (i = 0; events && events[i]; i++)
		n += parse_format(tep, sys, events[i]) == 0;
	tracefs_list_free(events);
	return n;
}

/* wants_symbols - does an event print kernel addresses as symbols (%ps, %pS, ...) */
static int wants_symbols(struct tep_event *ev)
{
	const char *f = ev->print_fmt.format;

	while (f && (f = strstr(f, "%p"))) {
		f += 2;
		if (*f && strchr("sSBfF", *f))
			return 1;
	}
	return 0;
}

/*
 * format_load - (re)parse the formats of the given systems (NULL-terminated):
 * an entry names a whole event system, e.g. "block", or one event, e.g.
 * "syscalls:sys_enter_openat"
 */
void format_load(struct session *s, const char *const *systems)
{
	struct tep_handle *tep;
	char *buf, *colon, name[256];
	int size = 0, i, n = 0;

	if (s->tep) {
		decode_forget();	/* its events' addresses may be given to new ones */
		tep_free(s->tep);
	}
	s->tep = tep = tep_alloc();
	if (!tep)
		xalloc_die();
	/* the ring buffer is in the host's byte order (tep_alloc sets the host's) */
	tep_set_file_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_page_size(tep, getpagesize());
	buf = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!buf || tep_parse_header_page(tep, buf, size, sizeof(long)))
		msg_die(EXIT_ERR, "cannot read the ring buffer header format from tracefs:");
	free(buf);
	for (i = 0; systems && systems[i]; i++) {
		snprintf(name, sizeof(name), "%s", systems[i]);
		colon = strchr(name, ':');
		if (colon) {
			*colon = '\0';
			n += parse_format(tep, name, colon + 1) == 0;
		} else {
			n += parse_system(tep, name);
		}
	}
	kenum_release();
	if (!n)
		msg_die(EXIT_ERR, "cannot read the event formats from tracefs:");
	buf = tracefs_instance_file_read(NULL, "printk_formats", NULL);
	if (buf) {
		tep_parse_printk_formats(tep, buf);
		free(buf);
	}
	for (i = 0; i < tep_get_events_count(tep); i++)
		if (wants_symbols(tep_get_event(tep, i))) {
			names_kallsyms(s);
			break;
		}
}

/* format_event - the parsed event SYSTEM:EVENT, or NULL */
struct tep_event *format_event(struct session *s, const char *sys, const char *ev)
{
	return s->tep ? tep_find_event_by_name(s->tep, sys, ev) : NULL;
}

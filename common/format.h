/* SPDX-License-Identifier: GPL-2.0-only */
/* format.h - the kernel's event formats, parsed for decoding */
#ifndef FTT_FORMAT_H
#define FTT_FORMAT_H

#include <tracefs.h>

struct session;

/*
 * format_load - (re)parse formats into a new s->tep (the old one freed, and
 * decode's lookups in it forgotten): entries "system" or "system:event",
 * NULL-terminated. Loads the kernel's symbols when an event prints them. Dies
 * if the ring buffer's header or none of the formats can be read.
 */
void format_load(struct session *s, const char *const *systems);
/*
 * format_event - the parsed event SYSTEM:EVENT, or NULL (not loaded, or
 * nothing loaded yet); it belongs to s->tep, valid until the next format_load
 */
struct tep_event *format_event(struct session *s, const char *sys, const char *ev);

#endif

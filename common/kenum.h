/* SPDX-License-Identifier: GPL-2.0-only */
/* kenum.h - the running kernel's enum constants (BTF), for event print formats */
#ifndef FTT_KENUM_H
#define FTT_KENUM_H

/*
 * kenum_resolve - an event format file with the enum constants its print fmt
 * names (IOPRIO_CLASS_BE, TCP_ESTABLISHED) replaced by their values: a new
 * string and its length in *size, or NULL when there is nothing to replace or
 * the kernel publishes no BTF. libtraceevent cannot know these names and would
 * print the raw number where the kernel prints "be" or "TCP_ESTABLISHED".
 */
char *kenum_resolve(const char *fmt, int *size);
/* kenum_release - free the kernel's type data once the formats are parsed */
void kenum_release(void);

#endif

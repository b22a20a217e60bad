/* SPDX-License-Identifier: GPL-2.0-only */
/* errlog.h - why the kernel refused a tracefs write, from its error_log */
#ifndef FTT_ERRLOG_H
#define FTT_ERRLOG_H

#include <tracefs.h>

/*
 * errlog_mark - note the last entries of the top-level error_log and of
 * inst's (NULL: none) before a write the kernel may refuse: errlog_warn then
 * takes only a newer entry for its reason. The top-level log is the user's
 * and is never cleared; an instance's own log may be (tracefs_error_clear).
 */
void errlog_mark(struct tracefs_instance *inst);
/* errlog_warn - one line: what failed and the kernel's own reason (error_log) */
void errlog_warn(struct tracefs_instance *inst, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif

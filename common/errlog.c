/* SPDX-License-Identifier: GPL-2.0-only */
/* errlog.c - why the kernel refused a tracefs write, from its error_log
 *
 * A write the kernel refuses (a probe definition, a filter, a hist trigger)
 * fails with errno alone; the reason is the last entry of the tracefs
 * error_log, the instance's own or the top level's. It is taken only when it
 * is newer than the entry noted before the write (errlog_mark), and goes on
 * the tool's one line in place of errno's text.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errlog.h"
#include "msg.h"

/*
 * kernel_reason - reduce an error_log entry to its one-line reason
 *
 * The kernel writes "[ts] subsystem: error: Reason\n  Command: text\n    ^".
 */
static void kernel_reason(char *log, char *buf, size_t len)
{
	char *p;

	buf[0] = '\0';
	log[strcspn(log, "\n")] = '\0';
	/* "event filter parse error: error: Reason": the last "error: " wins */
	for (p = log; (p = strstr(p, "error: ")); p += 7)
		snprintf(buf, len, "%s", p + 7);
}

/* the last error_log entries before a write (errlog_mark): older ones are not its reason */
static char *mark_top, *mark_inst;

/* errlog_mark - see errlog.h */
void errlog_mark(struct tracefs_instance *inst)
{
	free(mark_top);
	free(mark_inst);
	mark_top = tracefs_error_last(NULL);
	mark_inst = inst ? tracefs_error_last(inst) : NULL;
}

/* last_new - the last entry of inst's error_log if it came after the mark, else NULL */
static char *last_new(struct tracefs_instance *inst, const char *mark)
{
	char *log = tracefs_error_last(inst);

	if (log && mark && !strcmp(log, mark)) {
		free(log);
		return NULL;
	}
	return log;
}

/* errlog_warn - one line: what failed and the kernel's own reason (error_log) */
void errlog_warn(struct tracefs_instance *inst, const char *fmt, ...)
{
	char reason[256] = "";
	char *log;
	va_list ap;
	int err = errno;

	log = last_new(inst, inst ? mark_inst : mark_top);
	if (!log && inst)
		log = last_new(NULL, mark_top);
	if (log) {
		kernel_reason(log, reason, sizeof(reason));
		free(log);
	}
	va_start(ap, fmt);
	msg_vwarn(reason[0] ? reason : strerror(err ? err : EINVAL), fmt, ap);
	va_end(ap);
}

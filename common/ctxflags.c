/* SPDX-License-Identifier: GPL-2.0-only */
/* ctxflags.c - the flags column of ftrace's text, as the running kernel prints it
 *
 * The bits of a record's common_flags (the kernel's TRACE_FLAG_*):
 *   0x01 irqs off      0x08 hardirq    0x20 preempt-resched (PREEMPT_NEED_RESCHED)
 *   0x02 see below     0x10 softirq    0x40 NMI
 *   0x04 need-resched                  0x80 BH disabled (5.18+; unused before)
 * 0x02 is irqs-not-supported before 6.13 and need-resched-lazy from 6.13 on.
 * libtraceevent (1.7 and 1.8 alike) decodes the bits of older kernels only:
 * it prints "N" for need-resched alone, and knows no NMI, BH or lazy bit, so
 * it would print a 6.13 kernel's lazy reschedule as "X". The column here is
 * the kernel's own, era by era (ctxflags.h); tests/live/tpoint.sh compares it
 * with the kernel's text of the same events.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "ctxflags.h"

#define F_IRQS_OFF	0x01
#define F_NOSUPPORT	0x02	/* before 6.13 */
#define F_LAZY		0x02	/* 6.13+ */
#define F_RESCHED	0x04
#define F_HARDIRQ	0x08
#define F_SOFTIRQ	0x10
#define F_PREEMPT	0x20
#define F_NMI		0x40
#define F_BH_OFF	0x80	/* 5.18+ */

/* ctxflags_for - see ctxflags.h */
int ctxflags_for(struct ctxflags *k, const char *rel)
{
	int major, minor, v;

	if (!rel || sscanf(rel, "%d.%d", &major, &minor) != 2)
		return -1;
	v = major * 1000 + minor;
	k->split = v >= 5013;
	k->bh = v >= 5018;
	k->lazy = v >= 6013;
	return 0;
}

/* ctxflags_running - see ctxflags.h */
const struct ctxflags *ctxflags_running(void)
{
	static struct ctxflags k;
	static int asked, known;
	struct utsname u;

	if (!asked) {
		known = ctxflags_for(&k, uname(&u) == 0 ? u.release : NULL) == 0;
		asked = 1;
	}
	return known ? &k : NULL;
}

/* resched - the need-resched column: need-resched, preempt-resched and (6.13+)
 * lazy, each combination a letter of its own */
static char resched(const struct ctxflags *k, unsigned int f)
{
	unsigned int nr = f & F_RESCHED, pr = f & F_PREEMPT;
	unsigned int lz = k->lazy ? f & F_LAZY : 0;

	if (nr && lz && pr)
		return 'B';
	if (nr && pr)
		return 'N';
	if (lz && pr)
		return 'L';
	if (nr && lz)
		return 'b';
	if (nr)
		return 'n';
	if (pr)
		return 'p';
	if (lz)
		return 'l';
	return '.';
}

/* ctxflags_text - see ctxflags.h */
char *ctxflags_text(const struct ctxflags *k, unsigned int f, unsigned int pc, char out[8])
{
	int bh = k->bh && (f & F_BH_OFF);
	int nmi = f & F_NMI, hard = f & F_HARDIRQ, soft = f & F_SOFTIRQ;
	char *p = out;

	pc &= 0xff;
	*p++ = (f & F_IRQS_OFF) && bh ? 'D' :
	       (f & F_IRQS_OFF) ? 'd' :
	       bh ? 'b' :
	       !k->lazy && (f & F_NOSUPPORT) ? 'X' : '.';
	*p++ = resched(k, f);
	*p++ = nmi && hard ? 'Z' : nmi ? 'z' : hard && soft ? 'H' : hard ? 'h' : soft ? 's' : '.';
	if (!k->split) {
		/* one column: the byte in hex ("%x"), so 0x10 and up take two */
		p += pc ? sprintf(p, "%x", pc) : sprintf(p, ".");
	} else {
		*p++ = pc & 0xf ? "0123456789abcdef"[pc & 0xf] : '.';
		*p++ = pc >> 4 ? "0123456789abcdef"[pc >> 4] : '.';
	}
	*p = '\0';
	return out;
}

/* ctxflags_legend - see ctxflags.h; the kernel's own lines (print_func_help_header_irq) */
const char *ctxflags_legend(const struct ctxflags *k)
{
	static char text[1024];
	const char *cols = k->split ? "|||||" : "|||| ";

	snprintf(text, sizeof(text),
		 "#                                _-----=> irqs-off%s\n"
		 "#                               / _----=> need-resched\n"
		 "#                              | / _---=> hardirq/softirq\n"
		 "#                              || / _--=> preempt-depth\n"
		 "%s"
		 "#                              %s /     delay\n"
		 "#           TASK-PID     CPU#  %s  TIMESTAMP  FUNCTION\n"
		 "#              | |         |   %s     |         |\n",
		 k->bh ? "/BH-disabled" : "",
		 k->split ? "#                              ||| / _-=> migrate-disable\n" : "",
		 k->split ? "||||" : "|||", cols, cols);
	return text;
}

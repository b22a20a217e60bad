/* SPDX-License-Identifier: GPL-2.0-only */
/* ctxflags.h - the flags column of ftrace's text ("d..1."), as the running kernel prints it */
#ifndef FTT_CTXFLAGS_H
#define FTT_CTXFLAGS_H

/*
 * What a record's common_flags and common_preempt_count bits mean, and how
 * the kernel's text shows them, changed three times in the kernels this
 * suite supports (kernel/trace/trace_output.c, trace_print_lat_fmt):
 *   5.13  the preempt count byte is two counts: preempt depth (low nibble)
 *         and migrate-disable depth (high nibble), a column each; before,
 *         one column with the byte in hex
 *   5.18  bit 0x80 is BH-disabled: "b", or "D" with irqs off
 *   6.13  bit 0x02 is need-resched-lazy ("l", "L", "b", "B" in the
 *         need-resched column); before, it was irqs-not-supported ("X")
 */
struct ctxflags {
	int split;	/* 5.13+: preempt and migrate-disable depths */
	int bh;		/* 5.18+: BH-disabled */
	int lazy;	/* 6.13+: need-resched-lazy */
};

/* ctxflags_for - the meanings for kernel release rel ("6.1.0-18-amd64");
 * -1 for a release that does not say its version (nothing is guessed) */
int ctxflags_for(struct ctxflags *k, const char *rel);
/* ctxflags_running - the meanings for the running kernel (uname), found once;
 * NULL if its release does not say (the column is then shown as not known) */
const struct ctxflags *ctxflags_running(void);
/* ctxflags_text - the column for these bits, as k's kernel prints it, in out
 * (4 or 5 characters and a NUL); returns out */
char *ctxflags_text(const struct ctxflags *k, unsigned int flags, unsigned int pc, char out[8]);
/* ctxflags_legend - the '#' lines of the kernel's trace header that name the
 * columns, for k's kernel, up to and including the "TASK-PID" lines */
const char *ctxflags_legend(const struct ctxflags *k);

#endif

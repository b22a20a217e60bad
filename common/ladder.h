/* SPDX-License-Identifier: GPL-2.0-only */
/* ladder.h - the capture ladder: the rungs that take user strings at the call
 *
 * The strings an open or an exec was called with are taken in the kernel at
 * the call (capture.h says why and how they are paired with the call) by the
 * first of these that this kernel has and that proves itself at startup
 * (best first for opens; for execs the syscall rung gives only the file, so
 * it comes after those that give argv as well):
 *
 *   syscall  the syscall event's own string field (6.19+)
 *   eprobe   event probes on the syscall entry tracepoints (5.15+)
 *   kprobe   kprobes with string fetchargs (5.5+)
 *   uprobe   uprobes on the C library's open and exec functions, in every
 *            C library that running processes map
 *   none     nothing: the value is unknown
 *
 * Proof: each rung is set up, then a child of the tool opens and execs a path
 * made for the run (neither exists); the rung must deliver exactly that path
 * and argv, from the child's pointers, or it is torn down and the next tried.
 * FTT_CAPTURE=RUNG in the environment forces a rung (it must still prove
 * itself, or the tool exits).
 */
#ifndef FTT_LADDER_H
#define FTT_LADDER_H

#include "capture.h"

struct session;

/*
 * ladder_open - set up the best rung that proves itself for KIND (exec: argv
 * entries up to argc, at most CAP_MAXSTR - 2), before session_start. Never
 * fails: the last rung is CAP_NONE. Dies if FTT_CAPTURE names a rung that
 * cannot be set up or fails its proof.
 */
struct capture *ladder_open(struct session *s, enum cap_kind kind, unsigned int argc);
/*
 * ladder_note - on stderr: without verbose, one line when rows may show [?]
 * (uprobes, none, an exec's syscall event) or the rung is not the ladder's
 * first because it was forced or a better one failed its check, else
 * nothing; with verbose, the rung ("capture rung NAME"), and why each better
 * one is not in use
 */
void ladder_note(const struct capture *c, int verbose);

#endif

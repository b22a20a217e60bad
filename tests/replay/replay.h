/* SPDX-License-Identifier: GPL-2.0-only */
/* replay.h - the deterministic tier: binary records, built field by field
 * from real format files, fed through the real stream and handlers
 *
 * A case lays out what each CPU's ring buffer holds, page by page, and from
 * which drain of the stream each page can be read (a CPU that is empty at one
 * drain and busy at the next, a page after lost events). rp_run then runs the
 * real stream_run over it: the per-CPU readers get those pages (the tracefs
 * calls are swapped at link time, see the Makefile), and the drains follow the
 * layout one step each. A case runs in a child process of its own, so every
 * static table of the code under test starts empty; its stdout and stderr come
 * back as text for the checks.
 */
#ifndef FTT_REPLAY_H
#define FTT_REPLAY_H

#include <tracefs.h>

struct session;

/* rp_session - the session of the case: a tep with the formats of
 * tests/fuzz/formats and tests/replay/formats, no tracefs instance */
struct session *rp_session(void);
/* rp_event - "SYS:NAME"'s format; the case ends (fails) if it is not there */
struct tep_event *rp_event(const char *name);
/*
 * rp_page - on cpu, the records added next go in a new page, readable from
 * drain `step` on (0: the first); with lost > 0, the page says that many
 * events were lost before it (the kernel's missed-events mark)
 */
void rp_page(int cpu, int step, unsigned long lost);
/*
 * rp_rec - add a record of event `name` ("SYS:NAME") to cpu's current page,
 * stamped ts; fields "name=value ...": numbers (0x.., 0.., decimal), raw
 * bytes in order ("x:7f000001", for arrays such as addresses) or, for strings
 * and char arrays, the text (no spaces). Fields not named are 0. Name "?":
 * a record of an event no format describes (type 65535, 16 bytes).
 */
void rp_rec(int cpu, unsigned long long ts, const char *name, const char *fields);
/* rp_run - stream_run over the layout: one drain per step, then the final drains */
void rp_run(void);

/* rp_case - run fn in a child; its stdout and stderr (malloc'd) */
char *rp_case(void (*fn)(void));
/* rp_check - one PASS/FAIL line (FAIL also if the case did not end with
 * status 0); on FAIL, what the case printed */
void rp_check(const char *name, int ok, const char *output);
/* rp_lines - how many lines of text contain `what` */
int rp_lines(const char *text, const char *what);
/* rp_at - where `what` first begins in text (an offset, to compare orders), or -1 */
long rp_at(const char *text, const char *what);
/* rp_done - the tally line; the exit status for main */
int rp_done(const char *suite);

#endif

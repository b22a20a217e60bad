/* SPDX-License-Identifier: GPL-2.0-only */
/* fieldhist.c - a numeric field of any event counted into buckets, in the kernel or here
 *
 * Where the kernel has hist triggers, one trigger in the run's instance counts
 * the event by the field's exact value (and the group's, a string field such
 * as comm), filtered as the user asked and never on our own PID; nothing goes
 * through the ring buffer, and the exact values are put in buckets here when
 * the table is read at the end. The trigger is trusted only after one like it
 * (a signed number as its key, made paused, switched on and off) counted
 * exactly the known failing close() calls we made while it ran, and none
 * made around them (khist_prove). Elsewhere, or when that proof fails, the
 * event is enabled with the same filter and every record is read and
 * counted here; stderr says so.
 * A key's text is the kernel's (%llu of up to 64 bits): it is cut to the
 * field's size and sign-extended when the field is signed, so -9 in an int
 * reads back as -9 whatever the kernel kept above its 32 bits.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "decode.h"
#include "errlog.h"
#include "fieldhist.h"
#include "filter.h"
#include "format.h"
#include "hist.h"
#include "kernel.h"
#include "khist.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "session.h"
#include "stream.h"
#include "xalloc.h"

/* entries of the kernel's table: distinct values (and groups) it can hold */
#define TABLE_SIZE 32768

static const struct fieldhist_spec *sp;
static int fsize, fsigned;		/* the field: bytes, and signed */
static int in_kernel, forced;
static char trig[1024];			/* the run's trigger, as made */
static long long dropped;		/* hits the kernel's table had no room for */
static struct fieldhist_group *groups;
static size_t ngroups;

/* ---- checks and edges -------------------------------------------------- */

/* fieldhist_check - see fieldhist.h */
void fieldhist_check(const struct fieldhist_spec *s)
{
	struct tep_handle *tep;
	struct tep_event *e = NULL;
	struct tep_format_field *f, *g;
	char *fmt;
	int len = 0;

	session_tracefs();
	if (!session_event_exists(s->sys, s->ev))
		msg_die(EXIT_USAGE, "tracepoint %s:%s not found", s->sys, s->ev);
	if (!opt_is_ident(s->field))
		opt_usage("variable '%.40s' is not a field name", s->field);
	fmt = tracefs_event_file_read(NULL, s->sys, s->ev, "format", &len);
	tep = tep_alloc();
	if (!fmt || !tep || tep_parse_format(tep, &e, fmt, len, s->sys) || !e)
		msg_die(EXIT_ERR, "cannot read the format of %s:%s", s->sys, s->ev);
	f = tep_find_any_field(e, s->field);
	if (!f)
		msg_die(EXIT_USAGE, "%s:%s has no field '%s' (see its format file)", s->sys,
			s->ev, s->field);
	if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		msg_die(EXIT_USAGE, "field '%s' of %s:%s is not a number", s->field, s->sys, s->ev);
	fsize = f->size;
	fsigned = !!(f->flags & TEP_FIELD_IS_SIGNED);
	if (s->group) {
		g = tep_find_field(e, s->group);
		if (!g || !(g->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING)) ||
		    (g->flags & TEP_FIELD_IS_DYNAMIC))
			msg_die(EXIT_ERR, "%s:%s has no text field '%s'", s->sys, s->ev, s->group);
	}
	free(fmt);
	tep_free(tep);
}

/* fieldhist_edges - see fieldhist.h */
void fieldhist_edges(struct fieldhist_spec *s, const char *text, const char *what,
		     long long min, long long max)
{
	const char *p = text;
	char *end;
	long long v;

	s->nedge = 0;
	for (;;) {
		p += strspn(p, " \t");
		if (!*p)
			break;
		if (s->nedge == FIELDHIST_EDGES)
			opt_usage("%s: at most %d buckets", what, FIELDHIST_EDGES);
		errno = 0;
		v = strtoll(p, &end, 10);
		if (end == p || (*end && *end != ' ' && *end != '\t'))
			opt_usage("%s: '%.40s' is not a list of integers", what, text);
		if (errno || v < min || v > max)
			opt_usage("%s: %.*s is out of range (%lld to %lld)", what, (int)(end - p), p,
				  min, max);
		if (s->nedge && v <= s->edge[s->nedge - 1])
			opt_usage("%s: bucket list must increase in size", what);
		s->edge[s->nedge++] = v;
		p = end;
	}
	if (!s->nedge)
		opt_usage("%s: no buckets given", what);
}

/* ---- counts ------------------------------------------------------------ */

/* group - the histogram of group name (NULL: the one without a group), made if new */
static struct fieldhist_group *group(const char *name)
{
	size_t i;

	for (i = 0; i < ngroups; i++)
		if (!name || !strcmp(groups[i].name, name))
			return &groups[i];
	groups = xreallocarray(groups, ngroups + 1, sizeof(*groups));
	memset(&groups[ngroups], 0, sizeof(*groups));
	groups[ngroups].name = name ? xstrdup(name) : NULL;
	return &groups[ngroups++];
}

/* value - the field's value from a key's 64 bits: its size, its sign */
static long long value(unsigned long long raw)
{
	int bits = fsize * 8;

	if (bits < 64) {
		raw &= (1ULL << bits) - 1;
		if (fsigned && (raw >> (bits - 1)))
			raw |= ~0ULL << bits;
	}
	return (long long)raw;
}

/* bucket - the bucket of v (unsigned 64-bit fields above LLONG_MAX: the last) */
static int bucket(long long v, int neg_is_big)
{
	int lo = 0, hi = sp->nedge;

	if (neg_is_big && v < 0)
		return sp->nedge;
	while (lo < hi) {	/* the first edge above v */
		int mid = (lo + hi) / 2;

		if (sp->edge[mid] > v)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* add - n more of raw value v (a key's or a record's 64 bits) in group name */
static void add(const char *name, unsigned long long raw, unsigned long long n)
{
	long long v = value(raw);

	group(name)->count[bucket(v, !fsigned && fsize == 8)] += n;
}

/* ---- in the kernel ------------------------------------------------------- */

/* group_key - the group's text in an entry's keys (the last key, padded), into buf */
static int group_key(const char *keys, char *buf, size_t len)
{
	char tag[64];
	const char *p;
	size_t n;

	snprintf(tag, sizeof(tag), ", %s: ", sp->group);
	p = strstr(keys, tag);
	if (!p)
		return -1;
	p += strlen(tag);
	n = strlen(p);
	while (n && p[n - 1] == ' ')
		n--;
	if (n >= len)
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return 0;
}

/* on_entry - khist_read's callback: an entry of the run's trigger */
static void on_entry(const char *info, const char *keys, unsigned long long hits, void *ctx)
{
	unsigned long long v;
	char name[64];

	(void)info, (void)ctx;
	if (khist_key(keys, sp->field, &v) < 0 || (sp->group && group_key(keys, name, sizeof(name)) < 0)) {
		msg_warn("an entry of the kernel's table could not be read: {%.80s}", keys);
		return;
	}
	add(sp->group ? name : NULL, v, hits);
}

/* bad_calls - n calls whose return is known: close(-1) fails with EBADF */
static void bad_calls(int n)
{
	int i;

	for (i = 0; i < n; i++)
		syscall(SYS_close, -1);
}

/* proof_match - khist_prove's test: the entry of ret -EBADF (a long, as the key's text gives it) */
static int proof_match(const char *keys, void *ctx)
{
	unsigned long long v;

	(void)ctx;
	if (khist_key(keys, "ret", &v) < 0)
		return -1;
	return (long long)v == -EBADF;
}

/* prove - the kernel counts a signed key exactly (khist_prove); NULL if so, else why not */
static const char *prove(struct session *s)
{
	char cmd[160];
	const char *no;

	snprintf(cmd, sizeof(cmd), "hist:keys=ret:vals=hitcount:size=%d:pause if common_pid == %d",
		 TABLE_SIZE, (int)getpid());
	no = khist_prove(s, &(struct khist_proof){ "raw_syscalls", "sys_exit", cmd, bad_calls,
						   proof_match, NULL });
	if (no && !no[0]) {
		errlog_warn(s->inst, "%s: the kernel refused a hist trigger on raw_syscalls:sys_exit",
			    forced ? "FTT_COUNT=kernel" : "counting in user space");
		if (forced)
			exit(EXIT_ERR);
	}
	return no;
}

/* choose - count in the kernel if it can, proven (NULL); else why not ("" when said already) */
static const char *choose(struct session *s)
{
	const char *force = getenv("FTT_COUNT");
	const char *why;

	if (force && *force && strcmp(force, "user") && strcmp(force, "kernel"))
		msg_die(EXIT_USAGE, "FTT_COUNT must be user or kernel");
	if (force && !strcmp(force, "user"))
		return "FTT_COUNT=user";
	forced = force && !strcmp(force, "kernel");
	if (!session_event_exists("raw_syscalls", "sys_exit"))
		why = "no raw_syscalls:sys_exit to prove a hist trigger with";
	else
		why = kernel_has(KF_HIST) ? prove(s) : kernel_lacks(KF_HIST);
	if (!why)
		in_kernel = 1;
	else if (forced)
		msg_die(EXIT_ERR, "FTT_COUNT=kernel: %s", why);
	return why;
}

/* ---- in user space ------------------------------------------------------- */

/* on_record - one record of the event, counted */
static void on_record(const struct stream_rec *r)
{
	char name[64];
	unsigned long long v = fsigned ? (unsigned long long)decode_s64(r->ev, r->rec, sp->field)
				       : decode_u64(r->ev, r->rec, sp->field);

	if (sp->group && !decode_str(r->ev, r->rec, sp->group, name, sizeof(name)))
		return;
	add(sp->group ? name : NULL, v, 1);
}

/* ---- the run --------------------------------------------------------------- */

/* fieldhist_setup - see fieldhist.h */
void fieldhist_setup(struct session *s, const struct fieldhist_spec *spec)
{
	char *f = filter_build(0, spec->filter, NULL);
	const char *why;

	sp = spec;
	/* the user's filter as the kernel parses it: refused, it is named (usage) */
	session_filter(s, sp->sys, sp->ev, f, sp->filter);
	why = choose(s);
	if (in_kernel) {
		snprintf(trig, sizeof(trig), "hist:keys=%s%s%s:vals=hitcount:size=%d:pause if %s",
			 sp->field, sp->group ? "," : "", sp->group ? sp->group : "", TABLE_SIZE, f);
		if (strlen(trig) + 1 >= sizeof(trig))
			msg_die(EXIT_USAGE, "filter too long");
		if (khist_add(s, sp->sys, sp->ev, trig) < 0) {
			errlog_warn(s->inst, "the kernel refused the hist trigger on %s:%s", sp->sys,
				    sp->ev);
			exit(EXIT_ERR);
		}
	} else {
		format_load(s, (const char *const[]){ sp->sys, NULL });
		if (!stream_follow(s, sp->sys, sp->ev, f, on_record, NULL))
			msg_die(EXIT_ERR, "cannot read the format of %s:%s", sp->sys, sp->ev);
		if (why[0])
			msg_warn("counting in user space (%s): every event is copied", why);
	}
	free(f);
	if (!sp->group)
		group(NULL);
}

/* fieldhist_start - see fieldhist.h */
void fieldhist_start(struct session *s)
{
	if (!in_kernel) {
		stream_begin(s, 0);
		return;
	}
	session_start(s);	/* nothing is read: no ring buffer to size */
	out_init(0);
	if (khist_pause(s, sp->sys, sp->ev, trig, 0) < 0) {
		errlog_warn(s->inst, "cannot start counting (events/%s/%s/trigger)", sp->sys, sp->ev);
		exit(EXIT_ERR);
	}
}

/* fieldhist_run - see fieldhist.h */
void fieldhist_run(struct session *s, double duration)
{
	if (!in_kernel) {
		stream_run(s, duration, 0, NULL, NULL);
		return;
	}
	stream_idle(duration, 0, NULL, NULL);
	if (khist_pause(s, sp->sys, sp->ev, trig, 1) < 0)
		errlog_warn(s->inst, "cannot stop counting: the counts go on while they are read");
	dropped = khist_read(s, sp->sys, sp->ev, on_entry, NULL);
	if (dropped < 0)
		msg_die(EXIT_ERR, "cannot read the kernel's counts (events/%s/%s/hist):", sp->sys,
			sp->ev);
}

/* by_name - groups in name order */
static int by_name(const void *a, const void *b)
{
	const struct fieldhist_group *x = a, *y = b;

	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

/* fieldhist_groups - see fieldhist.h */
const struct fieldhist_group *fieldhist_groups(size_t *n)
{
	qsort(groups, ngroups, sizeof(*groups), by_name);
	*n = ngroups;
	return groups;
}

/* fieldhist_report - see fieldhist.h */
void fieldhist_report(struct session *s)
{
	if (!in_kernel)
		stream_report_lost(s);
	else if (dropped > 0)
		msg_warn("WARNING: %lld events were not counted: the kernel's table (%d entries) "
			 "was full", dropped, TABLE_SIZE);
}

/* ---- output ---------------------------------------------------------------- */

/* edge_text - edge e (less `less` tenths, for scale > 1) as shown */
static void edge_text(char *buf, size_t len, long long e, long long scale, int less)
{
	if (scale == 1)
		snprintf(buf, len, "%lld", e - less);
	else
		snprintf(buf, len, "%.1f", (double)e / (double)scale - less * 0.1);
}

/* fieldhist_print - see fieldhist.h */
void fieldhist_print(FILE *f, const struct fieldhist_group *g, const char *head,
		     const char *label, long long scale)
{
	char lo[48], hi[48], bar[HIST_BAR_WIDTH + 1];
	unsigned long long max = 0;
	int i;

	for (i = 0; i <= sp->nedge; i++)
		if (g->count[i] > max)
			max = g->count[i];
	fprintf(f, "            %-15s: %-8s %s\n", head, label, "Distribution");
	for (i = 0; i <= sp->nedge; i++) {
		lo[0] = hi[0] = '\0';
		if (i)
			edge_text(lo, sizeof(lo), sp->edge[i - 1], scale, 0);
		if (i < sp->nedge)
			edge_text(hi, sizeof(hi), sp->edge[i], scale, 1);
		fprintf(f, "   %10s -> %-10s: %-8llu |%-*s|\n", lo, hi, g->count[i], HIST_BAR_WIDTH,
			hist_bar(bar, HIST_BAR_WIDTH, g->count[i], max));
	}
}

/* fieldhist_json - see fieldhist.h */
void fieldhist_json(struct line *l, const char *key, const struct fieldhist_group *g)
{
	int i;

	col_open(l, key, '[');
	for (i = 0; i <= sp->nedge; i++) {
		col_open(l, NULL, '{');
		if (i)
			col_dec(l, "min", sp->edge[i - 1], ALIGN_LEFT, 0);
		else
			col_null(l, "min", "", ALIGN_LEFT, 0);
		if (i < sp->nedge)
			col_dec(l, "max", sp->edge[i] - 1, ALIGN_LEFT, 0);
		else
			col_null(l, "max", "", ALIGN_LEFT, 0);
		col_dec(l, "count", (long long)g->count[i], ALIGN_LEFT, 0);
		col_close(l);
	}
	col_close(l);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* capture.c - user strings taken at the call, paired with the call at run time
 *
 * See capture.h for the pairing rules; ladder.c chooses the rung and proves
 * it. A capture event (or, on the syscall rung, the entry record) is decoded
 * at once and waits, per thread, for its call's end; capture_take hands it
 * on only if it is that call's. Cost per call: syscall, none: nothing more
 * than the syscall events; eprobe, kprobe: one more event with the strings;
 * uprobe: a breakpoint trap in the calling process plus one more event
 * (bench/RESULTS.md has the figures).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "decode.h"
#include "format.h"
#include "pidmap.h"
#include "reorder.h"
#include "session.h"
#include "xalloc.h"

/* a value no call took within this long (trace clock) is dropped: a call the
 * tool does not follow (creat() on the kprobe rung) would leave it for good */
#define VAL_MAX_AGE_NS	(10ULL * 1000000000ULL)

/* capture_free - see capture.h */
void capture_free(struct cap_val *v)
{
	int i;

	if (!v)
		return;
	for (i = 0; i < v->nstr; i++)
		free(v->str[i]);
	free(v);
}

/* free_val - pidmap release function */
static void free_val(void *p)
{
	capture_free(p);
}

/* capture_init - see capture.h */
void capture_init(struct capture *c, struct session *s, enum cap_kind kind, unsigned int argc)
{
	c->s = s;
	c->kind = kind;
	c->argc = argc > CAP_MAXSTR - 2 ? CAP_MAXSTR - 2 : argc;
	c->slots = pidmap_new(free_val);
	c->ends = pidmap_new(NULL);
}

/* take_str - v's next string: field NAME up to its NUL; -1 if the kernel could not read it */
static int take_str(struct cap_val *v, struct tep_event *ev, struct tep_record *rec,
		    const char *name)
{
	int n;
	const char *s = decode_raw(ev, rec, name, &n);

	/* a fetched string keeps its NUL (an empty one is 1 byte); a failed
	 * fetch leaves 0 bytes (shown as "(fault)") */
	if (!s || n <= 0 || v->nstr == CAP_MAXSTR)
		return -1;
	v->str[v->nstr++] = xasprintf("%.*s", n, s);
	return 0;
}

/* capture_decode - see capture.h */
struct cap_val *capture_decode(struct capture *c, struct tep_event *ev, struct tep_record *rec)
{
	struct cap_val *v = xcalloc(1, sizeof(*v));
	int sys = c->rung == CAP_SYSCALL, exec = c->kind == CAP_EXEC;
	char field[8];
	unsigned int i;
	size_t len;

	v->ts = rec->ts;
	v->ptr[0] = decode_u64(ev, rec, sys ? "filename" : exec ? "fp" : "ptr");
	if (exec)
		v->ptr[1] = decode_u64(ev, rec, sys ? "argv" : "ap");
	if (!exec && decode_has(ev, "flags")) {
		v->flags = decode_u64(ev, rec, "flags");
		v->has_flags = 1;
	}
	if (take_str(v, ev, rec, sys ? "__filename_val" : exec ? "fn" : "path") < 0)
		goto unknown;
	/* the kernel keeps bufsz bytes of a longer string and adds "...":
	 * only a cut string is that long */
	len = strlen(v->str[0]);
	if (sys && len == (size_t)c->bufsz + 3 && !strcmp(v->str[0] + len - 3, "...")) {
		v->str[0][c->bufsz] = '\0';
		v->cut = 1;
	}
	if (sys || !exec)
		return v;
	for (i = 0; i <= c->argc; i++) {
		snprintf(field, sizeof(field), "p%u", i);
		if (!decode_u64(ev, rec, field))
			break;			/* argv's NULL: all taken */
		if (i == c->argc) {
			v->more = 1;
			break;
		}
		snprintf(field, sizeof(field), "a%u", i);
		if (take_str(v, ev, rec, field) < 0)
			goto unknown;	/* an argument the kernel could not read */
	}
	v->args_known = 1;
	return v;
unknown:
	capture_free(v);
	return NULL;
}

/* too_old - pidmap_sweep test: a value taken before *arg */
static int too_old(int tid, void *val, void *arg)
{
	(void)tid;
	return ((struct cap_val *)val)->ts < *(unsigned long long *)arg;
}

/* capture_store - see capture.h */
void capture_store(struct capture *c, int tid, struct cap_val *v)
{
	unsigned long long old;

	if (v && v->ts > c->swept + 1000000000ULL) {
		c->swept = v->ts;
		if (v->ts > VAL_MAX_AGE_NS) {
			old = v->ts - VAL_MAX_AGE_NS;
			pidmap_sweep(c->slots, too_old, &old);
		}
	}
	if (v) {
		v->gaps = reorder_gaps();
		pidmap_put(c->slots, tid, v);
	} else {
		capture_free(pidmap_take(c->slots, tid));	/* unreadable: no older value either */
	}
}

/* the capture whose events the stream follows (one per run) */
static struct capture *followed;

/* on_capture - a capture event in time order: the value waits for its call's end */
static void on_capture(const struct stream_rec *r)
{
	reorder_keep_aux();
	capture_store(r->ctx, decode_pid(r->ev, r->rec), r->aux);
}

/* pre_capture - decode at once; the gaps before it are counted when it is stored */
static void pre_capture(const struct stream_rec *r)
{
	reorder_push(r->ev, r->rec, on_capture, followed,
		     capture_decode(followed, r->ev, r->rec));
}

/* capture_load - see capture.h */
void capture_load(struct capture *c, const char *const *own)
{
	const char *all[CAP_MAXEVENTS + 32];
	char fmts[CAP_MAXEVENTS][160];
	int n = 0, i;

	for (i = 0; own[i] && n < 31; i++)
		all[n++] = own[i];
	for (i = 0; i < c->nev; i++) {
		snprintf(fmts[i], sizeof(fmts[i]), "%s:%s", c->s->group, c->names[i]);
		all[n++] = fmts[i];
	}
	all[n] = NULL;
	format_load(c->s, all);	/* only these: fast even in an emulated guest */
}

/* no_gap_hook - at a gap: nothing to do, reorder_gaps counts it */
static void no_gap_hook(int cpu, unsigned long long ts, void *ctx)
{
	(void)cpu, (void)ts, (void)ctx;
}

/* capture_follow - see capture.h */
void capture_follow(struct capture *c, const char *filter)
{
	int i;

	followed = c;
	reorder_on_gap(no_gap_hook, NULL);	/* gaps are counted in time order */
	for (i = 0; i < c->nev; i++)
		stream_follow(c->s, c->s->group, c->names[i], filter, pre_capture, NULL);
}

/* capture_enter - see capture.h */
void capture_enter(struct capture *c, struct tep_event *ev, struct tep_record *rec)
{
	if (c->rung == CAP_SYSCALL)
		capture_store(c, decode_pid(ev, rec), capture_decode(c, ev, rec));
}

/* capture_take - see capture.h */
struct cap_val *capture_take(struct capture *c, int tid, const unsigned long long ptr[2],
			     unsigned long long ts)
{
	struct cap_val *v = pidmap_take(c->slots, tid);
	unsigned long long last = (unsigned long long)(unsigned long)pidmap_get(c->ends, tid);

	pidmap_put(c->ends, tid, (void *)(unsigned long)(ts + 1));
	if (!v)
		return NULL;
	if ((last && v->ts < last) || v->ts > ts || v->ptr[0] != ptr[0] ||
	    (c->kind == CAP_EXEC && v->ptr[1] != ptr[1]) || v->gaps != reorder_gaps()) {
		capture_free(v);	/* another call's, or events were lost since */
		return NULL;
	}
	return v;
}


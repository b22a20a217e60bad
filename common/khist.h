/* SPDX-License-Identifier: GPL-2.0-only */
/* khist.h - the kernel's hist triggers and synthetic events, owned by one run */
#ifndef FTT_KHIST_H
#define FTT_KHIST_H

#include <tracefs.h>

struct session;

/*
 * khist_synth - define the synthetic event NAME with FIELDS ("u64 lat; u32 dev");
 * it is deleted at exit, after this run's triggers. -1 if the kernel refuses it
 * (its reason is in error_log: errlog_warn).
 */
int khist_synth(const char *name, const char *fields);
/*
 * khist_synth_remove - delete now a synthetic event khist_synth defined (the
 * triggers that use it removed first); -1 if refused
 */
int khist_synth_remove(const char *name);
/*
 * khist_add - append the trigger CMD to SYS/EV in the session's instance. It is
 * removed at exit (newest first) unless khist_remove took it away before.
 * -1 if the kernel refuses it (its reason is in the instance's error_log).
 */
int khist_add(struct session *s, const char *sys, const char *ev, const char *cmd);
/*
 * khist_pause - pause (pause 1) or continue (0) a hist trigger khist_add
 * added, CMD as given there (one made with ":pause" in it is made paused):
 * one append of CMD with ":pause" or ":cont" before its filter. A paused
 * histogram keeps its counts and counts nothing more. -1 if refused.
 */
int khist_pause(struct session *s, const char *sys, const char *ev, const char *cmd, int pause);
/* khist_remove - remove now a trigger khist_add added (the same SYS, EV and CMD); -1 if refused */
int khist_remove(struct session *s, const char *sys, const char *ev, const char *cmd);
/*
 * khist_read - parse the hist file of SYS/EV in the instance: fn(info, keys,
 * hits, ctx) for every entry, where info is its histogram's trigger text (after
 * "# trigger info: ") and keys the text inside the braces. Returns the sum of
 * the "Dropped:" totals (entries the tables had no room for), or -1 if the
 * file cannot be read.
 */
long long khist_read(struct session *s, const char *sys, const char *ev,
		     void (*fn)(const char *info, const char *keys, unsigned long long hits,
				void *ctx),
		     void *ctx);
/*
 * khist_key - the value of key NAME in an entry's keys text: a number, or the
 * low end of a bucket ("lat: ~ 3000-3999" gives 3000). -1 if absent.
 */
int khist_key(const char *keys, const char *name, unsigned long long *v);
/*
 * khist_value - the value NAME of the entry whose keys text khist_read handed
 * to fn (keys exactly as given: the values follow it in the line), e.g. the
 * sum "lat" of a "vals=hitcount,lat" histogram. -1 if absent.
 */
int khist_value(const char *keys, const char *name, unsigned long long *v);

/* the known calls a proof counts, and those made around them while paused */
#define KHIST_PROOF_CALLS 1000
#define KHIST_PROOF_NOISE 50

/* a proof that a hist trigger counts exactly: see khist_prove */
struct khist_proof {
	const char *sys, *ev;		/* an event the known calls fire */
	const char *cmd;		/* the trigger: made with ":pause", filtered to the caller */
	void (*calls)(int n);		/* make n known calls */
	/* match - an entry's keys: 1 the known call's, 0 another, -1 unreadable */
	int (*match)(const char *keys, void *ctx);
	void *ctx;
};
/*
 * khist_prove - the trigger p->cmd, made paused, counts none of the calls made
 * while it is paused and exactly KHIST_PROOF_CALLS made while it runs (the
 * entries p->match says are the known call's). The trigger is removed again.
 * NULL if so; "" if the kernel refused the trigger (its reason still in
 * error_log, for errlog_warn); else why not, for stderr.
 */
const char *khist_prove(struct session *s, const struct khist_proof *p);

#endif

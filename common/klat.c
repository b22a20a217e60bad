/* SPDX-License-Identifier: GPL-2.0-only */
/* klat.c - latency from a start event to an end event, paired and counted in the kernel
 *
 * The start event's hist trigger saves its timestamp in variables keyed by the
 * pairing fields; the end event's trigger, on a match, fires a synthetic event
 * with the latency, the group field and the start time, and hist triggers on
 * that event count it in buckets. User space reads the bucket counts (a few
 * lines) every poll and hands on what grew. Nothing is done per event here.
 *
 * The kernel's pairing table keeps one entry per distinct key ever seen: it
 * cannot be cleared while another trigger uses its variable, and once full it
 * stops pairing. So it is renewed, each pair meant to count in one set. After
 * RENEW_MIN to RENEW_MAX pairs, as late as the pair rate seen and the time a
 * renewal took leave room for, a second pairing set (its own variables and synthetic event)
 * starts beside the first, and a moment T a little ahead is chosen: the new
 * set counts only what started at T or later, and the old set's count of what
 * started at T or later (a histogram added for that) is taken off its own.
 * Both histograms exist before T, and the new set pairs from before T, so
 * every pair is counted by exactly one set. OVERLAP_S after T the old set's
 * triggers go; an end whose start only the old set saw, ending after that, is
 * not paired. klat_unpaired counts those, with the ends of what was in flight
 * when counting began, from a histogram of all end events: none goes unsaid.
 *
 * Making a trigger that uses timestamps sets the instance's clock again, which
 * resets its ring buffer: the kernel stops recording in that instance until
 * every CPU has passed an RCU grace period, and no trigger there fires for an
 * event in the meantime (under qemu 0.1-0.4 s: with one instance, 1000 to
 * 1600 of 40000 I/O went unpaired across renewals). For some 30 ms after, a
 * 6.1 kernel stamps the events 0.1-0.2 s off (seen against a second instance
 * recording the same events). So each pairing set has an instance of its own
 * (session_companion), the end events are counted in the run's instance, and
 * the making of a set upsets only that set, before T: T comes SETTLE_S after
 * it. A renewal still comes as late as the table's room allows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "kernel.h"
#include "khist.h"
#include "klat.h"
#include "msg.h"
#include "session.h"
#include "signals.h"
#include "xalloc.h"

#define PAIR_SIZE 65536		/* entries of a pairing table (the kernel's max is 131072) */
#define RENEW_MIN 2048		/* a new set starts after this many pairs at the soonest ... */
#define RENEW_MAX (PAIR_SIZE / 2)	/* ... and at the latest */
#define OVERLAP_S 0.5		/* how long after T the old set still pairs */
#define SETTLE_S 0.25		/* T comes at least this long after a set's triggers are made */
#define BUCKETS 2048		/* entries of a bucket table */
#define CMD_LEN 1024
#define LAT_UNKNOWN (~0ULL)	/* the slot of pairs whose latency came out negative */
#define NTIER 5			/* unit_ns: bucket histograms, each 1024 times wider than the last */
#define LAT_MAX "9223372036854775808"	/* 2^63 ns: above it, an end stamped before its start */

/* counts of one (group, latency bucket) in one set */
struct cnt {
	unsigned int group;
	unsigned long long lat;
	unsigned long long all;		/* its histogram(s) of every pair, last read */
	unsigned long long late;	/* those that started at T or later, last read */
	unsigned long long handed;	/* handed on: all - late, never more */
	unsigned long long sum_all, sum_late, sum_handed;	/* the same for their sums (unit_ns) */
	int used;
};

struct gen {
	char synth[80];
	char start_cmd[CMD_LEN], end_cmd[CMD_LEN];
	char hist[2 * NTIER][CMD_LEN];	/* its bucket histograms now in the kernel */
	int nhist;
	int paired;		/* its pairing triggers exist */
	int defined;		/* its synthetic event exists */
	struct cnt *c;		/* by (group, lat), open addressing */
	size_t n, cap;
	unsigned long long pairs;	/* pairs counted since its pairing triggers were made */
};

static struct {
	struct klat_spec sp;
	char count_cmd[CMD_LEN];
	struct gen g[2];
	struct session ps[2];	/* set i's instance: its pairing triggers and histograms */
	int have_ps;		/* they exist (made once a run, kept by klat_reset) */
	int counting;		/* the count of all ends exists */
	int cur;		/* the set that pairs what starts from now on */
	int old;		/* -1, or the set being retired */
	double t;		/* T, seconds of CLOCK_MONOTONIC */
	double margin;		/* how far ahead T is chosen */
	unsigned long long handed;	/* every count handed on */
	unsigned long long unknown;	/* of those, pairs whose latency is not known */
	double make_s;		/* how long making a set's pairing triggers took */
	double t0;		/* counting starts at T0: the first set counts what starts from it */
	int paused;		/* the first set's histograms are made paused (klat_setup) */
	double peak;		/* pairs per second, the highest of late (decaying) */
	double last_t;		/* when the current set's pairs were last read */
	unsigned long long last_pairs;
} K = { .old = -1, .margin = 0.1 };

/* klat_available - see klat.h */
int klat_available(struct session *s)
{
	/* the hist file comes with CONFIG_HIST_TRIGGERS, for every event */
	return tracefs_file_exists(s->inst, "events/block/block_rq_issue/hist") &&
	       kernel_has(KF_SYNTH) && kernel_has(KF_HIST_BUCKETS);
}

/*
 * slot - the counts of (group, lat) in g, created at 0 if new. read_gen hands
 * the counts on in slot order, the order in which iolatency -K -D first meets
 * the disks and so lists them: that order is this hash's.
 */
static struct cnt *slot(struct gen *g, unsigned int group, unsigned long long lat)
{
	size_t i, mask;

	if (2 * (g->n + 1) > g->cap) {
		struct gen old = *g;

		g->cap = g->cap ? g->cap * 2 : 64;
		g->c = xcalloc(g->cap, sizeof(*g->c));
		g->n = 0;
		for (i = 0; i < old.cap; i++)
			if (old.c[i].used)
				*slot(g, old.c[i].group, old.c[i].lat) = old.c[i];
		free(old.c);
	}
	mask = g->cap - 1;
	for (i = ((lat * 0x9e3779b97f4a7c15ULL) ^ group) & mask; g->c[i].used; i = (i + 1) & mask)
		if (g->c[i].group == group && g->c[i].lat == lat)
			return &g->c[i];
	g->c[i].used = 1;
	g->c[i].group = group;
	g->c[i].lat = lat;
	g->n++;
	return &g->c[i];
}

struct reading {
	struct gen *g;
	int late;		/* take the "late" histograms' entries (else the others) */
	unsigned long long all;
};

/* a "late" histogram lists the latency first: "hist:keys=lat..." */
static int is_late(const char *info)
{
	return !strncmp(info, "hist:keys=lat", 13);
}

static void on_entry(const char *info, const char *keys, unsigned long long hits, void *arg)
{
	struct reading *r = arg;
	unsigned long long group, lat, sum = 0;
	struct cnt *c;

	if (khist_key(keys, K.sp.group, &group) < 0 || khist_key(keys, "lat", &lat) < 0 ||
	    (K.sp.unit_ns && khist_value(keys, "lat", &sum) < 0))
		return;
	/*
	 * an end stamped before the start it was paired with wraps around: no
	 * latency (per-CPU stamps, or a start at the same key made later than
	 * the request that ended); kept apart under LAT_UNKNOWN, never as 0
	 */
	if (lat >= 1ULL << 62)
		lat = LAT_UNKNOWN;
	if (is_late(info) != r->late)
		return;
	c = slot(r->g, (unsigned int)group, lat);
	if (r->late) {
		c->late = hits;
		c->sum_late = sum;
	} else {
		c->all = hits;
		c->sum_all = sum;
		r->all += hits;
	}
}

/*
 * read_gen - read set i's histograms and hand on (fn, or nowhere with NULL)
 * what grew. With "late" histograms (the set being retired) the file is read
 * twice, every "all" count before its "late" one: all - late never runs ahead
 * of the truth and only grows, and it is exact once the set stops pairing.
 */
static void read_gen(int i, klat_fn fn, void *ctx)
{
	struct gen *g = &K.g[i];
	struct reading r = { g, 0, 0 }, rl = { g, 1, 0 };
	long long dropped;
	size_t j;

	if (!g->nhist)
		return;
	dropped = khist_read(&K.ps[i], "synthetic", g->synth, on_entry, &r);
	if (dropped < 0 ||
	    (i == K.old && khist_read(&K.ps[i], "synthetic", g->synth, on_entry, &rl) < 0))
		return;
	g->pairs = r.all + dropped;
	for (j = 0; j < g->cap; j++) {
		struct cnt *c = &g->c[j];
		unsigned long long net = c->all > c->late ? c->all - c->late : 0, n;
		unsigned long long snet = c->sum_all > c->sum_late ? c->sum_all - c->sum_late : 0;
		unsigned long long sum;

		/* a sum read with its count may lag it: handed on when it grows */
		if (!c->used || (net <= c->handed && snet <= c->sum_handed))
			continue;
		n = net > c->handed ? net - c->handed : 0;
		sum = snet > c->sum_handed ? snet - c->sum_handed : 0;
		if (c->lat == LAT_UNKNOWN)
			K.unknown += n;
		else if (fn)
			fn(c->group, K.sp.unit_ns ? c->lat / K.sp.unit_ns :
				     K.sp.usecs ? c->lat : c->lat / 1000, n, sum, ctx);
		K.handed += n;
		if (net > c->handed)
			c->handed = net;
		if (snet > c->sum_handed)
			c->sum_handed = snet;
	}
}

/* t_stamp - T as the start times are stamped: us, or ns with unit_ns */
static unsigned long long t_stamp(void)
{
	return (unsigned long long)(K.t * (K.sp.unit_ns ? 1e9 : 1e6));
}

/*
 * bucket_add - a bucket histogram on set i's synthetic event, of starts at T
 * or later if from_t. A "late" one (what the old set counts that the new set
 * counts too, to take off) lists the latency first, which tells it apart.
 */
static int bucket_add(int i, int late, int from_t, const char *extra)
{
	struct gen *g = &K.g[i];
	const char *gr = K.sp.group;
	char keys[128], filt[256] = "";
	const char *lat = K.sp.usecs ? (extra[0] == '<' ? "lat" : "lat.buckets=1024") :
				       "lat.buckets=1000";

	if (late)
		snprintf(keys, sizeof(keys), "%s,%s", lat, gr);
	else
		snprintf(keys, sizeof(keys), "%s,%s", gr, lat);
	if (extra[0])
		snprintf(filt, sizeof(filt), "lat %s", extra);
	if (from_t)
		snprintf(filt + strlen(filt), sizeof(filt) - strlen(filt), "%sst >= %llu",
			 filt[0] ? " && " : "", t_stamp());
	snprintf(g->hist[g->nhist], CMD_LEN, "hist:keys=%s:size=%d%s%s%s", keys, BUCKETS,
		 K.paused ? ":pause" : "", filt[0] ? " if " : "", filt);
	if (khist_add(&K.ps[i], "synthetic", g->synth, g->hist[g->nhist]) < 0)
		return -1;
	g->nhist++;
	return 0;
}

/*
 * tier_add - unit_ns: set i's bucket histogram of tier j, as bucket_add. Tier
 * 0 counts each unit below 1024 units; tier j > 0, from 1024^j units up to
 * 1024 times that, counts buckets 1024^j units wide, so every power-of-two
 * boundary above 1024^j falls on one. Each sums its latencies too.
 */
static int tier_add(int i, int late, int from_t, int j)
{
	struct gen *g = &K.g[i];
	unsigned long long u = K.sp.unit_ns, lo = j ? u << (10 * j) : 0, w = j ? lo : u;
	char lat[48], keys[128], filt[256];
	const char *gr = K.sp.group;

	if (w == 1)
		snprintf(lat, sizeof(lat), "lat");
	else
		snprintf(lat, sizeof(lat), "lat.buckets=%llu", w);
	if (late)
		snprintf(keys, sizeof(keys), "%s,%s", lat, gr);
	else
		snprintf(keys, sizeof(keys), "%s,%s", gr, lat);
	if (j == 0)
		snprintf(filt, sizeof(filt), "lat < %llu", u << 10);
	else if (j < NTIER - 1)
		snprintf(filt, sizeof(filt), "lat >= %llu && lat < %llu", lo, lo << 10);
	else	/* what is above 2^63 ns is no latency: an end stamped before its start */
		snprintf(filt, sizeof(filt), "lat >= %llu && lat < " LAT_MAX, lo);
	if (from_t)
		snprintf(filt + strlen(filt), sizeof(filt) - strlen(filt), " && st >= %llu",
			 t_stamp());
	snprintf(g->hist[g->nhist], CMD_LEN, "hist:keys=%s:vals=hitcount,lat:size=%d%s if %s", keys,
		 BUCKETS, K.paused ? ":pause" : "", filt);
	if (khist_add(&K.ps[i], "synthetic", g->synth, g->hist[g->nhist]) < 0)
		return -1;
	g->nhist++;
	return 0;
}

/* nbase - the bucket histograms of a set that counts everything it pairs */
static int nbase(void)
{
	return K.sp.unit_ns ? NTIER : K.sp.usecs ? 2 : 1;
}

/* buckets_add - set i's bucket histograms (see bucket_add) */
static int buckets_add(int i, int late, int from_t)
{
	int j;

	if (K.sp.unit_ns) {
		for (j = 0; j < NTIER; j++)
			if (tier_add(i, late, from_t, j) < 0)
				return -1;
		return 0;
	}
	if (!K.sp.usecs)
		/* whole milliseconds: every power-of-two boundary is a bucket boundary */
		return bucket_add(i, late, from_t, "");
	/* microseconds: exact below 1024, 1024 wide above (2^k boundaries fall on them) */
	if (bucket_add(i, late, from_t, "< 1024") < 0)
		return -1;
	return bucket_add(i, late, from_t, ">= 1024");
}

/* buckets_remove - remove set i's histograms and forget its counts */
static void buckets_remove(int i)
{
	struct gen *g = &K.g[i];

	while (g->nhist > 0)
		if (khist_remove(&K.ps[i], "synthetic", g->synth, g->hist[--g->nhist]) < 0)
			msg_warn("could not remove a latency histogram:");
	free(g->c);
	g->c = NULL;
	g->n = g->cap = 0;
	g->pairs = 0;
}

/* pair_on - make set i's pairing triggers (start first: the end one uses its variables) */
static int pair_on(int i)
{
	struct gen *g = &K.g[i];
	double t0 = clock_s();

	if (khist_add(&K.ps[i], K.sp.sys, K.sp.start, g->start_cmd) < 0)
		return -1;
	if (khist_add(&K.ps[i], K.sp.sys, K.sp.end, g->end_cmd) < 0) {
		khist_remove(&K.ps[i], K.sp.sys, K.sp.start, g->start_cmd);
		return -1;
	}
	g->paired = 1;
	K.make_s = clock_s() - t0;
	return 0;
}

/* pair_off - remove set i's pairing triggers (end first) */
static void pair_off(int i)
{
	struct gen *g = &K.g[i];

	if (khist_remove(&K.ps[i], K.sp.sys, K.sp.end, g->end_cmd) < 0 ||
	    khist_remove(&K.ps[i], K.sp.sys, K.sp.start, g->start_cmd) < 0)
		msg_warn("could not remove a pairing trigger:");
	g->paired = 0;
}

/* build - set i's names and pairing commands; the key order differs per set, so the kernel tells them apart */
static void build(struct session *s, int i)
{
	const struct klat_spec *sp = &K.sp;
	char keys[128], a[64], synth[80];
	const char *f = sp->filter[0] ? " if " : "";
	struct gen *g = &K.g[i];

	snprintf(a, sizeof(a), "%.*s", (int)strcspn(sp->keys, ","), sp->keys);
	if (i == 0 || !strchr(sp->keys, ','))	/* one key: the same in both sets' instances */
		snprintf(keys, sizeof(keys), "%s", sp->keys);
	else
		snprintf(keys, sizeof(keys), "%s,%s", strchr(sp->keys, ',') + 1, a);
	snprintf(synth, sizeof(synth), "%.64s_lat%d", s->group, i);
	memcpy(g->synth, synth, sizeof(synth));
	if (sp->unit_ns) {
		/*
		 * nanoseconds: a trigger with one .usecs stamp has all in us. A
		 * probe's own field is no action parameter (the kernel refuses
		 * it): the group goes through a variable.
		 */
		snprintf(g->start_cmd, CMD_LEN,
			 "hist:keys=%s:ts%d=common_timestamp:st%d=common_timestamp:size=%d:clock=mono%s%s",
			 keys, i, i, PAIR_SIZE, f, sp->filter);
		snprintf(g->end_cmd, CMD_LEN,
			 "hist:keys=%s:g%d=%s:lat%d=common_timestamp-$ts%d:size=%d:clock=mono:onmatch(%s.%s).trace(%s,$lat%d,$g%d,$st%d)%s%s",
			 keys, i, sp->group, i, i, PAIR_SIZE, sp->sys, sp->start, synth, i, i, i, f,
			 sp->filter);
		return;
	}
	/* clock=mono: the start times compare with CLOCK_MONOTONIC here */
	snprintf(g->start_cmd, CMD_LEN,
		 "hist:keys=%s:ts%d=common_timestamp.usecs:st%d=common_timestamp.usecs:size=%d:clock=mono%s%s",
		 keys, i, i, PAIR_SIZE, f, sp->filter);
	snprintf(g->end_cmd, CMD_LEN,
		 "hist:keys=%s:lat%d=common_timestamp.usecs-$ts%d:size=%d:clock=mono:onmatch(%s.%s).trace(%s,$lat%d,%s,$st%d)%s%s",
		 keys, i, i, PAIR_SIZE, sp->sys, sp->start, synth, i, sp->group, i, f, sp->filter);
}

/* klat_setup - see klat.h */
int klat_setup(struct session *s, const struct klat_spec *sp)
{
	char fields[128], name[8];
	const char *cf;
	int i, rc;

	K.sp = *sp;
	if (strlen(sp->keys) > 100 || strlen(sp->filter) > 512 ||
	    (sp->count_filter && strlen(sp->count_filter) > 512))
		return -1;
	snprintf(fields, sizeof(fields), "u64 lat; u32 %s; u64 st", sp->group);
	/* the instances first: they go at exit after the triggers in them */
	for (i = 0; i < 2 && !K.have_ps; i++) {
		snprintf(name, sizeof(name), "k%d", i);
		if (session_companion(s, name, &K.ps[i]) < 0)
			return -1;
	}
	K.have_ps = 1;
	for (i = 0; i < 2; i++) {
		build(s, i);
		if (khist_synth(K.g[i].synth, fields) < 0)
			return -1;
		K.g[i].defined = 1;
	}
	/*
	 * every end event, paired or not, counted from klat_start on: made
	 * paused, as a trigger counts whether tracing is on or not (the run's
	 * own setup would count). The first set pairs at once; its histograms,
	 * made paused too, count only what starts at T0 or later, SETTLE_S
	 * after its triggers are made (see the top); klat_start starts the
	 * count, then them, at T0.
	 */
	cf = sp->count_filter ? sp->count_filter : sp->filter;
	snprintf(K.count_cmd, CMD_LEN, "hist:keys=%s:size=1024:clock=mono:pause%s%s", sp->group,
		 cf[0] ? " if " : "", cf);
	if (khist_add(s, sp->sys, sp->end, K.count_cmd) < 0)
		return -1;
	K.counting = 1;
	if (pair_on(0) < 0)
		return -1;
	K.t = K.t0 = clock_s() + SETTLE_S;
	K.paused = 1;
	rc = buckets_add(0, 0, 1);
	K.paused = 0;
	K.cur = 0;
	return rc;
}

/* klat_attach - see klat.h */
void klat_attach(struct session *ps, const struct klat_spec *sp, const char *synth)
{
	K.sp = *sp;
	K.ps[0] = *ps;
	snprintf(K.g[0].synth, sizeof(K.g[0].synth), "%s", synth);
	K.g[0].nhist = 1;
	K.g[0].paired = 1;
	K.cur = 0;
}

/* klat_unknown - see klat.h */
unsigned long long klat_unknown(void)
{
	return K.unknown;
}

/* klat_wait - sleep until time t (CLOCK_MONOTONIC seconds), or a stop */
static void klat_wait(double t)
{
	struct deadline d;

	deadline_init(&d, clock_s(), t - clock_s(), 0);
	while (!sig_stop && t > clock_s())
		deadline_nap(&d, SETTLE_S);
}

/* klat_start - see klat.h */
void klat_start(struct session *s)
{
	int i;

	struct gen *g = &K.g[0];
	int j;

	/*
	 * from T0 (its stamps are right by then), the count of every end,
	 * then the first set's histograms: an end a set counts is one the
	 * count saw. Both were made paused (a trigger counts whether tracing
	 * is on or not).
	 */
	klat_wait(K.t0);
	if (khist_pause(s, K.sp.sys, K.sp.end, K.count_cmd, 0) < 0)
		msg_die(EXIT_ERR, "cannot start the count of %s:", K.sp.end);
	for (j = 0; j < g->nhist; j++)
		if (khist_pause(&K.ps[0], "synthetic", g->synth, g->hist[j], 0) < 0)
			msg_die(EXIT_ERR, "cannot start a latency histogram:");
	session_start(s);
	for (i = 0; i < 2; i++)
		if (tracefs_instance_file_write(K.ps[i].inst, "tracing_on", "1") < 0)
			msg_die(EXIT_ERR, "cannot turn tracing on in instance %s:", K.ps[i].name);
}

/* klat_stop - see klat.h */
void klat_stop(struct session *s)
{
	int i;

	tracefs_instance_file_write(s->inst, "tracing_on", "0");
	for (i = 0; i < 2; i++)
		tracefs_instance_file_write(K.ps[i].inst, "tracing_on", "0");
}

/* renew - start the other set beside the current one, with T ahead of now */
static void renew(void)
{
	int n = !K.cur;
	double t0;

	/* the pairing triggers first: slow to make (their tables), so made once */
	if (!K.g[n].paired && pair_on(n) < 0)
		return;
	t0 = clock_s();
	K.t = t0 + K.margin + SETTLE_S;
	/*
	 * the old set's "late" histogram first: a start stamped late by the
	 * upset clock (see the top) can pass for one at T or after while the
	 * histograms are being made; its pair then goes uncounted (and is
	 * reported at exit), where the other order would count it twice
	 */
	if (buckets_add(K.cur, 1, 1) == 0 && buckets_add(n, 0, 1) == 0 && clock_s() < K.t) {
		K.old = K.cur;
		K.cur = n;
		return;
	}
	/* not all in place before T: take the histograms back, try again next poll with more time */
	K.margin = 2 * (clock_s() - t0) + 0.01;
	while (K.g[K.cur].nhist > nbase())
		khist_remove(&K.ps[K.cur], "synthetic", K.g[K.cur].synth,
			     K.g[K.cur].hist[--K.g[K.cur].nhist]);
	buckets_remove(n);
	K.t = 0;
}

/*
 * renew_due - has the current set paired enough that a new one must start?
 * Each renewal costs a new table and upsets a few latencies (see the top of
 * this file), so as late as leaves room: the old table takes
 * starts until OVERLAP_S after T, and making the new set takes about as long
 * as it did before. Twice that at the highest recent pair rate must fit.
 */
static int renew_due(void)
{
	unsigned long long pairs = K.g[K.cur].pairs, room;
	double now = clock_s(), dt = now - K.last_t;

	if (K.last_t > 0 && dt > 0 && pairs >= K.last_pairs) {
		double rate = (pairs - K.last_pairs) / dt;

		K.peak -= K.peak * (dt < 10 ? dt / 10 : 1);	/* forgets in some 10 s */
		if (rate > K.peak)
			K.peak = rate;
	}
	K.last_t = now;
	K.last_pairs = pairs;
	if (pairs < RENEW_MIN)
		return 0;
	room = (unsigned long long)(2 * K.peak * (2 * K.make_s + K.margin + SETTLE_S + OVERLAP_S + 1.0));
	return pairs >= RENEW_MAX || pairs + room >= PAIR_SIZE;
}

/* klat_poll - see klat.h */
void klat_poll(klat_fn fn, void *ctx)
{
	if (K.old >= 0) {
		read_gen(K.old, fn, ctx);
		/* not before: what starts before T is paired by the old set alone */
		if (clock_s() >= K.t + OVERLAP_S) {
			pair_off(K.old);
			read_gen(K.old, fn, ctx);	/* final: nothing pairs there now */
			buckets_remove(K.old);
			K.old = -1;
		}
	}
	read_gen(K.cur, fn, ctx);
	if (renew_due() && K.old < 0) {
		renew();
		if (K.old >= 0)
			K.last_pairs = 0;	/* the new set counts from 0 */
	}
}

static void on_count(const char *info, const char *keys, unsigned long long hits, void *arg)
{
	unsigned long long *sum = arg;
	size_t n = strlen(K.sp.group);

	/* only the histogram of all end events: "hist:keys=GROUP:..." */
	if (!strncmp(info, "hist:keys=", 10) && !strncmp(info + 10, K.sp.group, n) &&
	    info[10 + n] == ':')
		*sum += hits;
	(void)keys;
}

/* klat_unpaired - see klat.h */
unsigned long long klat_unpaired(struct session *s)
{
	unsigned long long ends = 0;

	/* ends first: a pair counted after this read cannot be taken for a loss */
	if (khist_read(s, K.sp.sys, K.sp.end, on_count, &ends) < 0)
		return 0;
	/* what is read now counts as handed on but goes nowhere (after the last summary) */
	if (K.old >= 0)
		read_gen(K.old, NULL, NULL);
	read_gen(K.cur, NULL, NULL);
	return ends > K.handed ? ends - K.handed : 0;
}

/* klat_reset - see klat.h */
void klat_reset(struct session *s)
{
	struct session ps[2];
	int i, have = K.have_ps;

	klat_stop(s);
	for (i = 0; i < 2; i++) {
		buckets_remove(i);
		if (K.g[i].paired)
			pair_off(i);
	}
	if (K.counting && khist_remove(s, K.sp.sys, K.sp.end, K.count_cmd) < 0)
		msg_warn("could not remove the count of %s:", K.sp.end);
	for (i = 0; i < 2; i++)
		if (K.g[i].defined && khist_synth_remove(K.g[i].synth) < 0)
			msg_warn("could not delete the synthetic event %s:", K.g[i].synth);
	memcpy(ps, K.ps, sizeof(ps));
	memset(&K, 0, sizeof(K));
	memcpy(K.ps, ps, sizeof(ps));
	K.have_ps = have;
	K.old = -1;
	K.margin = 0.1;
}

/* what a proof's known calls were timed at */
struct proof_tally {
	const struct klat_proof *p;
	unsigned long long n, sum;	/* pairs, and their latencies added up (ns) */
	unsigned long long high;	/* pairs in a bucket from hi_ns up */
};

static void on_proof_pair(unsigned int group, unsigned long long lat, unsigned long long n,
		     unsigned long long sum, void *ctx)
{
	struct proof_tally *t = ctx;

	(void)group;
	t->n += n;
	t->sum += sum;
	if (lat >= t->p->hi_ns)
		t->high += n;
}

/* klat_prove - see klat.h */
const char *klat_prove(struct session *s, const struct klat_spec *sp, const struct klat_proof *p)
{
	static char why[256];
	struct klat_spec q = *sp;
	struct proof_tally t = { p, 0, 0, 0 };
	unsigned long long unpaired, lo = p->n * p->lo_ns, hi = p->n * p->hi_ns;
	const char *no = NULL;

	q.unit_ns = 1;		/* each bucket's low end in ns, and the exact sum */
	if (klat_setup(s, &q) < 0)
		return "";	/* what was made stays for the exit: error_log says why */
	klat_start(s);
	if (sig_stop || p->calls(p->ctx) < 0) {
		no = "its known calls were cut short";
		goto out;
	}
	klat_stop(s);
	klat_poll(on_proof_pair, &t);
	unpaired = klat_unpaired(s);
	if (t.n != p->n || t.high || K.unknown || unpaired || t.sum < lo || t.sum >= hi) {
		snprintf(why, sizeof(why),
			 "it timed %llu of %llu known calls, at %llu ns in all (%llu to %llu made)%s%s",
			 t.n, p->n, t.sum, lo, hi, unpaired ? ", with ends not paired" : "",
			 K.unknown ? ", with ends stamped before their starts" : "");
		no = why;
	}
out:
	klat_reset(s);
	return no;
}

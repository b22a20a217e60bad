/* SPDX-License-Identifier: GPL-2.0-only */
/* klat.h - latency from a start event to an end event, paired and counted in the kernel */
#ifndef FTT_KLAT_H
#define FTT_KLAT_H

struct session;

struct klat_spec {
	const char *sys;	/* both events' system, e.g. "block" */
	const char *start;	/* e.g. "block_rq_issue" */
	const char *end;	/* e.g. "block_rq_complete" */
	const char *keys;	/* fields that pair them, two, e.g. "dev,sector" */
	const char *group;	/* a u32 field of the end event to count by, e.g. "dev" */
	const char *filter;	/* filter on both events' pairing ("" for none), already checked */
	const char *count_filter;	/* filter on the count of all end events (NULL: filter) */
	int usecs;		/* latencies in microseconds (else milliseconds) */
	/*
	 * else, when not 0: timed in nanoseconds and handed on in units of
	 * unit_ns (1, 1000, 1000000): exact below 1024 units, above in buckets
	 * every power-of-two boundary falls on, each with the exact sum of its
	 * latencies (in ns). GROUP may then be a field of a probe: it goes to
	 * the synthetic event through a variable.
	 */
	unsigned long long unit_ns;
};

/*
 * a latency value (whole ms or us, as the spec asks; with unit_ns, the low end
 * of its bucket in those units) seen n more times in group; sum: their exact
 * latencies added up, in ns (unit_ns specs; else 0)
 */
typedef void (*klat_fn)(unsigned int group, unsigned long long lat, unsigned long long n,
			unsigned long long sum, void *ctx);

/* klat_available - the kernel can do this (hist triggers, synthetic events, .buckets: 5.17+) */
int klat_available(struct session *s);
/* klat_stop - pairing and counting stop now (tracing off in s's instance and the sets'):
 * a klat_poll after it reads the final counts */
void klat_stop(struct session *s);
/*
 * klat_setup - create the instances, synthetic events and triggers (pairing
 * starts at klat_start).
 * -1 if the kernel refused any part (what was made is left for exit to remove).
 */
int klat_setup(struct session *s, const struct klat_spec *sp);
/*
 * klat_attach - read set 0's bucket histograms on synthetic event synth in
 * ps's instance, as made before (klat_poll then reads them); the others of
 * klat_setup's parts are not made
 */
void klat_attach(struct session *ps, const struct klat_spec *sp, const char *synth);
/*
 * klat_start - counting starts at T0, SETTLE_S after klat_setup made the
 * first set's triggers (until then the kernel may not fire them, or stamp
 * their events wrong): waits for it, then starts the count of all ends (in
 * s's instance, where tracing goes on too), then the first set's histograms,
 * so that every pair counted has an end the count saw. An end of a start
 * before T0 is counted as unpaired (klat_unpaired).
 */
void klat_start(struct session *s);
/*
 * klat_poll - hand fn the latencies counted since the last poll, and renew the
 * kernel's pairing table when it fills; call it often (every 50 ms) at high rates
 */
void klat_poll(klat_fn fn, void *ctx);
/*
 * klat_unknown - pairs the kernel made whose latency is not known (the end
 * stamped before the start): not handed on, nor counted as unpaired
 */
unsigned long long klat_unknown(void);
/*
 * klat_unpaired - after the last poll: end events that were not paired with a
 * start (in flight when counting began, or lost to a full table); at least 0
 */
unsigned long long klat_unpaired(struct session *s);

/*
 * klat_reset - undo klat_setup (and the renewals since): its triggers and
 * synthetic events removed now, its counts forgotten; its instances stay, for
 * the next klat_setup
 */
void klat_reset(struct session *s);

/* known calls that prove the pairing and timing (klat_prove) */
struct klat_proof {
	int (*calls)(void *ctx);	/* make them; -1 if one was cut short */
	void *ctx;
	unsigned long long n;		/* how many */
	unsigned long long lo_ns, hi_ns;	/* each takes at least lo_ns, less than hi_ns */
};
/*
 * klat_prove - the kernel pairs and times p's known calls right: sp (its
 * filter: the caller's calls alone; its start and end events made by the
 * caller on the known calls' function) set up, started, the calls made, and
 * exactly p->n pairs counted, each below hi_ns, their exact sum from n * lo_ns
 * to n * hi_ns, no end unpaired, none stamped before its start. Then
 * klat_reset. NULL if so; "" if the kernel refused a part (its reason in
 * error_log; what was made stays for the exit); else why not, for stderr.
 */
const char *klat_prove(struct session *s, const struct klat_spec *sp, const struct klat_proof *p);

#endif

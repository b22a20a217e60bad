/* SPDX-License-Identifier: GPL-2.0-only */
/* rp_order - the stream and the time-order queue over CPUs read unevenly:
 * every record handed on, once, in time order */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "reorder.h"
#include "replay.h"

static unsigned long long last_ts, n, late, dup_or_lost;
static unsigned char *seen;

#define NREC 20000	/* per CPU: more than one drain hands on */

/* take - the handler: count records and those that came after a newer one */
static void take(const struct stream_rec *r)
{
	long id = (long)decode_s64(r->ev, r->rec, "child_pid");

	if (r->rec->ts < last_ts)
		late++;		/* handed on after a newer one */
	else
		last_ts = r->rec->ts;
	n++;
	if (id < 0 || id >= 2 * NREC || seen[id]++)
		dup_or_lost++;
}

/* report - what was handed on */
static void report(void)
{
	long i;

	for (i = 0; i < 2 * NREC; i++)
		dup_or_lost += !seen[i];
	printf("handed on %llu, out of time order %llu, missing or twice %llu\n", n, late,
	       dup_or_lost);
}

/*
 * empty_cpu_backlog - CPU 1 is empty when the first drain starts, then holds
 * more records than a drain hands on, all older than what CPU 0's first drain
 * reached: none of CPU 0's may be handed on before them
 */
static void empty_cpu_backlog(void)
{
	struct tep_event *fork = rp_event("sched:sched_process_fork");
	char f[64];
	long i;

	seen = calloc(2 * NREC, 1);
	reorder_on(fork, take, NULL);
	for (i = 0; i < NREC; i++) {
		snprintf(f, sizeof(f), "child_pid=%ld", i);
		rp_rec(0, 1000000 + i * 10, "sched:sched_process_fork", f);
	}
	rp_page(1, 1, 0);
	for (i = 0; i < NREC; i++) {
		snprintf(f, sizeof(f), "child_pid=%ld", NREC + i);
		rp_rec(1, 1000005 + i * 5, "sched:sched_process_fork", f);
	}
	rp_run();
	report();
}

/* interleaved - two CPUs with records interleaved in time, read in one drain each */
static void interleaved(void)
{
	struct tep_event *fork = rp_event("sched:sched_process_fork");
	char f[64];
	long i;

	seen = calloc(2 * NREC, 1);
	reorder_on(fork, take, NULL);
	for (i = 0; i < 2 * NREC; i++) {
		snprintf(f, sizeof(f), "child_pid=%ld", i);
		if (i == NREC / 2)
			rp_page(i & 1, 1, 0);
		rp_rec(i & 1, 5000 + i * 3000, "sched:sched_process_fork", f);
	}
	rp_run();
	report();
}

/* show - the handler: each record's time and id, as handed on */
static void show(const struct stream_rec *r)
{
	printf("ts=%llu id=%lld cpu=%d\n", r->rec->ts, decode_s64(r->ev, r->rec, "child_pid"),
	       r->rec->cpu);
}

/* long_pauses - seconds between records (time-extend entries in the pages) */
static void long_pauses(void)
{
	reorder_on(rp_event("sched:sched_process_fork"), show, NULL);
	rp_rec(0, 1000, "sched:sched_process_fork", "child_pid=1");
	rp_rec(1, 1500000000ULL, "sched:sched_process_fork", "child_pid=2");
	rp_rec(0, 3000000007ULL, "sched:sched_process_fork", "child_pid=3");
	rp_page(1, 1, 0);
	rp_rec(1, 2000000000ULL, "sched:sched_process_fork", "child_pid=4");
	rp_run();
}

int main(void)
{
	const char *want = "handed on 40000, out of time order 0, missing or twice 0";
	char *out;

	out = rp_case(interleaved);
	rp_check("order/interleaved_two_cpus", strstr(out, want) != NULL, out);
	free(out);
	out = rp_case(empty_cpu_backlog);
	rp_check("order/empty_cpu_then_backlog", strstr(out, want) != NULL, out);
	free(out);
	out = rp_case(long_pauses);
	rp_check("order/long_pauses", strstr(out, "ts=1000 id=1 cpu=0\nts=1500000000 id=2 cpu=1\n"
		 "ts=2000000000 id=4 cpu=1\nts=3000000007 id=3 cpu=0\n") != NULL, out);
	free(out);
	return rp_done("replay order");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* test_reorder - the time-order queue: what is handed on after which drain, in what order */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reorder.h"

static int failed;
static unsigned long long got[64];
static int ngot, aux_seen;

/* check - print PASS/FAIL name for one condition */
static void check(const char *name, int ok)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	if (!ok)
		failed = 1;
}

/* take - the handler: note the record's timestamp (and its payload's) */
static void take(const struct stream_rec *r)
{
	unsigned long long payload;

	memcpy(&payload, r->rec->data, sizeof(payload));
	if (ngot < 64)
		got[ngot++] = payload;
	if (r->aux && !strcmp(r->aux, "aux"))
		aux_seen++;
}

static char *kept;

/* keep - a handler that takes its aux: reorder must not free it */
static void keep(const struct stream_rec *r)
{
	kept = r->aux;
	reorder_keep_aux();
}

/* push - queue a record stamped ts whose payload is id */
static void push(unsigned long long ts, unsigned long long id, int with_aux)
{
	unsigned long long data = id;
	struct tep_record rec = { .ts = ts, .size = sizeof(data), .data = &data, .cpu = 0 };

	reorder_push(NULL, &rec, take, NULL, with_aux ? strdup("aux") : NULL);
	data = 0;	/* the queue holds a copy: the drain's page is reused */
}

/* seq - the payloads handed on so far, "1 2 3" */
static const char *seq(void)
{
	static char buf[512];
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < ngot; i++)
		at += snprintf(buf + at, sizeof(buf) - at, "%s%llu", i ? " " : "", got[i]);
	return buf;
}

/* a model of the queue: what is pending, and what each drain must hand on */
struct pend {
	unsigned long long ts, seq, id;
};

static struct pend *model, *handed;
static size_t nmodel, nhanded;
static int stress_bad;

/* take_big - the stress handler: check the payload, note what came */
static void take_big(const struct stream_rec *r)
{
	struct tep_record *rec = r->rec;
	unsigned long long v[8];
	int i;

	memcpy(v, rec->data, sizeof(v));
	for (i = 1; i < 8; i++)
		if (v[i] != v[0] * 8 + i)
			stress_bad = 1;
	if (rec->ts != v[0] >> 20 || rec->size != sizeof(v))
		stress_bad = 1;
	handed[nhanded].ts = rec->ts;
	handed[nhanded++].id = v[0];
}

static int cmp_pend(const void *a, const void *b)
{
	const struct pend *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * stress - 300000 records (far more than one chunk of copies) in drains of
 * random sizes, each drain in time order but with late records among them and
 * equal timestamps; each drain must hand on exactly the model's records up to
 * the newest of the drain before, in (time, arrival) order, payloads intact
 */
static int stress(void)
{
	unsigned long long rnd = 12345, now = 1000, newest = 0, horizon = 0, s = 0;
	size_t total = 300000, pushed = 0, i, n;
	int last;

	model = calloc(total, sizeof(*model));
	handed = calloc(total, sizeof(*handed));
	while (pushed < total || nmodel) {
		n = pushed < total ? (rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL) >> 54 : 0;
		for (i = 0; i < n && pushed < total; i++, pushed++) {
			unsigned long long v[8], ts, r;
			struct tep_record rec = { .size = sizeof(v), .data = v };
			int k;

			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			r = rnd >> 33;
			/* mostly forward, some equal, some late (older than the drain before) */
			if (r % 10 == 0 && now > 400)
				ts = now - 1 - r % 300;
			else if (r % 7 == 0)
				ts = now;
			else
				ts = now += 1 + r % 3;
			v[0] = (ts << 20) | pushed;
			for (k = 1; k < 8; k++)
				v[k] = v[0] * 8 + k;
			rec.ts = ts;
			reorder_push(NULL, &rec, take_big, NULL, NULL);
			model[nmodel].ts = ts;
			model[nmodel].seq = s++;
			model[nmodel++].id = v[0];
			if (ts > newest)
				newest = ts;
		}
		last = pushed == total;
		nhanded = 0;
		reorder_drained(last);
		/* the model: everything up to the horizon, in order */
		qsort(model, nmodel, sizeof(*model), cmp_pend);
		for (i = 0; i < nmodel && (last || model[i].ts <= horizon); i++)
			if (i >= nhanded || handed[i].id != model[i].id)
				return 0;
		if (i != nhanded || stress_bad)
			return 0;
		memmove(model, model + i, (nmodel - i) * sizeof(*model));
		nmodel -= i;
		horizon = newest;
	}
	free(model);
	free(handed);
	return 1;
}

int main(void)
{
	/* first drain: nothing is handed on yet, a CPU may still hold older records */
	push(10, 10, 0);
	push(20, 20, 1);
	push(30, 30, 0);
	reorder_drained(0);
	check("first_drain_holds_all", ngot == 0);

	/* second drain: a CPU found empty in the first now shows 15 and 25 */
	push(25, 25, 0);
	push(15, 15, 0);
	push(40, 40, 0);
	reorder_drained(0);
	check("second_drain_hands_on_up_to_first_newest", !strcmp(seq(), "10 15 20 25 30"));
	check("payload_copied_not_referenced", got[0] == 10);
	check("aux_given_to_handler", aux_seen == 1);

	/* a late record older than what was handed on is still handed on, not lost */
	push(35, 35, 0);
	reorder_drained(0);
	check("third_drain_up_to_second_newest", !strcmp(seq(), "10 15 20 25 30 35 40"));

	/* equal timestamps: the order they came in */
	ngot = 0;
	push(50, 1, 0);
	push(50, 2, 0);
	push(50, 3, 0);
	reorder_drained(0);
	check("held_until_a_later_drain", ngot == 0);
	reorder_drained(1);
	check("last_drain_hands_on_everything", ngot == 3);
	check("equal_timestamps_keep_arrival_order", !strcmp(seq(), "1 2 3"));

	/* a handler that keeps its aux gets it to keep; the next one's is freed again */
	{
		unsigned long long d = 7;
		struct tep_record rec = { .ts = 60, .size = sizeof(d), .data = &d };

		reorder_push(NULL, &rec, keep, NULL, strdup("kept"));
		ngot = 0;
		push(61, 61, 1);
		reorder_drained(1);
		check("kept_aux_still_valid", kept && !strcmp(kept, "kept"));
		check("next_handler_runs", ngot == 1 && got[0] == 61);
		free(kept);
	}

	/* after the last drain the queue is empty */
	ngot = 0;
	reorder_drained(1);
	check("nothing_left", ngot == 0);

	check("many_drains_against_a_model", stress());

	printf("%s test_reorder\n", failed ? "FAIL" : "PASS");
	return failed;
}

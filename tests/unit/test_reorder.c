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
static void take(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	unsigned long long payload;

	memcpy(&payload, rec->data, sizeof(payload));
	if (ngot < 64)
		got[ngot++] = payload;
	if (aux && !strcmp(aux, "aux"))
		aux_seen++;
}

static char *kept;

/* keep - a handler that takes its aux: reorder must not free it */
static void keep(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	kept = aux;
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

	printf("%s test_reorder\n", failed ? "FAIL" : "PASS");
	return failed;
}

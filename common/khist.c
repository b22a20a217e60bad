/* SPDX-License-Identifier: GPL-2.0-only */
/* khist.c - the kernel's hist triggers and synthetic events, owned by one run
 *
 * A hist trigger aggregates an event in the kernel: a table keyed by fields,
 * read back as text from the event's "hist" file. Variables save a value from
 * one event (a timestamp) for a later event with the same keys, whose trigger
 * can fire a synthetic event (onmatch ... trace) carrying the difference, and
 * that event can have a histogram of its own. Nothing is copied to user space
 * per event.
 *
 * Triggers live in the instance of the session given (the run's own or a
 * companion, session_companion); synthetic events are global, named
 * ftt_TOOL_PID_..., so the reaper (reaper_reap) removes a killed run's ones. The kernel
 * refuses to delete an event another trigger refers to, and to remove an
 * instance that still has triggers: everything added here is undone in
 * reverse at exit, from one undo action.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errlog.h"
#include "khist.h"
#include "msg.h"
#include "probes.h"
#include "session.h"
#include "undo.h"
#include "xalloc.h"

struct owned {
	char *sys, *ev, *cmd;	/* a trigger (sys and ev set) or a synthetic event */
	struct tracefs_instance *inst;	/* a trigger's instance */
};

static struct owned *owned;
static size_t nr_owned, cap_owned;

/* event_file - the instance-relative path of SYS/EV's FILE */
static char *event_file(const char *sys, const char *ev, const char *file)
{
	return xasprintf("events/%s/%s/%s", sys, ev, file);
}

/* remove_one - write the removal of an owned trigger or synthetic event */
static int remove_one(const struct owned *o)
{
	char *line, *path;
	int rc;

	if (asprintf(&line, "!%s\n", o->cmd) < 0)
		return -1;
	if (o->sys) {
		path = event_file(o->sys, o->ev, "trigger");
		rc = tracefs_instance_file_append(o->inst, path, line);
		free(path);
	} else {
		rc = tracefs_instance_file_append(NULL, "synthetic_events", line);
	}
	free(line);
	return rc < 0 ? -1 : 0;
}

static void forget(size_t i)
{
	free(owned[i].sys);
	free(owned[i].ev);
	free(owned[i].cmd);
	memmove(&owned[i], &owned[i + 1], (nr_owned - i - 1) * sizeof(*owned));
	nr_owned--;
}

/* undo_all - undo action: triggers newest first, then the synthetic events */
static void undo_all(void *arg)
{
	size_t i;

	(void)arg;
	for (i = nr_owned; i-- > 0;)
		if (owned[i].sys) {
			if (remove_one(&owned[i]) < 0)
				msg_warn("could not remove the trigger %s of %s:%s:", owned[i].cmd,
					 owned[i].sys, owned[i].ev);
			forget(i);
		}
	while (nr_owned > 0) {
		if (remove_one(&owned[nr_owned - 1]) < 0)
			msg_warn("could not delete the synthetic event %s:", owned[nr_owned - 1].cmd);
		forget(nr_owned - 1);
	}
}

static void keep(struct tracefs_instance *inst, const char *sys, const char *ev, const char *cmd)
{
	if (nr_owned == cap_owned) {
		if (!cap_owned)		/* the first: all of it is undone at exit */
			undo_defer(undo_all, NULL);
		cap_owned = cap_owned ? cap_owned * 2 : 16;
		owned = xreallocarray(owned, cap_owned, sizeof(*owned));
	}
	owned[nr_owned] = (struct owned){ sys ? xstrdup(sys) : NULL, ev ? xstrdup(ev) : NULL,
					  xstrdup(cmd), inst };
	nr_owned++;	/* once complete: an allocation that dies leaves undo_all a whole list */
}

/* khist_synth - see khist.h */
int khist_synth(const char *name, const char *fields)
{
	char *line;
	int rc;

	if (!probe_name_ok(name) || strpbrk(fields, "\n!"))
		return -1;
	line = xasprintf("%s %s\n", name, fields);
	errlog_mark(NULL);	/* a refusal is logged at the top level: the user's log */
	rc = tracefs_instance_file_append(NULL, "synthetic_events", line);
	free(line);
	if (rc >= 0)
		keep(NULL, NULL, NULL, name);
	return rc < 0 ? -1 : 0;
}

/*
 * find - the newest owned trigger CMD of SYS/EV in inst, or with sys NULL the
 * synthetic event CMD; -1 if none
 */
static long find(struct tracefs_instance *inst, const char *sys, const char *ev, const char *cmd)
{
	size_t i;

	for (i = nr_owned; i-- > 0;)
		if (!strcmp(owned[i].cmd, cmd) &&
		    (sys ? owned[i].sys && owned[i].inst == inst && !strcmp(owned[i].sys, sys) &&
			   !strcmp(owned[i].ev, ev)
			 : !owned[i].sys))
			return (long)i;
	return -1;
}

/* undo_now - remove owned entry i now, and forget it once removed; -1 (ENOENT: i < 0) */
static int undo_now(long i)
{
	int rc;

	if (i < 0) {
		errno = ENOENT;
		return -1;
	}
	rc = remove_one(&owned[i]);
	if (rc == 0)
		forget((size_t)i);
	return rc;
}

/* khist_synth_remove - see khist.h */
int khist_synth_remove(const char *name)
{
	return undo_now(find(NULL, NULL, NULL, name));
}

/* khist_add - see khist.h */
int khist_add(struct session *s, const char *sys, const char *ev, const char *cmd)
{
	char *line, *path;
	int rc;

	if (strchr(cmd, '\n'))
		return -1;
	path = event_file(sys, ev, "trigger");
	line = xasprintf("%s\n", cmd);
	tracefs_error_clear(s->inst);	/* the instance's own log: ours */
	errlog_mark(s->inst);
	rc = tracefs_instance_file_append(s->inst, path, line);
	free(line);
	free(path);
	if (rc < 0)
		return -1;
	keep(s->inst, sys, ev, cmd);
	return 0;
}

/* khist_pause - see khist.h */
int khist_pause(struct session *s, const char *sys, const char *ev, const char *cmd, int pause)
{
	const char *filter = strstr(cmd, " if ");
	size_t spec = filter ? (size_t)(filter - cmd) : strlen(cmd);
	char *line, *path, *at;
	int rc;

	if (strchr(cmd, '\n'))
		return -1;
	/* the spec as made, without a ":pause" it was made with: the kernel
	 * finds the trigger by keys, values and filter */
	line = xasprintf("%.*s:%s%s\n", (int)spec, cmd, pause ? "pause" : "cont",
			 filter ? filter : "");
	at = strstr(line, ":pause:");
	if (at && at < line + spec)
		memmove(at, at + 6, strlen(at + 6) + 1);
	path = event_file(sys, ev, "trigger");
	errlog_mark(s->inst);
	rc = tracefs_instance_file_append(s->inst, path, line);
	free(line);
	free(path);
	return rc < 0 ? -1 : 0;
}

/* khist_remove - see khist.h */
int khist_remove(struct session *s, const char *sys, const char *ev, const char *cmd)
{
	return undo_now(find(s->inst, sys, ev, cmd));
}

/* khist_read - see khist.h */
long long khist_read(struct session *s, const char *sys, const char *ev,
		     void (*fn)(const char *info, const char *keys, unsigned long long hits,
				void *ctx),
		     void *ctx)
{
	static const char info_tag[] = "# trigger info: ";
	char *path = event_file(sys, ev, "hist"), *text, *line, *save = NULL, *info = "";
	long long dropped = 0;

	text = tracefs_instance_file_read(s->inst, path, NULL);
	free(path);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *close, *hits;

		if (!strncmp(line, info_tag, sizeof(info_tag) - 1)) {
			info = line + sizeof(info_tag) - 1;
		} else if (line[0] == '{' && (close = strchr(line, '}')) &&
			   (hits = strstr(close, "hitcount:"))) {
			*close = '\0';
			fn(info, line + 1, strtoull(hits + 9, NULL, 10), ctx);
		} else if (!strncmp(line + strspn(line, " "), "Dropped:", 8)) {
			dropped += strtoll(line + strspn(line, " ") + 8, NULL, 10);
		}
	}
	free(text);
	return dropped;
}

/* khist_key - see khist.h */
int khist_key(const char *keys, const char *name, unsigned long long *v)
{
	size_t n = strlen(name);
	const char *p = keys;

	for (;;) {
		p += strspn(p, " ,");
		if (!*p)
			return -1;
		if (!strncmp(p, name, n) && p[n] == ':') {
			p += n + 1;
			p += strspn(p, " ~");
			*v = strtoull(p, NULL, 10);
			return 0;
		}
		p = strchr(p, ',');
		if (!p)
			return -1;
	}
}

/* khist_value - see khist.h */
int khist_value(const char *keys, const char *name, unsigned long long *v)
{
	const char *p = keys + strlen(keys) + 1;	/* past the '}' khist_read cut */
	size_t n = strlen(name);

	/* " hitcount:          3  lat:       4500" */
	for (;;) {
		p += strspn(p, " ");
		if (!*p)
			return -1;
		if (!strncmp(p, name, n) && p[n] == ':') {
			*v = strtoull(p + n + 1, NULL, 10);
			return 0;
		}
		p += strcspn(p, " ");	/* the name, then its number */
		p += strspn(p, " ");
		p += strcspn(p, " ");
	}
}

/* the tally of a proof: hits of the known call's entries, entries not readable */
struct tally {
	const struct khist_proof *p;
	unsigned long long hits;
	int bad;
};

/* on_proof - khist_read's callback for a proof */
static void on_proof(const char *info, const char *keys, unsigned long long hits, void *ctx)
{
	struct tally *t = ctx;
	int m = t->p->match(keys, t->p->ctx);

	(void)info;
	if (m < 0)
		t->bad++;
	else if (m)
		t->hits += hits;
}

/* khist_prove - see khist.h */
const char *khist_prove(struct session *s, const struct khist_proof *p)
{
	static char why[160];
	struct tally t = { p, 0, 0 };
	const char *no = NULL;

	if (khist_add(s, p->sys, p->ev, p->cmd) < 0)
		return "";
	p->calls(KHIST_PROOF_NOISE);
	if (khist_pause(s, p->sys, p->ev, p->cmd, 0) < 0) {
		no = "the kernel refused to continue a paused hist trigger";
		goto out;
	}
	p->calls(KHIST_PROOF_CALLS);
	if (khist_pause(s, p->sys, p->ev, p->cmd, 1) < 0) {
		no = "the kernel refused to pause a hist trigger";
		goto out;
	}
	p->calls(KHIST_PROOF_NOISE);
	if (khist_read(s, p->sys, p->ev, on_proof, &t) < 0) {
		no = "its hist file could not be read";
	} else if (t.bad || t.hits != KHIST_PROOF_CALLS) {
		snprintf(why, sizeof(why), "a hist trigger counted %llu of %d known calls%s",
			 t.hits, KHIST_PROOF_CALLS, t.bad ? ", and entries it could not read" : "");
		no = why;
	}
out:
	/* gone before the run's own is made: a refusal leaves it for the exit */
	khist_remove(s, p->sys, p->ev, p->cmd);
	return no;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* stream.c - the event loop: drain per-CPU binary buffers, dispatch by event
 *
 * Records are read in binary from every CPU's trace_pipe_raw, merged by time and
 * decoded by libtraceevent. The loop drains every poll period whether output is
 * live or buffered: events left unread in the ring buffer can vanish, so nothing
 * waits in the kernel longer than one period. Lost events are counted from the
 * records' missed-event marks and from the kernel's per-CPU stats.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kbuffer.h>
#include <unistd.h>

#include "clock.h"
#include "format.h"
#include "msg.h"
#include "output.h"
#include "procread.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "undo.h"
#include "xalloc.h"

#define MAX_HANDLERS 96	/* the capture's uprobes: a few per C library */
#define POLL_MS 50
#define BUF_KB_CPU (32 * 1024)	/* ring buffer per CPU while streaming ... */
#define BUF_KB_ALL (64 * 1024)	/* ... at most this much over all CPUs ... */
#define BUF_MEM_SHARE 128	/* ... and at most 1/128 of the memory available */
#define DRAIN_RECORDS 16384	/* a drain hands on at most this many records ... */
#define DRAIN_S 0.25		/* ... or reads this long, then the loop's other work runs */
#define STOP_S 0.5		/* after a stop signal, what is left is read this long at most */

struct handler {
	int id;			/* event id, -1 for the catch-all */
	stream_fn fn;
	void *ctx;
};

static struct handler handlers[MAX_HANDLERS];
static int nr_handlers;
static unsigned long long missed;
static unsigned long long newest;	/* the newest timestamp dispatched so far */
/* the hooks: one each (reorder's gap and drain hooks) */
static void (*gap_fn)(const struct tep_record *rec, void *ctx);
static void *gap_ctx;
static void (*drained_fn)(int last);

/* stream_on - see stream.h */
void stream_on(struct tep_event *ev, stream_fn fn, void *ctx)
{
	struct handler h = { ev ? ev->id : -1, fn, ctx };
	int i;

	for (i = 0; i < nr_handlers; i++)
		if (handlers[i].id == h.id && handlers[i].fn == fn && handlers[i].ctx == ctx)
			return;
	if (nr_handlers == MAX_HANDLERS)
		msg_die(EXIT_ERR, "internal: too many event handlers");
	handlers[nr_handlers++] = h;
}

/* stream_handled - see stream.h */
int stream_handled(const struct tep_event *ev)
{
	int i;

	for (i = 0; ev && i < nr_handlers; i++)
		if (handlers[i].id == ev->id)
			return 1;
	return 0;
}

/* stream_follow - see stream.h */
struct tep_event *stream_follow(struct session *s, const char *sys, const char *name,
				const char *filter, stream_fn fn, void *ctx)
{
	struct tep_event *ev = format_event(s, sys, name);

	if (!ev)
		return NULL;
	session_filter(s, sys, name, filter, NULL);
	stream_on(ev, fn, ctx);
	session_enable(s, sys, name);
	return ev;
}

/* dispatch - hand one record to the handler registered for its event */
static void dispatch(struct tep_event *ev, struct tep_record *rec, int cpu)
{
	struct handler *any = NULL;
	int i;

	for (i = 0; i < nr_handlers; i++) {
		if (handlers[i].id == ev->id) {
			handlers[i].fn(&(struct stream_rec){ ev, rec, cpu, NULL, handlers[i].ctx, NULL });
			return;
		}
		if (handlers[i].id == -1)
			any = &handlers[i];
	}
	if (any)
		any->fn(&(struct stream_rec){ ev, rec, cpu, NULL, any->ctx, NULL });
}

/* stat_sum - sum "key: N" over every CPU's stats file of the instance */
static unsigned long long stat_sum(struct session *s, const char *key)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), cpu;
	unsigned long long sum = 0;
	char path[64], *text, *p;

	for (cpu = 0; cpu < ncpu; cpu++) {
		snprintf(path, sizeof(path), "per_cpu/cpu%ld/stats", cpu);
		text = tracefs_instance_file_read(s->inst, path, NULL);
		if (!text)
			continue;
		p = strstr(text, key);
		if (p)
			sum += strtoull(p + strlen(key), NULL, 10);
		free(text);
	}
	return sum;
}

/* ---- reading the per-CPU buffers ---- */

/*
 * a CPU's reader: its trace_pipe_raw, the page read last and the record at
 * hand; and how far its records are known to be read (stream_horizon)
 */
struct cursor {
	struct tracefs_cpu *tcpu;
	struct kbuffer *kbuf;
	void *page;
	int cpu;
	int paged;		/* kbuf holds a page */
	int at;			/* rec and ev hold the next record */
	int gap;		/* events were lost before the next record handed on ... */
	int lost;		/* ... this many that the kernel counted */
	struct tep_record rec;
	struct tep_event *ev;
	unsigned long long known;	/* every record up to this time is read */
	unsigned long long mark;	/* found empty after `newest` was this ... */
	unsigned long long last_mark;	/* ... and so, at the drain before */
	int marked, last_marked;
};

static struct cursor *cursors;
static int nr_cursors;
static struct session *cursors_of;

/* close_cursors - undo action: the descriptors go before the instance they read */
static void close_cursors(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < nr_cursors; i++) {
		tracefs_cpu_close(cursors[i].tcpu);
		if (cursors[i].kbuf)	/* NULL when its allocation died */
			kbuffer_free(cursors[i].kbuf);
		free(cursors[i].page);
	}
	free(cursors);
	cursors = NULL;
	nr_cursors = 0;
}

/* open_cursors - a reader per CPU, kept for the whole run (a page read is never dropped) */
static void open_cursors(struct session *s)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), cpu;
	enum kbuffer_long_size lsize = tep_get_header_page_size(s->tep) == 8 ?
				       KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4;
	enum kbuffer_endian endian = tep_is_file_bigendian(s->tep) ?
				     KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE;

	cursors = xcalloc(ncpu > 0 ? ncpu : 1, sizeof(*cursors));
	cursors_of = s;
	undo_defer(close_cursors, NULL);
	for (cpu = 0; cpu < ncpu; cpu++) {
		struct cursor *c = &cursors[nr_cursors];

		c->tcpu = tracefs_cpu_open(s->inst, (int)cpu, true);
		if (!c->tcpu) {
			if (errno != ENOENT)
				msg_warn("WARNING: cannot read CPU %ld's buffer: %s; its events are not shown",
					 cpu, strerror(errno));
			continue;
		}
		c->cpu = (int)cpu;
		nr_cursors++;	/* closed at exit from here on, also if what follows dies */
		c->page = xmalloc(tracefs_cpu_read_size(c->tcpu));
		c->kbuf = kbuffer_alloc(lsize, endian);
		if (!c->kbuf)
			xalloc_die();
	}
}

/* next_page - read c's next page from the kernel; 0 if there was none */
static int next_page(struct cursor *c)
{
	int n = tracefs_cpu_read(c->tcpu, c->page, true);

	if (n <= 0)
		return 0;
	c->paged = kbuffer_load_subbuffer(c->kbuf, c->page) >= 0 &&
		   kbuffer_subbuffer_size(c->kbuf) <= n;
	if (!c->paged) {
		msg_warn("WARNING: CPU %d: a page of its buffer could not be parsed; its events are lost",
			 c->cpu);
		c->gap = 1;	/* a gap before the next record */
	}
	return 1;
}

/* add_lost - a record's missed-events mark (-1: a count not kept), for the next record handed on */
static void add_lost(struct cursor *c, int n)
{
	if (!n)
		return;
	c->gap = 1;
	if (n > 0)
		c->lost += n;
}

/* advance - load c's next record of a known event (none: c->at is 0); the
 * missed-events marks of records skipped (no format) go to the next one */
static void advance(struct session *s, struct cursor *c)
{
	unsigned long long ts;
	void *data;

	c->at = 0;
	do {
		while (c->paged && (data = kbuffer_read_event(c->kbuf, &ts))) {
			c->rec = (struct tep_record){ .ts = ts, .size = kbuffer_event_size(c->kbuf),
						      .record_size = kbuffer_curr_size(c->kbuf),
						      .cpu = c->cpu, .data = data, .ref_count = 1 };
			add_lost(c, kbuffer_missed_events(c->kbuf));
			kbuffer_next_event(c->kbuf, NULL);
			c->ev = tep_find_event(s->tep, tep_data_type(s->tep, &c->rec));
			if (c->ev) {
				if (c->gap)
					c->rec.missed_events = c->lost ? c->lost : -1;
				c->gap = c->lost = 0;
				c->at = 1;
				return;
			}
		}
	} while (next_page(c));
}

/* on_missed - a record that follows a gap: count what the kernel says was lost */
static void on_missed(struct tep_record *rec)
{
	if (rec->missed_events > 0)
		missed += rec->missed_events;
	if (gap_fn)
		gap_fn(rec, gap_ctx);
}

/* stream_on_gap - see stream.h */
void stream_on_gap(void (*fn)(const struct tep_record *rec, void *ctx), void *ctx)
{
	if (gap_fn && (gap_fn != fn || gap_ctx != ctx))
		msg_die(EXIT_ERR, "internal: a second gap hook");
	gap_fn = fn;
	gap_ctx = ctx;
}

/* drained - run the stream_on_drained hook */
static void drained(int last)
{
	if (drained_fn)
		drained_fn(last);
}

/*
 * found_empty - c has nothing more to read now: every record of its CPU
 * stamped before `newest` was reserved before a record already read, so it
 * is committed, and read, by the next drain
 */
static void found_empty(struct cursor *c)
{
	c->mark = newest;
	c->marked = 1;
}

/*
 * settle - at the end of a drain, how far each CPU is known read: to just
 * before the record its cursor holds, or, if it was found empty, to what the
 * drain before this one had read when it was found empty then
 */
static void settle(void)
{
	struct cursor *c;
	int i;

	for (i = 0; i < nr_cursors; i++) {
		c = &cursors[i];
		if (c->at) {
			if (c->rec.ts && c->rec.ts - 1 > c->known)
				c->known = c->rec.ts - 1;
			c->marked = c->last_marked = 0;
			continue;
		}
		if (c->last_marked && c->last_mark > c->known)
			c->known = c->last_mark;
		c->last_mark = c->mark;
		c->last_marked = c->marked;
		c->marked = 0;
	}
}

/* stream_horizon - see stream.h */
unsigned long long stream_horizon(void)
{
	unsigned long long h = ~0ULL;
	int i;

	for (i = 0; i < nr_cursors; i++)
		if (cursors[i].known < h)
			h = cursors[i].known;
	return h;
}

/* stream_on_drained - see stream.h */
void stream_on_drained(void (*fn)(int last))
{
	if (drained_fn && drained_fn != fn)
		msg_die(EXIT_ERR, "internal: a second drain hook");
	drained_fn = fn;
}

/*
 * drain_some - dispatch, merged by time over the CPUs, what the kernel holds now;
 * stop early (1) after DRAIN_RECORDS records, at `until`, or at a stop signal
 * when stop_on_signal: the rest waits, in the kernel or in a cursor, for the
 * next drain. 0 once every CPU was found empty. Each CPU's reader lives for
 * the run: a page taken from the kernel is never dropped, and the descriptors
 * are closed by the undo stack, before the instance goes.
 */
static int drain_some(struct session *s, double until, int stop_on_signal)
{
	struct cursor *c;
	long n;
	int i;

	if (!cursors)
		open_cursors(s);
	else if (cursors_of != s)
		msg_die(EXIT_ERR, "internal: one stream per run");
	for (i = 0; i < nr_cursors; i++)
		if (!cursors[i].at) {
			advance(s, &cursors[i]);
			if (!cursors[i].at)
				found_empty(&cursors[i]);
		}
	for (n = 0;; n++) {
		for (c = NULL, i = 0; i < nr_cursors; i++)
			if (cursors[i].at && (!c || cursors[i].rec.ts < c->rec.ts))
				c = &cursors[i];
		if (!c)
			return 0;
		if (n == DRAIN_RECORDS || (n % 256 == 255 && ((stop_on_signal && sig_stop) ||
							       clock_s() >= until)))
			return 1;
		if (c->rec.missed_events)
			on_missed(&c->rec);
		if (c->rec.ts > newest)
			newest = c->rec.ts;
		dispatch(c->ev, &c->rec, c->cpu);
		advance(s, c);
		if (!c->at)
			found_empty(c);
	}
}

/* drain - drain_some, then how far each CPU is read (settle, stream_horizon) */
static int drain(struct session *s, double until, int stop_on_signal)
{
	int more = drain_some(s, until, stop_on_signal);

	settle();
	return more;
}

/* unread - events left in the buffers and in the cursors' pages after the last drain */
static unsigned long long unread(struct session *s)
{
	unsigned long long n = stat_sum(s, "entries:"), ts;
	int i;

	for (i = 0; i < nr_cursors; i++) {
		n += cursors[i].at;
		while (cursors[i].paged && kbuffer_read_event(cursors[i].kbuf, &ts)) {
			kbuffer_next_event(cursors[i].kbuf, NULL);
			n++;
		}
		cursors[i].at = cursors[i].paged = 0;
	}
	return n;
}

/* stream_size_buffer - see stream.h */
void stream_size_buffer(struct session *s)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), kb;
	long avail = proc_file_number("/proc/meminfo", "MemAvailable");
	char *cur = tracefs_instance_file_read(s->inst, "buffer_size_kb", NULL);

	if (ncpu < 1)
		ncpu = 1;
	kb = BUF_KB_ALL / ncpu;
	if (kb > BUF_KB_CPU)
		kb = BUF_KB_CPU;
	if (avail > 0 && kb > avail / BUF_MEM_SHARE / ncpu)
		kb = avail / BUF_MEM_SHARE / ncpu;
	if (!cur || atol(cur) < kb)
		session_buffer_kb(s, (int)kb);
	free(cur);
}

/*
 * drain_rest - after tracing_on went to 0: dispatch what was recorded before
 * the end, all of it; after a stop signal (sig_cut, even one sent during this
 * drain) as much as STOP_S more allows, and nothing more once the reader is
 * gone. Then the last hooks, and what is left said on stderr.
 */
static void drain_rest(struct session *s)
{
	double until = 0;
	unsigned long long left;

	for (;;) {
		if (sig_cut && !until)
			until = clock_s() + STOP_S;
		if (out_broken() || !drain(s, until ? until : clock_s() + DRAIN_S, 0))
			break;
		drained(0);
		out_batch_end();
		if (until && clock_s() >= until)
			break;
	}
	drained(1);
	out_batch_end();
	left = unread(s);
	if (left && !out_broken())
		msg_warn("WARNING: %llu events recorded before the stop were not read (stopped after %.1f s)",
			 left, STOP_S);
}

/* stream_run - see stream.h */
void stream_run(struct session *s, double duration, double interval,
		void (*tick)(void *), void *arg)
{
	struct deadline d;
	int more;

	deadline_init(&d, clock_s(), duration, interval);
	tracefs_instance_file_write(s->inst, "tracing_on", "1");
	while (!sig_stop) {
		more = drain(s, clock_s() + DRAIN_S, 1);
		drained(0);
		out_batch_end();
		if (sig_stop || deadline_over(&d, clock_s()))
			break;
		if (deadline_tick(&d, clock_s())) {
			tick(arg);
			out_batch_end();
		}
		if (more)
			continue;	/* a backlog: read on, after the work above */
		deadline_nap(&d, POLL_MS / 1000.0);
	}
	tracefs_instance_file_write(s->inst, "tracing_on", "0");
	drain_rest(s);
}

/* stream_lost - see stream.h */
unsigned long long stream_lost(struct session *s)
{
	unsigned long long n = stat_sum(s, "overrun:") + stat_sum(s, "dropped events:");

	return missed > n ? missed : n;
}

/* stream_report_lost - see stream.h */
void stream_report_lost(struct session *s)
{
	unsigned long long n = stream_lost(s);

	if (n)
		msg_warn("WARNING: %llu events lost (kernel buffer full)", n);
}

/*
 * PIPE_ASK - what one read of trace_pipe asks for. The kernel prints whole
 * lines into a page-sized buffer until it holds at least what was asked. A
 * line that does not fit in that page is taken back and printed by the next
 * read, and function_graph's way of doing that is wrong: the entry of a call
 * was consumed already, so the call is printed again from a saved copy, under
 * the task of whatever record comes next, or lost when no copy was saved.
 * Asking for half a page leaves room for the longest line (a 512-byte symbol,
 * 100 bytes of nesting and the columns), so no line is ever cut.
 */
#define PIPE_ASK 2048

static int no_switches;		/* stream_text_no_switches */

/* stream_text_no_switches - see stream.h */
void stream_text_no_switches(void)
{
	no_switches = 1;
}

/* switch_line - is the whole line (its newline included) a part of a
 * context-switch banner: dashes, blank, or "CPU) task-pid => task-pid" */
static int switch_line(const char *s, size_t n)
{
	char line[256], a[64], b[64], c[64];

	if (n == 1 || !strncmp(s, " ---", 4))
		return 1;
	if (n >= sizeof(line))
		return 0;
	memcpy(line, s, n);
	line[n] = '\0';
	return sscanf(line, "%63s %63s %63s", a, b, c) == 3 && !strcmp(c, "=>");
}

/* copy_lines - out_text of the whole lines of s, less the switch banners;
 * returns the bytes taken (the last line, cut, waits for the rest) */
static size_t copy_lines(const char *s, size_t all)
{
	size_t done = 0;
	const char *nl;

	while (done < all && (nl = memchr(s + done, '\n', all - done))) {
		size_t n = (size_t)(nl - (s + done)) + 1;

		if (!switch_line(s + done, n))
			out_text(out, s + done, n);
		done += n;
	}
	/* a line longer than a read: out as it is */
	if (all - done > PIPE_ASK)
		done += out_text(out, s + done, all - done);
	return done;
}

/* copy_pipe - copy what the text pipe holds now to out, escaped (out_text) */
static void copy_pipe(int fd)
{
	static char buf[2 * PIPE_ASK + 8];
	static size_t held;	/* a character or a line cut at the end of the last read */
	ssize_t n;

	while ((n = read(fd, buf + held, PIPE_ASK)) > 0) {
		size_t all = held + (size_t)n;
		size_t done = no_switches ? copy_lines(buf, all) : out_text(out, buf, all);

		held = all - done;
		memmove(buf, buf + done, held);
		if (sig_stop && out_broken())
			break;
	}
}

/* print_text_header - the '#' lines at the top of the tracer's trace file */
static void print_text_header(struct tracefs_instance *inst)
{
	char *text = tracefs_instance_file_read(inst, "trace", NULL), *line, *save = NULL;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '#')
			break;
		/* the entry counts describe the old buffer, not this run */
		if (strstr(line, "entries-in-buffer"))
			continue;
		fprintf(out, "%s\n", line);
	}
	free(text);
}

/* stream_run_text - see stream.h */
int stream_run_text(struct tracefs_instance *inst, double duration, int headers)
{
	struct deadline d;
	int fd;

	deadline_init(&d, clock_s(), duration, 0);
	fd = tracefs_instance_file_open(inst, "trace_pipe", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (headers)
		print_text_header(inst);
	out_batch_end();
	tracefs_instance_file_write(inst, "tracing_on", "1");
	while (!sig_stop) {
		copy_pipe(fd);
		out_batch_end();
		if (sig_stop || deadline_over(&d, clock_s()))
			break;
		deadline_nap(&d, POLL_MS / 1000.0);
	}
	tracefs_instance_file_write(inst, "tracing_on", "0");
	if (!out_broken())
		copy_pipe(fd);
	out_batch_end();
	close(fd);
	return 0;
}

/* stream_idle_poll - see stream.h */
void stream_idle_poll(double duration, double interval, double poll, void (*pollfn)(void *),
		      void (*tick)(void *), void *arg)
{
	struct deadline d;

	deadline_init(&d, clock_s(), duration, interval);
	while (!sig_stop) {
		out_batch_end();	/* nothing to print, but a reader gone stops us */
		if (sig_stop || deadline_over(&d, clock_s()))
			break;
		if (pollfn)
			pollfn(arg);
		if (deadline_tick(&d, clock_s())) {
			tick(arg);
			out_batch_end();
			continue;
		}
		deadline_nap(&d, poll);
	}
}

/* stream_wait - see stream.h */
void stream_wait(double duration)
{
	if (sig_wait(duration, out_pipe_fd()))
		out_batch_end();	/* the reader is gone: stop, output broken */
}

/* stream_idle - see stream.h */
void stream_idle(double duration, double interval, void (*tick)(void *), void *arg)
{
	stream_idle_poll(duration, interval, 0.5, NULL, tick, arg);
}

/* stream_begin - see stream.h */
void stream_begin(struct session *s, int buffered)
{
	stream_size_buffer(s);
	session_start(s);
	out_init(buffered);
}

/* stream_end - see stream.h */
void stream_end(struct session *s)
{
	out_ending();
	stream_report_lost(s);
}

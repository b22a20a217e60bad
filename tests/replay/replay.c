/* SPDX-License-Identifier: GPL-2.0-only */
/* replay.c - the deterministic tier's library: formats, records, pages, and
 * the per-CPU readers the stream gets instead of trace_pipe_raw
 *
 * Pages are laid out as the kernel's ring buffer writes them: a header (the
 * page's timestamp, then the commit word: bytes used, and the missed-events
 * flags), then each record behind a 32-bit header (5 bits of type or length in
 * words, 27 bits of time delta), a time-extend entry where a delta does not
 * fit, and the count of lost events after the data when the page has one.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "replay.h"

#define PAGE 4096
#define HDR 16			/* page header: timestamp, commit */
#define MAX_CPUS 8
#define MAX_PAGES 4096		/* per CPU */
#define MISSED (1ULL << 31)	/* commit flags: events were lost before this page ... */
#define MISSED_STORED (1ULL << 30)	/* ... and their count follows the data */
#define TS_BITS 27
#define TYPE_EXTEND 30
#define SMALL_MAX 112		/* the longest data a length in words can say */

struct page {
	unsigned char data[PAGE];
	size_t used;		/* bytes of records */
	unsigned long long last;	/* timestamp of the newest record in it */
	unsigned long lost;
	int step, empty;
};

static struct page *pages[MAX_CPUS][MAX_PAGES];
static int npages[MAX_CPUS], nread[MAX_CPUS];
static int step, nsteps = 1;
static int passed, failed;
static struct session sess;

/* die - a broken case: say why and end it */
static void die(const char *what, const char *name)
{
	printf("replay: %s: %s\n", what, name);
	fflush(stdout);
	exit(1);
}

/* load_dir - parse every format file of dir ("SYS__NAME", and header_page) */
static void load_dir(const char *dir)
{
	struct dirent **names;
	char path[512], *buf = malloc(1 << 16);
	int i, n = scandir(dir, &names, NULL, alphasort);
	size_t len;
	FILE *f;

	for (i = 0; i < n; i++) {
		char *sep = strstr(names[i]->d_name, "__");

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		f = names[i]->d_name[0] != '.' ? fopen(path, "r") : NULL;
		len = f ? fread(buf, 1, (1 << 16) - 1, f) : 0;
		if (f)
			fclose(f);
		buf[len] = '\0';
		if (!strcmp(names[i]->d_name, "header_page"))
			tep_parse_header_page(sess.tep, buf, len, sizeof(long));
		else if (len && sep) {
			*sep = '\0';
			tep_parse_event(sess.tep, buf, len, names[i]->d_name);
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
	free(buf);
}

/* rp_session - see replay.h */
struct session *rp_session(void)
{
	if (sess.tep)
		return &sess;
	sess.tep = tep_alloc();
	if (!sess.tep)
		die("no memory", "tep");
	tep_set_long_size(sess.tep, sizeof(long));
	tep_set_page_size(sess.tep, getpagesize());
	tep_set_file_bigendian(sess.tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(sess.tep, TEP_LITTLE_ENDIAN);
	load_dir(REPLAY_DIR "/fuzz/formats");
	load_dir(REPLAY_DIR "/replay/formats");
	return &sess;
}

/* rp_event - see replay.h */
struct tep_event *rp_event(const char *name)
{
	char sys[64];
	const char *colon = strchr(name, ':');
	struct tep_event *ev;

	if (!colon || colon - name >= (long)sizeof(sys))
		die("not SYS:NAME", name);
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
	ev = tep_find_event_by_name(rp_session()->tep, sys, colon + 1);
	if (!ev)
		die("no format for", name);
	return ev;
}

/* rp_page - see replay.h */
void rp_page(int cpu, int at_step, unsigned long lost)
{
	struct page *p;

	if (cpu < 0 || cpu >= MAX_CPUS || npages[cpu] == MAX_PAGES)
		die("too many pages or CPUs", "rp_page");
	p = calloc(1, sizeof(*p));
	if (!p)
		die("no memory", "rp_page");
	p->step = at_step;
	p->lost = lost;
	p->empty = 1;
	pages[cpu][npages[cpu]++] = p;
	if (at_step + 1 > nsteps)
		nsteps = at_step + 1;
}

/* put4 - a 32-bit little-endian word at p */
static void put4(unsigned char *p, unsigned int v)
{
	memcpy(p, &v, 4);
}

/* set_field - one "name=value" into the record data (dynamic strings at the end) */
static size_t set_field(struct tep_event *ev, unsigned char *data, size_t len, const char *spec)
{
	char name[64];
	const char *eq = strchr(spec, '=');
	struct tep_format_field *f;
	unsigned long long v;

	if (!eq || eq - spec >= (long)sizeof(name))
		die("not name=value", spec);
	snprintf(name, sizeof(name), "%.*s", (int)(eq - spec), spec);
	f = tep_find_any_field(ev, name);
	if (!f)
		die("no such field", name);
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		size_t n = strlen(eq + 1) + 1;
		unsigned int loc = (unsigned int)(n << 16 | len);

		memcpy(data + len, eq + 1, n);
		memcpy(data + f->offset, &loc, 4);
		return len + n;
	}
	if (!strncmp(eq + 1, "x:", 2)) {	/* raw bytes, in order: x:7f000001 */
		const char *h = eq + 3;
		int i;

		for (i = 0; i < f->size && h[0] && h[1]; i++, h += 2) {
			char byte[3] = { h[0], h[1], 0 };

			data[f->offset + i] = (unsigned char)strtoul(byte, NULL, 16);
		}
		return len;
	}
	if ((f->flags & TEP_FIELD_IS_ARRAY) && strstr(f->type, "char")) {
		strncpy((char *)data + f->offset, eq + 1, f->size);
		return len;
	}
	v = strtoull(eq + 1, NULL, 0);
	memcpy(data + f->offset, &v, f->size < 8 ? f->size : 8);	/* little-endian */
	return len;
}

/* rp_rec - see replay.h */
void rp_rec(int cpu, unsigned long long ts, const char *name, const char *fields)
{
	struct tep_event *ev = strcmp(name, "?") ? rp_event(name) : NULL;
	unsigned char data[1024] = { 0 };
	char spec[256], *tok, *save = NULL;
	struct tep_format_field *f;
	unsigned long long delta;
	size_t len = 0, need, words;
	unsigned short type = ev ? (unsigned short)ev->id : 65535;
	struct page *p;
	int common;

	len = ev ? 0 : 16;
	for (common = 0; ev && common < 2; common++)
		for (f = common ? ev->format.common_fields : ev->format.fields; f; f = f->next)
			if ((size_t)(f->offset + f->size) > len)
				len = f->offset + f->size;
	memcpy(data, &type, 2);
	snprintf(spec, sizeof(spec), "%s", fields ? fields : "");
	for (tok = strtok_r(spec, " ", &save); ev && tok; tok = strtok_r(NULL, " ", &save))
		len = set_field(ev, data, len, tok);
	if (cpu < 0 || cpu >= MAX_CPUS || !npages[cpu])
		rp_page(cpu, 0, 0);
	p = pages[cpu][npages[cpu] - 1];
	words = (len + 3) / 4;
	need = 8 + (len > SMALL_MAX ? 4 : 0) + words * 4;	/* an extend, a length word */
	if (HDR + p->used + need + 8 > PAGE) {
		rp_page(cpu, p->step, 0);
		p = pages[cpu][npages[cpu] - 1];
	}
	if (p->empty) {
		memcpy(p->data, &ts, 8);	/* the page's timestamp */
		p->last = ts;
		p->empty = 0;
	}
	if (ts < p->last)
		die("timestamps go back on one CPU", name);
	delta = ts - p->last;
	p->last = ts;
	if (delta >> TS_BITS) {
		put4(p->data + HDR + p->used, TYPE_EXTEND | (unsigned int)(delta & ((1U << TS_BITS) - 1)) << 5);
		put4(p->data + HDR + p->used + 4, (unsigned int)(delta >> TS_BITS));
		p->used += 8;
		delta = 0;
	}
	if (len > SMALL_MAX) {
		put4(p->data + HDR + p->used, (unsigned int)delta << 5);
		put4(p->data + HDR + p->used + 4, (unsigned int)(words * 4 + 4));
		p->used += 8;
	} else {
		put4(p->data + HDR + p->used, (unsigned int)words | (unsigned int)delta << 5);
		p->used += 4;
	}
	memcpy(p->data + HDR + p->used, data, words * 4);
	p->used += words * 4;
}

/* seal - write the page's commit word (and lost count) before it is read */
static void seal(struct page *p)
{
	unsigned long long commit = p->used;

	if (p->lost) {
		commit |= MISSED | MISSED_STORED;
		memcpy(p->data + HDR + p->used, &(unsigned long long){ p->lost }, 8);
	}
	memcpy(p->data + 8, &commit, 8);
}

/* ---- what the stream calls instead of tracefs (ld --wrap) ---- */

struct tracefs_cpu *__wrap_tracefs_cpu_open(struct tracefs_instance *inst, int cpu, bool nb);
void __wrap_tracefs_cpu_close(struct tracefs_cpu *tcpu);
int __wrap_tracefs_cpu_read_size(struct tracefs_cpu *tcpu);
int __wrap_tracefs_cpu_read(struct tracefs_cpu *tcpu, void *buf, bool nb);
char *__wrap_tracefs_instance_file_read(struct tracefs_instance *inst, const char *file,
					int *psize);
int __wrap_tracefs_instance_file_write(struct tracefs_instance *inst, const char *file,
				       const char *str);
char *__wrap_tracefs_event_file_read(struct tracefs_instance *inst, const char *sys,
				     const char *ev, const char *file, int *psize);
char **__wrap_tracefs_system_events(const char *dir, const char *sys);
int __wrap_tracefs_event_file_write(struct tracefs_instance *inst, const char *sys,
				    const char *ev, const char *file, const char *str);
int __wrap_tracefs_error_clear(struct tracefs_instance *inst);
void __wrap_out_batch_end(void);
void __real_out_batch_end(void);

/* __wrap_tracefs_cpu_open - a reader of the layout's CPU (as many as the machine has) */
struct tracefs_cpu *__wrap_tracefs_cpu_open(struct tracefs_instance *inst, int cpu, bool nb)
{
	(void)inst, (void)nb;
	if (cpu >= MAX_CPUS) {
		errno = ENOENT;
		return NULL;
	}
	return (struct tracefs_cpu *)(long)(cpu + 1);
}

/* __wrap_tracefs_cpu_close - nothing to close */
void __wrap_tracefs_cpu_close(struct tracefs_cpu *tcpu)
{
	(void)tcpu;
}

/* __wrap_tracefs_cpu_read_size - one page */
int __wrap_tracefs_cpu_read_size(struct tracefs_cpu *tcpu)
{
	(void)tcpu;
	return PAGE;
}

/* __wrap_tracefs_cpu_read - the CPU's next page, if the drain under way may see it */
int __wrap_tracefs_cpu_read(struct tracefs_cpu *tcpu, void *buf, bool nb)
{
	int cpu = (int)(long)tcpu - 1;
	struct page *p;

	(void)nb;
	if (nread[cpu] == npages[cpu] || pages[cpu][nread[cpu]]->step > step) {
		errno = EAGAIN;
		return -1;
	}
	p = pages[cpu][nread[cpu]++];
	seal(p);
	memcpy(buf, p->data, PAGE);
	return PAGE;
}

/* slurp - the text of a format file in the replay's directories, or NULL */
static char *slurp(const char *name, int *psize)
{
	static const char *const dirs[] = { REPLAY_DIR "/fuzz/formats", REPLAY_DIR "/replay/formats" };
	char path[512], *buf;
	size_t i, n;
	FILE *f;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		f = fopen(path, "r");
		if (!f)
			continue;
		buf = calloc(1, 1 << 16);
		n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
		fclose(f);
		if (psize)
			*psize = (int)n;
		return buf;
	}
	return NULL;
}

/* __wrap_tracefs_instance_file_read - the ring buffer's header format; no other files */
char *__wrap_tracefs_instance_file_read(struct tracefs_instance *inst, const char *file,
					int *psize)
{
	(void)inst;
	return strcmp(file, "events/header_page") ? NULL : slurp("header_page", psize);
}

/* __wrap_tracefs_event_file_read - an event's format, from the format files */
char *__wrap_tracefs_event_file_read(struct tracefs_instance *inst, const char *sys,
				     const char *ev, const char *file, int *psize)
{
	char name[256];

	(void)inst;
	snprintf(name, sizeof(name), "%s__%s", sys, ev);
	return strcmp(file, "format") ? NULL : slurp(name, psize);
}

/* __wrap_tracefs_system_events - the events of sys that have a format file */
char **__wrap_tracefs_system_events(const char *dir, const char *sys)
{
	static const char *const dirs[] = { REPLAY_DIR "/fuzz/formats", REPLAY_DIR "/replay/formats" };
	char **list = NULL;
	size_t i, n = strlen(sys);
	struct dirent *d;
	DIR *dp;

	(void)dir;
	for (i = 0; i < 2; i++) {
		dp = opendir(dirs[i]);
		while (dp && (d = readdir(dp)))
			if (!strncmp(d->d_name, sys, n) && !strncmp(d->d_name + n, "__", 2))
				list = tracefs_list_add(list, d->d_name + n + 2);
		if (dp)
			closedir(dp);
	}
	return list;
}

/* __wrap_tracefs_event_file_write - filters and enables: accepted, without effect */
int __wrap_tracefs_event_file_write(struct tracefs_instance *inst, const char *sys,
				    const char *ev, const char *file, const char *str)
{
	(void)inst, (void)sys, (void)ev, (void)file;
	return (int)strlen(str);
}

/* __wrap_tracefs_error_clear - no error log */
int __wrap_tracefs_error_clear(struct tracefs_instance *inst)
{
	(void)inst;
	return 0;
}

/* __wrap_tracefs_instance_file_write - accepted, without effect */
int __wrap_tracefs_instance_file_write(struct tracefs_instance *inst, const char *file,
				       const char *str)
{
	(void)inst, (void)file;
	return (int)strlen(str);
}

/* __wrap_out_batch_end - a drain ended: the next step of the layout; after the last, stop */
void __wrap_out_batch_end(void)
{
	__real_out_batch_end();
	if (++step >= nsteps)
		sig_stop = 1;
}

/* rp_run - see replay.h */
void rp_run(void)
{
	out_init(0);
	stream_run(rp_session(), 0, 0, NULL, NULL);
	fflush(stdout);
}

/* ---- cases ---- */

/* rp_case - see replay.h */
char *rp_case(void (*fn)(void))
{
	size_t len = 0, cap = 1 << 16;
	int p[2], status;
	char *text;
	ssize_t n;
	pid_t pid;

	if (pipe(p) < 0)
		die("no pipe", "rp_case");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 1);
		dup2(p[1], 2);
		fn();
		fflush(stdout);
		exit(0);
	}
	close(p[1]);
	text = malloc(cap);
	if (!text)
		die("no memory", "rp_case");
	while ((n = read(p[0], text + len, cap - len - 64)) > 0) {
		len += n;
		if (cap - len < 4096) {
			char *t = realloc(text, cap *= 2);

			if (!t)
				die("no memory", "rp_case");
			text = t;
		}
	}
	close(p[0]);
	waitpid(pid, &status, 0);
	text[len] = '\0';
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		snprintf(text + len, 64, "[case ended with status %d]\n", status);
	return text;
}

/* rp_check - see replay.h */
void rp_check(const char *name, int ok, const char *output)
{
	if (strstr(output, "[case ended with status"))
		ok = 0;		/* a case that died proves nothing */
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("---- what it printed:\n%s----\n", output);
}

/* rp_at - see replay.h */
long rp_at(const char *text, const char *what)
{
	const char *p = strstr(text, what);

	return p ? p - text : -1;
}

/* rp_lines - see replay.h */
int rp_lines(const char *text, const char *what)
{
	const char *p = text, *nl;
	int n = 0;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (memmem(p, nl - p, what, strlen(what)))
			n++;
		p = *nl ? nl + 1 : nl;
	}
	return n;
}

/* rp_done - see replay.h */
int rp_done(const char *suite)
{
	printf("%s: %d passed, %d failed, 0 skipped\n", suite, passed, failed);
	return failed ? 1 : 0;
}

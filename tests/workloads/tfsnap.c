/* SPDX-License-Identifier: GPL-2.0-only */
/* tfsnap - print the tracefs state a tool run must leave as it found it
 *
 * usage: tfsnap TRACEFS
 * The state tests/lib.sh's tracefs_snapshot_all describes, in one process:
 * the top-level settings files (comment lines dropped, lines sorted), the
 * instances, every event's filter and trigger that is set, the enabled
 * systems, the per-CPU buffer sizes, and the settings and filters of every
 * instance that is not a tool run's (ftt-*). The tests compare two of these
 * around each test; under an emulated CPU a process costs tens of
 * milliseconds, so the shell version's sixty processes cost seconds a test.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const top_files[] = {
	"current_tracer", "tracing_on", "set_event", "kprobe_events", "uprobe_events",
	"dynamic_events", "trace_options", "buffer_size_kb", "set_ftrace_filter",
	"set_ftrace_notrace", "set_graph_function", "set_ftrace_pid", "set_event_pid",
	"max_graph_depth", "tracing_thresh", "function_profile_enabled", "trace_clock",
};

static const char *const more_files[] = {
	"tracing_cpumask", "set_ftrace_notrace_pid", "set_event_notrace_pid",
	"stack_trace_filter", "saved_cmdlines_size", "synthetic_events",
	"buffer_total_size_kb", "buffer_percent", "events/enable",
};

static const char *const inst_files[] = {
	"tracing_on", "current_tracer", "set_event", "buffer_size_kb", "trace_options",
};

struct lines {
	char **v;
	size_t n, cap;
};

/* slurp - the whole of PATH, NUL-terminated, or NULL where it cannot be read */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, got;

	if (!f)
		return NULL;
	for (;;) {
		char *nb = realloc(buf, len + 65536 + 1);

		if (!nb) {
			free(buf);
			fclose(f);
			return NULL;
		}
		buf = nb;
		got = fread(buf + len, 1, 65536, f);
		len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* push - append S to L */
static void push(struct lines *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v) {
			perror("tfsnap");
			exit(1);
		}
	}
	l->v[l->n++] = s;
}

/* split - the lines of BUF (cut in place) that do not begin with DROP (NULL: all) */
static void split(char *buf, const char *drop, struct lines *l)
{
	char *p = buf, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (!drop || strncmp(p, drop, strlen(drop)) != 0)
			push(l, p);
		if (!nl)
			break;
		p = nl + 1;
	}
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sorted - print the lines of PATH but its comments, sorted */
static void sorted(const char *path)
{
	struct lines l = { 0 };
	char *buf = slurp(path);
	size_t i;

	if (!buf)
		return;
	split(buf, "#", &l);
	qsort(l.v, l.n, sizeof(*l.v), cmp);
	for (i = 0; i < l.n; i++)
		printf("%s\n", l.v[i]);
	free(l.v);
	free(buf);
}

/* files - "== NAME" and NAME's sorted lines, for each of N files under DIR that exists */
static void files(const char *dir, const char *const *names, size_t n, const char *mark)
{
	char path[4096];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (access(path, R_OK) != 0)
			continue;
		printf("%s %s\n", mark, names[i]);
		sorted(path);
	}
}

/* names - the entries of the directory open at FD but . and .., sorted; closes FD */
static void names(int fd, struct lines *l)
{
	struct dirent *d;
	DIR *dp;

	if (fd < 0)
		return;
	if (!(dp = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((d = readdir(dp)))
		if (d->d_name[0] != '.')
			push(l, strdup(d->d_name));
	closedir(dp);
	qsort(l->v, l->n, sizeof(*l->v), cmp);
}

/* lines_of - to OUT, "PREFIX/NAME:LINE" for each line of NAME under DIRFD not beginning with DROP */
static void lines_of(FILE *out, int dirfd, const char *prefix, const char *name, const char *drop)
{
	struct lines l = { 0 };
	char buf[65536];
	size_t i, len = 0;
	ssize_t n;
	int fd = openat(dirfd, name, O_RDONLY);

	if (fd < 0)
		return;
	while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	split(buf, drop, &l);
	for (i = 0; i < l.n; i++)
		fprintf(out, "%s/%s:%s\n", prefix, name, l.v[i]);
	free(l.v);
}

/*
 * event_files - "== filters" and "== triggers" under the events directory
 * EVENTS: every set filter and trigger line, prefixed by its file's path. One
 * walk, files opened relative to their system's directory: in tracefs each
 * path lookup makes the kernel build the entry, and there are thousands.
 * With FILTERS_ONLY (an instance's), no headers and no triggers.
 */
static void event_files(const char *events, int filters_only)
{
	struct lines sys = { 0 };
	char path[4096];
	size_t i, j;
	char *trig = NULL;
	size_t trig_len = 0;
	FILE *t = filters_only ? NULL : open_memstream(&trig, &trig_len);
	int fd = open(events, O_RDONLY | O_DIRECTORY);

	if (!filters_only)
		printf("== filters\n");
	if (fd >= 0)
		names(fd, &sys);
	for (i = 0; i < sys.n; i++) {
		struct lines ev = { 0 };
		int sfd;

		snprintf(path, sizeof(path), "%s/%s", events, sys.v[i]);
		if ((sfd = open(path, O_RDONLY | O_DIRECTORY)) >= 0)
			names(dup(sfd), &ev);
		for (j = 0; sfd >= 0 && j < ev.n; j++) {
			char sub[4096];

			snprintf(sub, sizeof(sub), "%s/filter", ev.v[j]);
			lines_of(stdout, sfd, path, sub, "none");
			snprintf(sub, sizeof(sub), "%s/trigger", ev.v[j]);
			if (t)
				lines_of(t, sfd, path, sub, "#");
			free(ev.v[j]);
		}
		if (sfd >= 0)
			close(sfd);
		free(ev.v);
		free(sys.v[i]);
	}
	free(sys.v);
	if (t) {
		fclose(t);
		printf("== triggers\n%s", trig ? trig : "");
		free(trig);
	}
}

/* enabled - each file PATTERN names that holds a 1 or an X */
static void enabled(const char *pattern)
{
	glob_t g;
	size_t i;

	if (glob(pattern, 0, NULL, &g) != 0)
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		char *buf = slurp(g.gl_pathv[i]);

		if (buf && strpbrk(buf, "1X"))
			printf("%s\n", g.gl_pathv[i]);
		free(buf);
	}
	globfree(&g);
}

/* cpu_sizes - how many CPUs have each buffer size */
static void cpu_sizes(const char *t)
{
	char pat[4096];
	struct lines l = { 0 };
	char **bufs;
	glob_t g;
	size_t i, run;

	snprintf(pat, sizeof(pat), "%s/per_cpu/cpu*/buffer_size_kb", t);
	if (glob(pat, 0, NULL, &g) != 0)
		return;
	bufs = calloc(g.gl_pathc, sizeof(*bufs));
	for (i = 0; bufs && i < g.gl_pathc; i++)
		if ((bufs[i] = slurp(g.gl_pathv[i])))
			split(bufs[i], NULL, &l);
	qsort(l.v, l.n, sizeof(*l.v), cmp);
	for (i = 0; i < l.n; i += run) {
		for (run = 1; i + run < l.n && strcmp(l.v[i], l.v[i + run]) == 0; run++)
			;
		printf("%7zu %s\n", run, l.v[i]);
	}
	for (i = 0; bufs && i < g.gl_pathc; i++)
		free(bufs[i]);
	free(bufs);
	free(l.v);
	globfree(&g);
}

/* instances - the names under instances/, sorted; with USER, each user instance's state */
static void instances(const char *t, int user)
{
	char dir[1024], path[4096];
	struct lines l = { 0 };
	size_t i;

	snprintf(dir, sizeof(dir), "%s/instances", t);
	names(open(dir, O_RDONLY | O_DIRECTORY), &l);
	for (i = 0; i < l.n; i++) {
		if (!user) {
			printf("%s\n", l.v[i]);
		} else if (strncmp(l.v[i], "ftt-", 4) != 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, l.v[i]);
			printf("== instance %s\n", l.v[i]);
			files(path, inst_files, sizeof(inst_files) / sizeof(*inst_files), "--");
			snprintf(path, sizeof(path), "%s/%s/events", dir, l.v[i]);
			event_files(path, 1);
		}
		free(l.v[i]);
	}
	free(l.v);
}

int main(int argc, char **argv)
{
	char pat[4096];
	const char *t;

	if (argc != 2) {
		fprintf(stderr, "usage: tfsnap TRACEFS\n");
		return 2;
	}
	t = argv[1];
	files(t, top_files, sizeof(top_files) / sizeof(*top_files), "==");
	printf("== instances\n");
	instances(t, 0);
	snprintf(pat, sizeof(pat), "%s/events", t);
	event_files(pat, 0);
	printf("== enabled systems\n");
	snprintf(pat, sizeof(pat), "%s/events/*/enable", t);
	enabled(pat);
	files(t, more_files, sizeof(more_files) / sizeof(*more_files), "==");
	printf("== per-cpu buffer sizes\n");
	cpu_sizes(t);
	instances(t, 1);
	return ferror(stdout) ? 1 : 0;
}

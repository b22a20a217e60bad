/* SPDX-License-Identifier: GPL-2.0-only */
/* cgscope.c - --cgroup: the tasks of a cgroup v2 subtree, and --show-cgroup:
 * each task's cgroup, followed from the kernel's events
 *
 * What is known of a task is its cgroup (or, reading the scope's subtree
 * alone, that it is outside it; or that it is not known) from a time on.
 * The cgroup.threads files are read before tracing starts and again after
 * (the scope's subtree, or with --show-cgroup the whole hierarchy): a task
 * the two readings agree on was there over the whole gap between them, save
 * for moves the trace itself records (a move between the readings and back
 * again, before tracing began, leaves no event to show); a task they differ
 * on is known from the second reading on. A task in neither is outside the
 * subtree (a reading of the whole hierarchy lists every task: there, not
 * known). Then, in time order: cgroup_attach_task on the cgroup2 hierarchy
 * (dst_root 0) says where a task went; task_newtask puts a new task where
 * its creator is at that moment, unless it was cloned straight into a cgroup
 * (CLONE_INTO_CGROUP: no attach event, and the event does not say which),
 * which makes it unknown; sched_process_exit frees its ID. After lost
 * events, any of those may be missing: the tree is read again, and what
 * happened between the loss and that reading is not known.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgscope.h"
#include "clock.h"
#include "decode.h"
#include "format.h"
#include "line.h"
#include "msg.h"
#include "pidmap.h"
#include "reorder.h"
#include "session.h"
#include "stream.h"
#include "xalloc.h"

#define CLONE_INTO_CGROUP 0x200000000ULL	/* the kernel's flag (clone3, 5.7+) */
#define CGROUP_NS_INIT_INO 0xEFFFFFFBU		/* the initial cgroup namespace's inode number */

/* what is known of a task, besides its cgroup (an index of G.paths) */
#define CG_UNKNOWN	-1
#define CG_OUT		-2	/* outside the subtree read */

/* what is known of one task */
struct member {
	int cg;				/* its cgroup, CG_OUT or CG_UNKNOWN */
	unsigned long long from;	/* from this time on (trace clock, ns) */
};

static struct {
	int on;				/* --cgroup: the scope */
	int show;			/* --show-cgroup: each task's cgroup, the whole tree */
	char mount[PATH_MAX];		/* the cgroup2 mount point */
	char rel[PATH_MAX];		/* the cgroup from the hierarchy's root: "/" or "/a/b" */
	char **paths;			/* the cgroups seen, from the root, by index */
	int npaths;
	struct pidmap *tasks;		/* tid -> struct member */
	struct pidmap *first;		/* the first reading: tid -> cgroup + 1 */
	unsigned long long blind_from, blind_to;	/* after a loss: nothing known in between */
	unsigned long long unknown;	/* events left out: membership not known */
} G;

/* tracking - membership is followed: --cgroup or --show-cgroup */
static int tracking(void)
{
	return G.on || G.show;
}

/* intern - the index of a cgroup path (from the root) */
static int intern(const char *path)
{
	int i;

	for (i = G.npaths - 1; i >= 0; i--)
		if (!strcmp(G.paths[i], path))
			return i;
	G.paths = xreallocarray(G.paths, (size_t)G.npaths + 1, sizeof(*G.paths));
	G.paths[G.npaths] = xstrdup(path);
	return G.npaths++;
}

/* unescape - mountinfo's octal escapes (\040 a space) undone, in place */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* find_mount - the cgroup2 mount point (the hierarchy's root) into G.mount; -1 if none */
static int find_mount(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], root[PATH_MAX], point[PATH_MAX], *dash;
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		/* ID PARENT MAJ:MIN ROOT POINT OPTS... - FSTYPE SOURCE SUPER */
		dash = strstr(line, " - ");
		if (!dash || strncmp(dash + 3, "cgroup2 ", 8) ||
		    sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) != 2)
			continue;
		unescape(root);
		unescape(point);
		if (strcmp(root, "/"))
			continue;	/* a bind mount of a part of it */
		snprintf(G.mount, sizeof(G.mount), "%s", point);
		found = 0;
	}
	fclose(f);
	return found;
}

/*
 * mount_or_die - find the cgroup2 mount (once), or die in one line naming
 * OPT: there is none, or this process is in a cgroup namespace other than
 * the first (a container's): there the mount shows the namespace's subtree
 * while cgroup_attach_task names a cgroup by its path from the real root
 */
static void mount_or_die(const char *opt)
{
	struct stat st;

	if (G.mount[0])
		return;
	if (stat("/proc/self/ns/cgroup", &st) == 0 && st.st_ino != CGROUP_NS_INIT_INO)
		msg_die(EXIT_ERR, "%s: this process is in a cgroup namespace of its own (a "
			"container's), where the kernel's events name cgroups by paths its mount "
			"does not show: run it on the host", opt);
	if (find_mount() < 0)
		msg_die(EXIT_ERR, "%s: no cgroup v2 hierarchy is mounted (cgroup v1 only?)", opt);
}

/* cgscope_open - see cgscope.h */
void cgscope_open(const char *path)
{
	char want[2 * PATH_MAX], real[PATH_MAX], file[PATH_MAX + 16];
	size_t n;

	if (!path[0] || strchr(path, '\n'))
		msg_die(EXIT_ERR, "--cgroup: '%.60s' is no cgroup path", path);
	mount_or_die("--cgroup");
	if (path[0] == '/')
		snprintf(want, sizeof(want), "%s", path);
	else
		snprintf(want, sizeof(want), "%s/%s", G.mount, path);
	if (!realpath(want, real))
		msg_die(EXIT_ERR, "--cgroup %.200s: no such cgroup under %s", path, G.mount);
	n = strlen(G.mount);
	if (strcmp(G.mount, "/") &&
	    (strncmp(real, G.mount, n) || (real[n] != '/' && real[n] != '\0')))
		msg_die(EXIT_ERR, "--cgroup %.200s: not in the cgroup v2 hierarchy (%s)", path,
			G.mount);
	snprintf(file, sizeof(file), "%s/cgroup.procs", real);
	if (access(file, F_OK) < 0)
		msg_die(EXIT_ERR, "--cgroup %.200s: not a cgroup (no cgroup.procs)", path);
	snprintf(G.rel, sizeof(G.rel), "%s", strcmp(G.mount, "/") ? real + n : real);
	if (!G.rel[0])
		snprintf(G.rel, sizeof(G.rel), "/");
	G.on = 1;
}

/* cgscope_show - see cgscope.h */
void cgscope_show(void)
{
	mount_or_die("--show-cgroup");
	G.show = 1;
}

/* cgscope_need - see cgscope.h */
const char *cgscope_need(void)
{
	return G.on ? "--cgroup" : G.show ? "--show-cgroup" : NULL;
}

/* cgscope_formats - see cgscope.h */
size_t cgscope_formats(const char **list, size_t n)
{
	static const char *const cg[] = { CGSCOPE_FORMATS };
	size_t i;

	for (i = 0; tracking() && i < CGSCOPE_NR_FORMATS; i++)
		list[n++] = cg[i];
	return n;
}

/* cgscope_active - see cgscope.h */
int cgscope_active(void)
{
	return G.on;
}

/* inside - is the cgroup at path (from the hierarchy's root) the scope or below it */
static int inside(const char *path)
{
	size_t n = strlen(G.rel);

	if (!strcmp(G.rel, "/"))
		return 1;
	return !strncmp(path, G.rel, n) && (path[n] == '\0' || path[n] == '/');
}

/* know - task tid is in cgroup cg (or CG_OUT, CG_UNKNOWN) from time `from` */
static void know(int tid, int cg, unsigned long long from)
{
	struct member *m = pidmap_get(G.tasks, tid);

	if (!m) {
		m = xmalloc(sizeof(*m));
		pidmap_put(G.tasks, tid, m);
	}
	m->cg = cg;
	m->from = from;
}

/* state - what is known of tid at ts: its cgroup, CG_OUT or CG_UNKNOWN */
static int state(int tid, unsigned long long ts)
{
	struct member *m = pidmap_get(G.tasks, tid);

	if (ts >= G.blind_from && ts < G.blind_to)
		return CG_UNKNOWN;
	if (!m)		/* in no reading and never moved in */
		return G.show ? CG_UNKNOWN : CG_OUT;
	return ts >= m->from ? m->cg : CG_UNKNOWN;
}

/* the reading being made: tid -> cgroup + 1 */
static struct pidmap *reading;

/* read_tree - note every thread listed in the cgroup dir (rel from the root)
 * and those below it in `reading` */
static void read_tree(const char *dir, const char *rel)
{
	char path[PATH_MAX + 32], sub[PATH_MAX + 32];
	struct dirent *d;
	FILE *f;
	DIR *dp;
	int tid, cg = -1;

	snprintf(path, sizeof(path), "%s/cgroup.threads", dir);
	f = fopen(path, "re");
	if (f) {
		while (fscanf(f, "%d", &tid) == 1) {
			if (cg < 0)
				cg = intern(rel);
			pidmap_put(reading, tid, (void *)(long)(cg + 1));
		}
		fclose(f);
	}
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp)))
		if (d->d_type == DT_DIR && strcmp(d->d_name, ".") && strcmp(d->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
			snprintf(sub, sizeof(sub), "%s/%s", strcmp(rel, "/") ? rel : "", d->d_name);
			read_tree(path, sub);
		}
	closedir(dp);
}

/* read_all - a reading: of the whole hierarchy with --show-cgroup, else of the scope */
static struct pidmap *read_all(void)
{
	static char dir[2 * PATH_MAX];
	const char *rel = G.show ? "/" : G.rel;

	snprintf(dir, sizeof(dir), "%s%s", strcmp(G.mount, "/") ? G.mount : "",
		 strcmp(rel, "/") ? rel : "");
	if (!dir[0])
		snprintf(dir, sizeof(dir), "/");
	reading = pidmap_new(NULL);
	read_tree(dir, rel);
	return reading;
}

static struct pidmap *second;

/* judge - tid of either reading: known from the first if both list it there, else from `at` */
static int judge_first(int tid, void *val, void *arg)
{
	unsigned long long at = *(unsigned long long *)arg;
	long now = (long)pidmap_get(second, tid);

	if (now == (long)val)
		know(tid, (int)now - 1, 0);
	else if (now)
		know(tid, (int)now - 1, at);	/* moved between the readings */
	else	/* left the subtree, or ended, between the readings */
		know(tid, G.show ? CG_UNKNOWN : CG_OUT, at);
	return 1;
}

static int judge_second(int tid, void *val, void *arg)
{
	unsigned long long at = *(unsigned long long *)arg;

	if (!pidmap_get(G.tasks, tid))
		know(tid, (int)(long)val - 1, at);	/* came in (or began) between the readings */
	return 1;
}

/* on_attach - a task moved to another cgroup of the v2 hierarchy */
static void on_attach(const struct stream_rec *r)
{
	char path[PATH_MAX];

	decode_str(r->ev, r->rec, "dst_path", path, sizeof(path));
	know((int)decode_s64(r->ev, r->rec, "pid"), intern(path), r->rec->ts);
}

/* cgscope_newtask - see cgscope.h */
void cgscope_newtask(const struct stream_rec *r)
{
	int child = (int)decode_s64(r->ev, r->rec, "pid");

	if (!tracking())
		return;
	if (decode_u64(r->ev, r->rec, "clone_flags") & CLONE_INTO_CGROUP)
		know(child, CG_UNKNOWN, r->rec->ts);
	else
		know(child, state(decode_pid(r->ev, r->rec), r->rec->ts), r->rec->ts);
}

/* on_task_exit - a task ended: its ID may be another's next */
static void on_task_exit(const struct stream_rec *r)
{
	free(pidmap_take(G.tasks, (int)decode_s64(r->ev, r->rec, "pid")));
}

/* reread - after lost events: nothing known between the loss and a new reading */
static void reread(int cpu, unsigned long long ts, void *ctx)
{
	unsigned long long at;

	(void)cpu, (void)ctx;
	pidmap_clear(G.tasks);
	second = read_all();
	at = clock_ns();
	pidmap_sweep(second, judge_second, &at);
	pidmap_free(second);
	second = NULL;
	/* every record before the loss has been judged (time order) */
	G.blind_from = ts;
	G.blind_to = at;
}

/* cgscope_follow - see cgscope.h */
void cgscope_follow(struct session *s, int newtask_given)
{
	static const char *const evs[][2] = {
		{ "cgroup", "cgroup_attach_task" }, { "task", "task_newtask" },
		{ "sched", "sched_process_exit" },
	};
	size_t i;

	if (!tracking())
		return;
	/* an event the tool itself traces would go to the tool alone, unfiltered */
	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		if ((i != 1 || !newtask_given) && stream_handled(format_event(s, evs[i][0], evs[i][1])))
			msg_die(EXIT_ERR, "--cgroup: cannot trace %s:%s with it (it follows that "
				"event itself)", evs[i][0], evs[i][1]);
	if (!reorder_follow(s, "cgroup", "cgroup_attach_task", "dst_root == 0", on_attach, NULL) ||
	    (!newtask_given &&
	     !reorder_follow(s, "task", "task_newtask", NULL, cgscope_newtask, NULL)) ||
	    !reorder_follow(s, "sched", "sched_process_exit", NULL, on_task_exit, NULL))
		msg_die(EXIT_ERR, "--cgroup: this kernel lacks cgroup:cgroup_attach_task, "
			"task:task_newtask or sched:sched_process_exit");
	reorder_on_gap(reread, NULL);
	G.tasks = pidmap_new(free);
	G.first = read_all();
}

/* settle - what the two readings (G.first, second; the second done by `at`) tell */
static void settle(unsigned long long at)
{
	pidmap_sweep(G.first, judge_first, &at);
	pidmap_sweep(second, judge_second, &at);
	pidmap_free(second);
	second = NULL;
	pidmap_free(G.first);
	G.first = NULL;
}

/* cgscope_started - see cgscope.h */
void cgscope_started(void)
{
	if (!tracking())
		return;
	second = read_all();
	settle(clock_ns());
}

/* cgscope_in - see cgscope.h */
int cgscope_in(int tid, unsigned long long ts)
{
	int cg;

	if (!G.on)
		return 1;
	cg = state(tid, ts);
	if (cg == CG_UNKNOWN)
		G.unknown++;
	return cg >= 0 && inside(G.paths[cg]);
}

/* cgscope_cgroup - see cgscope.h */
const char *cgscope_cgroup(int tid, unsigned long long ts)
{
	int cg;

	if (!tracking())
		return NULL;
	cg = state(tid, ts);
	return cg >= 0 ? G.paths[cg] : NULL;
}

/* hexrun - the length of the run of lowercase hex digits at s */
static size_t hexrun(const char *s)
{
	size_t n = 0;

	while ((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'))
		n++;
	return n;
}

/* cgscope_container - see cgscope.h */
int cgscope_container(const char *path, char id[13])
{
	static const char *const prefixes[] = { "docker-", "cri-containerd-", "crio-", "libpod-",
						"" };
	const char *c, *end;
	size_t i, n, plen;

	/* the deepest component that is a container's: PREFIX? 64 hex (.scope)? */
	for (end = path + strlen(path); end > path; end = c) {
		for (c = end; c > path && c[-1] != '/'; c--)
			;
		for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
			plen = strlen(prefixes[i]);
			if (strncmp(c, prefixes[i], plen))
				continue;
			n = hexrun(c + plen);
			if (n == 64 && (c + plen + n == end ||
					(end - (c + plen + n) == 6 && !strncmp(c + plen + n, ".scope", 6)))) {
				memcpy(id, c + plen, 12);
				id[12] = '\0';
				return 1;
			}
		}
		if (c > path)
			c--;	/* the slash */
	}
	return 0;
}

/* cgscope_col - see cgscope.h */
void cgscope_col(struct line *l, const char *path)
{
	char id[13];
	int is = path && cgscope_container(path, id);

	if (!path)
		col_null(l, "cgroup", "?", ALIGN_LEFT, 12);
	else if (out_json)
		col_str(l, "cgroup", path, ALIGN_LEFT, 0, -1);
	else
		line_str(l, is ? id : path, ALIGN_LEFT, 12, -1);
	if (out_json)
		col_str(l, "container", is ? id : NULL, ALIGN_LEFT, 0, -1);
}

/* cgscope_report - see cgscope.h */
void cgscope_report(const char *what)
{
	if (G.unknown)
		msg_warn("%llu %s not shown: whether the task was in %s then is not known (it "
			 "moved as tracing began, was cloned straight into a cgroup, or events "
			 "were lost)", G.unknown, what, G.rel);
}

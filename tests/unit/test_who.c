/* SPDX-License-Identifier: GPL-2.0-only */
/* test_who - the set of tasks -p traces: kept in user space from forks and
 * exits (who_track), and given to the kernel as the process's threads,
 * written a page at a time without cutting a number, then read back. who.c
 * is built in, with the kernel's settings files kept in memory by the test:
 * the threads are this test's own. */
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <tracefs.h>

#include "kernel.h"
#include "msg.h"
#include "procread.h"
#include "session.h"
#include "unit.h"
#include "xalloc.h"

/* ---- the kernel's pid lists, as the test keeps them ---- */

static int offers_fork;			/* kernel_has(KF_EVENT_FORK), (KF_FUNC_FORK) */
static char calls[16384];		/* every write: "set|append|option TOP FILE VALUE\n" */
static char list[16384];		/* what the list file holds */
static int hide;			/* a thread the kernel did not keep (0: none) */

static void logged(const char *how, int top, const char *file, const char *value)
{
	size_t at = strlen(calls);

	snprintf(calls + at, sizeof(calls) - at, "%s %d %s %s\n", how, top, file, value);
}

static int fake_set(struct session *s, int top, const char *file, const char *value)
{
	(void)s;
	logged("set", top, file, value);
	if (strstr(file, "_pid"))
		snprintf(list, sizeof(list), "%s", value);
	return 0;
}

static int fake_append(struct session *s, int top, const char *file, const char *value)
{
	(void)s;
	logged("append", top, file, value);
	snprintf(list + strlen(list), sizeof(list) - strlen(list), " %s", value);
	return 0;
}

static int fake_option(struct session *s, const char *name, int on)
{
	(void)s;
	logged("option", 0, name, on ? "1" : "0");
	return 0;
}

/* the list as the kernel shows it, one a line, less the hidden thread */
static char *fake_read(struct tracefs_instance *inst, const char *file, int *psize)
{
	char *text = xmalloc(strlen(list) + 2), *p, *end;
	size_t at = 0;
	long v;

	(void)inst, (void)file, (void)psize;
	for (p = list; *p; p = end > p ? end : p + 1) {
		v = strtol(p, &end, 10);
		if (end > p && v != hide)
			at += sprintf(text + at, "%ld\n", v);
	}
	text[at] = '\0';
	return text;
}

/*
 * the threads a listing finds: this process's own (scripted 0), or a process
 * whose listings find 101 102 103, then 104 too (1), or one more each time (2)
 */
static int scripted, listings;

static int fake_tids(pid_t pid, pid_t **out)
{
	int n = scripted == 1 ? (listings ? 4 : 3) : 1, i;

	if (!scripted)
		return proc_tids(pid, out);
	*out = xcalloc(n, sizeof(**out));
	for (i = 0; i < n; i++)
		(*out)[i] = scripted == 1 ? 101 + i : 1000 + listings;
	listings++;
	return n;
}

static int fake_kernel_has(enum kernel_feature f)
{
	return (f == KF_EVENT_FORK || f == KF_FUNC_FORK) && offers_fork;
}

#define session_set fake_set
#define session_append fake_append
#define session_option fake_option
#define tracefs_instance_file_read fake_read
#define kernel_has fake_kernel_has
#define proc_tids fake_tids
#include "../../common/who.c"

static struct session sess = { .name = "ftt-unit-1-2" };

/* ---- this process's threads ---- */

static int go[2];
static pid_t tids[4];
static int ntids;

/* idle - a thread that waits for the end of the test */
static void *idle(void *arg)
{
	char b;

	__atomic_store_n(&tids[(long)arg], (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	while (read(go[0], &b, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* start_thread - one more thread; its TID */
static pid_t start_thread(pthread_t *t)
{
	long k = ntids++;

	tids[k] = 0;
	if (pthread_create(t, NULL, idle, (void *)k) != 0)
		return 0;
	while (!__atomic_load_n(&tids[k], __ATOMIC_SEQ_CST))
		usleep(1000);
	return tids[k];
}

/* ids - the numbers of TEXT sorted, as text ("1 2 3") in buf */
static const char *ids(const char *text, char *buf, size_t len)
{
	long v[64], t;
	char *end;
	int n = 0, i, j;

	for (; *text && n < 64; text = end > text ? end : text + 1) {
		t = strtol(text, &end, 10);
		if (end > text)
			v[n++] = t;
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--)
			t = v[j], v[j] = v[j - 1], v[j - 1] = t;
	buf[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%ld", i ? " " : "", v[i]);
	return buf;
}

static void same(const char *name, const char *got, const char *want)
{
	CHECK(name, !strcmp(got, want));
	if (strcmp(got, want))
		printf("     got:\n%s\n     wanted:\n%s\n", got, want);
}

/* first_line - cut TEXT after its first line */
static void first_line(char *text)
{
	char *nl = strchr(text, '\n');

	if (nl)
		nl[1] = '\0';
}

/* numbers - FIRST, FIRST+1, ... N of them, joined by spaces, into buf */
static char *numbers(char *buf, size_t len, int first, int n)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%d", i ? " " : "", first + i);
	return buf;
}

/* longest - the longest value written, in bytes */
static size_t longest(void)
{
	const char *p, *v;
	size_t most = 0, n;

	for (p = calls; *p; p += strcspn(p, "\n") + 1) {
		v = strchr(strchr(strchr(p, ' ') + 1, ' ') + 1, ' ') + 1;	/* the fourth word */
		n = strcspn(v, "\n");
		if (n > most)
			most = n;
	}
	return most;
}

/* a list the kernel takes a page at a time: cut at a blank, never inside a number */
static void test_write_list(void)
{
	static char text[4096], want[8192], a[2048], b[2048], c[2048];
	int trunc;

	/* 300 numbers of 6 digits, 7 bytes each with the blank: 146 fit in 1024 */
	numbers(text, sizeof(text), 100000, 300);
	calls[0] = '\0';
	trunc = 1;
	CHECK("write_list: 2099 bytes", strlen(text) == 2099 &&
	      write_list(&sess, 0, "set_event_pid", text, &trunc) == 0 && trunc == 0);
	snprintf(want, sizeof(want),
		 "set 0 set_event_pid %s\nappend 0 set_event_pid %s\nappend 0 set_event_pid %s\n",
		 numbers(a, sizeof(a), 100000, 146), numbers(b, sizeof(b), 100146, 146),
		 numbers(c, sizeof(c), 100292, 8));
	same("write_list: writes of 146, 146 and 8, the first replacing the list", calls, want);
	CHECK("write_list: 1021 bytes the most", longest() == 1021);

	/* 4 digits: the 205th number ends at byte 1024, a blank after it */
	numbers(text, sizeof(text), 1000, 300);
	calls[0] = '\0';
	trunc = 0;
	CHECK("write_list: appended to", write_list(&sess, 1, "set_ftrace_pid", text, &trunc) == 0);
	snprintf(want, sizeof(want), "append 1 set_ftrace_pid %s\nappend 1 set_ftrace_pid %s\n",
		 numbers(a, sizeof(a), 1000, 205), numbers(b, sizeof(b), 1205, 95));
	same("write_list: a whole page of 1024 bytes, then the rest", calls, want);
	CHECK("write_list: 1024 bytes the most", longest() == 1024);
}

/* the set kept in user space: this process's threads, then who they start */
static void test_track(pid_t t1, pid_t t2)
{
	char label[96];

	CHECK("track: nothing tracked yet", !who_has(getpid()) && !who_has(t1));
	who_fork(getpid(), 999001);
	CHECK("track: a fork before tracking is nobody's", !who_has(999001));
	who_track(getpid());
	snprintf(label, sizeof(label), "track: the threads %d %d %d", (int)getpid(), (int)t1,
		 (int)t2);
	CHECK(label, who_has(getpid()) && who_has(t1) && who_has(t2));
	CHECK("track: not the parent", !who_has(getppid()));
	who_fork(t1, 999002);
	who_fork(999002, 999003);
	who_fork(999004, 999005);
	CHECK("track: a thread's child and its child", who_has(999002) && who_has(999003));
	CHECK("track: another process's child", !who_has(999004) && !who_has(999005));
	who_exit(999002);
	CHECK("track: an exit leaves the set, its child stays",
	      !who_has(999002) && who_has(999003));
	who_exit(999004);
	CHECK("track: an exit of another task changes nothing", who_has(999003) && who_has(t2));
	who_fork(999002, 999006);
	CHECK("track: a TID that left forks nobody's", !who_has(999006));
}

/* no_fork_option - in a child: who_events on a kernel without event-fork */
static void no_fork_option(const void *arg)
{
	(void)arg;
	offers_fork = 0;
	who_events(&sess, getppid());
}

/* not_kept - in a child: who_events for the parent, whose thread the kernel drops */
static void not_kept(const void *arg)
{
	hide = *(const pid_t *)arg;
	pidmap_free(listed);
	listed = NULL;
	calls[0] = list[0] = '\0';
	who_events(&sess, getppid());
}

/* too_fast - in a child: who_events for a process with a new thread at every listing */
static void too_fast(const void *arg)
{
	(void)arg;
	pidmap_free(listed);
	listed = NULL;
	scripted = 2;
	listings = 0;
	who_events(&sess, 100);
}

/* the set given to the kernel: the option first, each thread once, read back */
static void test_events(pid_t t1, pid_t t2)
{
	char want[256], err[512], a[512], b[512], *p;
	struct utsname u;
	int rc;

	offers_fork = 1;
	calls[0] = list[0] = '\0';
	who_events(&sess, 0);
	CHECK("events: pid 0, nothing written", !calls[0]);
	who_events(&sess, getpid());
	p = strchr(calls, '\n');
	CHECK("events: the fork option first", !strncmp(calls, "option 0 event-fork 1\n", 22) &&
	      p && !strncmp(p + 1, "set 0 set_event_pid ", 20));
	snprintf(want, sizeof(want), "%d %d %d", (int)getpid(), (int)t1, (int)t2);
	same("events: every thread, written once", ids(list, a, sizeof(a)),
	     ids(want, b, sizeof(b)));
	CHECK("events: one write of the list", p && !strchr(strchr(p + 1, '\n') + 1, '\n'));

	/* a thread started while the list was written: listed again, appended */
	pidmap_free(listed);
	listed = NULL;
	scripted = 1;
	listings = 0;
	calls[0] = '\0';
	who_events(&sess, 100);
	same("events: a thread started meanwhile, appended", calls,
	     "option 0 event-fork 1\nset 0 set_event_pid 101 102 103\n"
	     "append 0 set_event_pid 104\n");
	CHECK("events: listed until a listing finds nothing new, then read back", listings == 4);
	scripted = 0;

	/* the kernel kept all but one that still runs: a refusal */
	/* (the first line of a child's stderr: a sanitizer may add its own, a
	 * forked child of a process with threads) */
	rc = unit_exit_status(not_kept, &t2, err, sizeof(err));
	first_line(err);
	snprintf(want, sizeof(want), "ftt: -p: the kernel did not keep thread %d in set_event_pid\n",
		 (int)t2);
	CHECK("events: a thread not kept is an error", rc == EXIT_ERR);
	same("events: a thread not kept, said", err, want);

	rc = unit_exit_status(too_fast, NULL, err, sizeof(err));
	first_line(err);
	CHECK("events: a process that starts threads faster than listed", rc == EXIT_ERR);
	same("events: faster than listed, said", err,
	     "ftt: PID 100 starts threads faster than they can be listed\n");

	rc = unit_exit_status(no_fork_option, NULL, err, sizeof(err));
	first_line(err);
	if (uname(&u) < 0)
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(want, sizeof(want), "ftt: -p: no event filtering by task that follows forks "
		 "(set_event_pid, options/event-fork: 4.5+) in Linux %s\n", u.release);
	CHECK("events: no event-fork is an error", rc == EXIT_ERR);
	same("events: no event-fork, said", err, want);
}

/* the function tracers' list: one thread alone, as it is given */
static void test_ftrace(void)
{
	calls[0] = '\0';
	who_ftrace(&sess, 1, 0, 4321);
	same("ftrace: a TID alone, at the top level", calls, "set 1 set_ftrace_pid 4321\n");
	calls[0] = '\0';
	who_ftrace(&sess, 0, 0, 0);
	CHECK("ftrace: neither, nothing written", !calls[0]);
}

int main(void)
{
	pthread_t t[2];
	pid_t t1, t2;

	if (pipe(go) < 0)
		return unit_skip("who", "no pipe");
	t1 = start_thread(&t[0]);
	t2 = start_thread(&t[1]);
	if (!t1 || !t2)
		return unit_skip("who", "cannot start threads");
	test_write_list();
	test_track(t1, t2);
	test_events(t1, t2);
	test_ftrace();
	close(go[1]);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	return unit_done("who");
}

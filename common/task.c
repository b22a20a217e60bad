/* SPDX-License-Identifier: GPL-2.0-only */
/* task.c - each thread's process and system call numbers, from the trace's
 * task events (task.h) */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "pidmap.h"
#include "procread.h"
#include "task.h"
#include "xalloc.h"


struct task {
	int tgid;		/* 0: not known */
	enum abi abi;
	unsigned long long from;	/* both hold for records at or after it */
	int reused;		/* since the start, another task took the ID */
	int abis;		/* since the start, it ran another table (or may have) */
	int blind;		/* its records were for a while of no known table */
};

#define NEVER ULLONG_MAX	/* from: for no record, until an event says */

static struct pidmap *tasks;

/* class - the table of an ELF header's class; ABI_UNKNOWN if not ELF */
static enum abi class(const unsigned char *h, ssize_t n)
{
	if (n < 5 || memcmp(h, "\177ELF", 4))
		return ABI_UNKNOWN;
	if (h[4] == (sizeof(long) == 8 ? 2 : 1))
		return ABI_NATIVE;
	return h[4] == 1 || h[4] == 2 ? ABI_COMPAT : ABI_UNKNOWN;
}

/* file_abi - the table of the file at path; depth: #! lines still followed */
static enum abi file_abi(const char *path, int depth)
{
	unsigned char h[256];
	char interp[256];
	ssize_t n;
	size_t i, k = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return ABI_UNKNOWN;
	n = pread(fd, h, sizeof(h) - 1, 0);
	close(fd);
	if (n >= 2 && h[0] == '#' && h[1] == '!' && depth > 0) {
		for (i = 2; i < (size_t)n && (h[i] == ' ' || h[i] == '\t'); i++)
			;
		for (; i < (size_t)n && h[i] != ' ' && h[i] != '\t' && h[i] != '\n' &&
		       k + 1 < sizeof(interp); i++)
			interp[k++] = (char)h[i];
		interp[k] = '\0';
		if (i == (size_t)n || interp[0] != '/')
			return ABI_UNKNOWN;	/* a line cut short, or no path */
		return file_abi(interp, depth - 1);
	}
	return class(h, n);
}

/* task_file_abi - see task.h */
enum abi task_file_abi(const char *path)
{
	return file_abi(path, 4);
}

/* get - tid's entry, or NULL */
static struct task *get(int tid)
{
	return tasks ? pidmap_get(tasks, tid) : NULL;
}

/* set - tid belongs to tgid and runs table abi from `from` on; fresh: a new task took the ID */
static void set(int tid, int tgid, enum abi abi, unsigned long long from, int fresh)
{
	struct task *t = get(tid);

	if (!tasks)
		tasks = pidmap_new(free);
	if (!t) {
		t = xcalloc(1, sizeof(*t));
		*t = (struct task){ tgid, abi, from, 0, 0, 0 };
		pidmap_put(tasks, tid, t);
		return;
	}
	t->from = from;
	if (fresh || t->tgid != tgid)
		t->reused = 1;
	if (t->abi != abi)
		t->abis = 1;
	t->tgid = tgid;
	t->abi = abi;
}

/* exe_abi - the table of process tgid's program now (kernel threads have
 * none, and make no calls from user space) */
static enum abi exe_abi(int tgid)
{
	char path[48];

	snprintf(path, sizeof(path), "/proc/%d/exe", tgid);
	return file_abi(path, 0);
}

/* note - proc_threads callback before tracing: thread tid of process tgid,
 * by its program now, for every record to come */
static void note(int tid, int tgid, void *arg)
{
	(void)arg;
	set(tid, tgid, exe_abi(tgid), 0, 0);
}

/* task_start - see task.h */
void task_start(void)
{
	proc_threads(note, NULL);
}

/* settle_note - proc_threads callback once tracing runs: a thread not read
 * before, or of another process or program now, changed where the trace may
 * not have seen it */
static void settle_note(int tid, int tgid, void *arg)
{
	struct task *t = get(tid);

	(void)arg;
	if (!t || t->tgid != tgid || t->abi != exe_abi(tgid)) {
		set(tid, 0, ABI_UNKNOWN, NEVER, 1);
		get(tid)->blind = 1;
	}
}

/* task_settle - see task.h */
void task_settle(void)
{
	proc_threads(settle_note, NULL);
}

/* task_new - see task.h */
void task_new(int parent, int child, unsigned long long clone_flags, unsigned long long ts)
{
	struct task *p = get(parent);
	int known = p && ts >= p->from;
	int tgid = task_tgid_of_new(clone_flags, known ? p->tgid : 0, child);

	set(child, tgid, known ? p->abi : ABI_UNKNOWN, ts, 1);
}

/* task_exec - see task.h: old_pid's calls before it stay its own */
void task_exec(int pid, int old_pid, const char *path, unsigned long long ts)
{
	(void)old_pid;
	set(pid, pid, task_file_abi(path), ts, 0);
}

/* gap_note - proc_threads callback after lost events: tid read again, keeping
 * what the table before (arg) knew of it; it may have run another program
 * among them, and the reading holds from now (arg2: the time) on */
static void gap_note(int tid, int tgid, void *arg)
{
	const unsigned long long *now = ((void **)arg)[1];
	struct task *old = pidmap_take(((void **)arg)[0], tid);

	if (old)
		pidmap_put(tasks, tid, old);
	set(tid, tgid, exe_abi(tgid), *now, 0);
	get(tid)->blind = 1;
}

/* task_gap - see task.h: a thread /proc no longer lists is not known */
void task_gap(int mono)
{
	struct pidmap *was = tasks;
	unsigned long long now = mono ? clock_ns() : NEVER;
	void *arg[2] = { was, &now };

	tasks = pidmap_new(free);
	if (was)
		proc_threads(gap_note, arg);
	pidmap_free(was);
}

/* task_abi - see task.h */
enum abi task_abi(int tid, unsigned long long ts)
{
	struct task *t = get(tid);

	return t && ts >= t->from ? t->abi : ABI_UNKNOWN;
}

/* task_tgid - see task.h */
int task_tgid(int tid, unsigned long long ts)
{
	struct task *t = get(tid);

	return t && ts >= t->from ? t->tgid : 0;
}

/* task_tgid_throughout - see task.h */
int task_tgid_throughout(int tid)
{
	struct task *t = get(tid);

	return t && !t->reused && !t->blind ? t->tgid : 0;
}

/* task_abi_throughout - see task.h */
enum abi task_abi_throughout(int tid)
{
	struct task *t = get(tid);

	return t && !t->abis && !t->reused && !t->blind ? t->abi : ABI_UNKNOWN;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* task.c - each thread's process and system call numbers, from the trace's
 * task events (task.h) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pidmap.h"
#include "procread.h"
#include "task.h"
#include "xalloc.h"

#define CLONE_THREAD_FLAG 0x00010000ULL	/* the kernel's CLONE_THREAD */

struct task {
	int tgid;		/* 0: not known */
	enum abi abi;
	int reused;		/* since the start, another task took the ID */
	int abis;		/* since the start, it ran another table */
};

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

/* set - tid belongs to tgid and runs table abi now; fresh: a new task took the ID */
static void set(int tid, int tgid, enum abi abi, int fresh)
{
	struct task *t = get(tid);

	if (!tasks)
		tasks = pidmap_new(free);
	if (!t) {
		t = xcalloc(1, sizeof(*t));
		*t = (struct task){ tgid, abi, 0, 0 };
		pidmap_put(tasks, tid, t);
		return;
	}
	if (fresh || t->tgid != tgid)
		t->reused = 1;
	if (t->abi != abi)
		t->abis = 1;
	t->tgid = tgid;
	t->abi = abi;
}

/* note - proc_threads callback: thread tid of process tgid, by its program now */
static void note(int tid, int tgid, void *arg)
{
	char path[48];

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%d/exe", tgid);
	/* kernel threads have no program, and make no calls from user space */
	set(tid, tgid, file_abi(path, 0), 0);
}

/* task_start - see task.h */
void task_start(void)
{
	proc_threads(note, NULL);
}

/* task_new - see task.h */
void task_new(int parent, int child, unsigned long long clone_flags)
{
	struct task *p = get(parent);
	int tgid = clone_flags & CLONE_THREAD_FLAG ? (p ? p->tgid : 0) : child;

	set(child, tgid, p ? p->abi : ABI_UNKNOWN, 1);
}

/* task_exec - see task.h: old_pid's calls before it stay its own */
void task_exec(int pid, int old_pid, const char *path)
{
	(void)old_pid;
	set(pid, pid, task_file_abi(path), 0);
}

/* gap_note - proc_threads callback after lost events: tid read again, keeping
 * what the table before (arg) knew of it */
static void gap_note(int tid, int tgid, void *arg)
{
	struct task *old = pidmap_take(arg, tid);

	if (old)
		pidmap_put(tasks, tid, old);
	note(tid, tgid, NULL);
}

/* task_gap - see task.h: a thread /proc no longer lists is not known */
void task_gap(void)
{
	struct pidmap *was = tasks;

	tasks = pidmap_new(free);
	if (was)
		proc_threads(gap_note, was);
	pidmap_free(was);
}

/* task_abi - see task.h */
enum abi task_abi(int tid)
{
	struct task *t = get(tid);

	return t ? t->abi : ABI_UNKNOWN;
}

/* task_tgid - see task.h */
int task_tgid(int tid)
{
	struct task *t = get(tid);

	return t ? t->tgid : 0;
}

/* task_tgid_throughout - see task.h */
int task_tgid_throughout(int tid)
{
	struct task *t = get(tid);

	return t && !t->reused ? t->tgid : 0;
}

/* task_abi_throughout - see task.h */
enum abi task_abi_throughout(int tid)
{
	struct task *t = get(tid);

	return t && !t->abis && !t->reused ? t->abi : ABI_UNKNOWN;
}

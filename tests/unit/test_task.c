/* SPDX-License-Identifier: GPL-2.0-only */
/* test_task - each thread's process and call numbers: programs' ELF classes,
 * new threads and processes, execs, IDs taken again */
#include "task.h"
#include "unit.h"

static char dir[] = "/tmp/test_task.XXXXXX";

/* file - dir/name holding the n bytes s ; its path (static, one of 8 in turn) */
static const char *file(const char *name, const char *s, size_t n)
{
	static char path[8][256];
	static int at;
	FILE *f;

	at = (at + 1) % 8;
	snprintf(path[at], sizeof(path[at]), "%s/%s", dir, name);
	f = fopen(path[at], "w");
	if (!f || fwrite(s, 1, n, f) != n || fclose(f))
		exit(1);
	return path[at];
}

int main(void)
{
	const char *e32, *e64, *text, *sh32, *shshort, *shrel;
	char line[300];

	if (!mkdtemp(dir))
		return 1;
	e32 = file("e32", "\177ELF\001\001\001", 7);
	e64 = file("e64", "\177ELF\002\001\001", 7);
	text = file("text", "hello\n", 6);
	snprintf(line, sizeof(line), "#! %s -x\nexit\n", e32);
	sh32 = file("sh32", line, strlen(line));
	shshort = file("shshort", "#!/bin/s", 8);
	shrel = file("shrel", "#!e32\n", 6);

	CHECK("64-bit ELF: native", task_file_abi(e64) == ABI_NATIVE);
	CHECK("32-bit ELF: compat", task_file_abi(e32) == ABI_COMPAT);
	CHECK("text: not known", task_file_abi(text) == ABI_UNKNOWN);
	CHECK("missing file: not known", task_file_abi("/nonexistent/x") == ABI_UNKNOWN);
	CHECK("empty path: not known", task_file_abi("") == ABI_UNKNOWN);
	CHECK("#! script: its interpreter's", task_file_abi(sh32) == ABI_COMPAT);
	CHECK("#! line cut short: not known", task_file_abi(shshort) == ABI_UNKNOWN);
	CHECK("#! relative interpreter: not known", task_file_abi(shrel) == ABI_UNKNOWN);
	CHECK("this program: native", task_file_abi("/proc/self/exe") == ABI_NATIVE);

	/* the threads that run now: this one at least */
	task_start();
	CHECK("start: this thread's process", task_tgid(getpid(), 100) == getpid());
	CHECK("start: this thread's table", task_abi(getpid(), 100) == ABI_NATIVE);
	CHECK("unseen thread: not known", task_tgid(4100000, 100) == 0 &&
	      task_abi(4100000, 100) == ABI_UNKNOWN && task_abi_throughout(4100000) == ABI_UNKNOWN);

	/* a process execs a 32-bit program, makes a thread and a child */
	task_exec(4100001, 4100001, e64, 10);
	task_exec(4100001, 4100001, e32, 10);
	CHECK("exec: the new program's table", task_abi(4100001, 100) == ABI_COMPAT);
	CHECK("exec: two tables in the run", task_abi_throughout(4100001) == ABI_UNKNOWN);
	CHECK("exec: one process throughout", task_tgid_throughout(4100001) == 4100001);
	task_new(4100001, 4100002, 0x10000 | 0x100, 20);	/* CLONE_THREAD | CLONE_VM */
	task_new(4100001, 4100003, 0x11, 20);		/* SIGCHLD */
	CHECK("thread: its parent's process", task_tgid(4100002, 100) == 4100001);
	CHECK("thread: its parent's table", task_abi(4100002, 100) == ABI_COMPAT &&
	      task_abi_throughout(4100002) == ABI_COMPAT);
	CHECK("child: a process of its own", task_tgid(4100003, 100) == 4100003 &&
	      task_tgid_throughout(4100003) == 4100003);
	CHECK("child: its parent's table", task_abi(4100003, 100) == ABI_COMPAT);
	task_new(4100099, 4100004, 0x10000, 20);
	CHECK("thread of a parent not known: no process", task_tgid(4100004, 100) == 0 &&
	      task_abi(4100004, 100) == ABI_UNKNOWN);

	/* a thread ID taken again by a task of another process */
	task_new(4100003, 4100002, 0x11, 20);
	CHECK("ID taken again: the new task now", task_tgid(4100002, 100) == 4100002);
	CHECK("ID taken again: no one process throughout", task_tgid_throughout(4100002) == 0);
	CHECK("ID taken again: no one table throughout",
	      task_abi_throughout(4100002) == ABI_UNKNOWN);

	/* a thread's exec: it becomes its process's leader */
	task_new(4100003, 4100005, 0x10000, 20);
	task_exec(4100003, 4100005, e64, 10);
	CHECK("exec from a thread: the leader runs the program", task_abi(4100003, 100) == ABI_NATIVE &&
	      task_tgid(4100003, 100) == 4100003);

	/* a reading after tracing began: a thread it shows changed is not known
	 * until its next event (the test's own thread did not change) */
	task_settle();
	CHECK("settle: an unchanged thread stays known", task_abi(getpid(), 0) == ABI_NATIVE &&
	      task_abi_throughout(getpid()) == ABI_NATIVE);

	/* lost events: what /proc lists again is kept, from the reading on (mono
	 * clock); before it, and with no mono clock, it is not known */
	task_gap(1);
	CHECK("gap: this thread read again", task_tgid(getpid(), ~0ULL - 1) == getpid() &&
	      task_abi(getpid(), ~0ULL - 1) == ABI_NATIVE);
	CHECK("gap: not for records before the reading", task_abi(getpid(), 100) == ABI_UNKNOWN &&
	      task_tgid(getpid(), 100) == 0);
	CHECK("gap: no longer one table throughout", task_abi_throughout(getpid()) == ABI_UNKNOWN);
	task_gap(0);
	CHECK("gap without the mono clock: not known", task_abi(getpid(), ~0ULL - 1) == ABI_UNKNOWN);
	CHECK("gap: a thread /proc does not list is not known", task_tgid(4100003, 100) == 0 &&
	      task_abi(4100003, 100) == ABI_UNKNOWN);

	snprintf(line, sizeof(line), "rm -rf '%s'", dir);
	if (system(line) != 0)
		return 1;
	return unit_done("task");
}

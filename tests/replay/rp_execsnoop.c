/* SPDX-License-Identifier: GPL-2.0-only */
/* rp_execsnoop - execsnoop's own handlers (the tool file, built in with its
 * main renamed) and the capture's values (its rung set to the uprobes in
 * struct capture, without making any) over replayed records */
#define main execsnoop_main
#include "../../tools/execsnoop.c"
#undef main

#include "replay.h"

#define TID "4000002"
/* the exec's uprobe as this host's C library gives it (-a 2), file and argv at 0x1000, 0x2000 */
#define UPROBE "common_pid=" TID " fp=0x1000 ap=0x2000 fn=/bin/first p0=0x3000 a0=first " \
	"p1=0x3008 a1=-x p2=0"
#define ENTER "common_pid=" TID " filename=0x1000 argv=0x2000"
#define EXEC "old_pid=" TID " pid=" TID " filename=/bin/second common_pid=" TID

/* prepare - what execsnoop's main sets up (-a 2), the capture on uprobes (group ftt_replay) */
static void prepare(void)
{
	struct session *s = rp_session();

	o.argc = 2;
	snprintf(s->group, sizeof(s->group), "ftt_replay");
	setenv("FTT_CAPTURE", "none", 1);
	cap = ladder_open(s, CAP_EXEC, o.argc);
	cap->rung = CAP_UPROBE;
	cap->names[cap->nev++] = xstrdup("cap0_execve");
	capture_load(cap, (const char *const[]){ "sched:sched_process_exec",
		"sched:sched_process_fork", "syscalls:sys_enter_execve",
		"syscalls:sys_exit_execve", "task:task_newtask", NULL });
	pending = calls_new(NULL, free);
	parent = pidmap_new(NULL);
	tgid_start(0);
	follow(s, NULL);
}

/* exec_taken - the uprobe, the entry, the exec: the arguments taken at the call */
static void exec_taken(void)
{
	prepare();
	rp_rec(0, 1000, "ftt_replay:cap0_execve", UPROBE);
	rp_rec(0, 1100, "syscalls:sys_enter_execve", ENTER);
	rp_page(1, 1, 0);
	rp_rec(1, 3000, "sched:sched_process_exec", EXEC);
	rp_run();
}

/*
 * pending_before_gap - the uprobe and entry of one exec, then events lost
 * (they can hold its end, and another exec's uprobe and entry with the same
 * pointers), then an exec: the first call's arguments must not be shown
 */
static void pending_before_gap(void)
{
	prepare();
	rp_rec(0, 1000, "ftt_replay:cap0_execve", UPROBE);
	rp_rec(0, 1100, "syscalls:sys_enter_execve", ENTER);
	rp_page(0, 1, 4);
	rp_rec(0, 3000, "sched:sched_process_exec", EXEC);
	rp_run();
}

/*
 * value_before_gap_read_late - the uprobe (t=1000, CPU 0) is read a drain
 * after CPU 1's gap (first record after it at t=2000): the entry at t=2500
 * and the exec after the gap must not get the value taken before it
 */
static void value_before_gap_read_late(void)
{
	prepare();
	rp_page(1, 0, 4);
	rp_rec(1, 2000, "sched:sched_process_fork", "parent_pid=1 child_pid=4000009");
	rp_page(0, 1, 0);
	rp_rec(0, 1000, "ftt_replay:cap0_execve", UPROBE);
	rp_rec(0, 2500, "syscalls:sys_enter_execve", ENTER);
	rp_rec(0, 3000, "sched:sched_process_exec", EXEC);
	rp_run();
}

/*
 * value_aged_out - a value taken at t=1 us that no call took (as a creat() the
 * tool does not follow leaves one), then another task's value 12 s later: the
 * first is dropped by age, so an exec of its task then shows no arguments
 */
static void value_aged_out(void)
{
	prepare();
	rp_rec(0, 1000, "ftt_replay:cap0_execve", UPROBE);
	rp_rec(0, 12000000000ULL, "ftt_replay:cap0_execve",
	       "common_pid=4000003 fp=0x1000 ap=0x2000 fn=/bin/other p0=0");
	rp_rec(0, 12000001000ULL, "syscalls:sys_enter_execve", ENTER);
	rp_rec(0, 12000002000ULL, "sched:sched_process_exec", EXEC);
	rp_run();
}

/*
 * parent_before_gap - process 100 forks TID, then events lost (they can hold
 * TID's exit and a fork by another process that takes the same PID), then
 * TID's exec: its parent is not known, so PPID is ?, not 100
 */
static void parent_before_gap(void)
{
	prepare();
	tgid_put(100, 100, 0);
	rp_rec(0, 1000, "sched:sched_process_fork", "parent_pid=100 child_pid=" TID);
	rp_page(0, 1, 4);
	rp_rec(0, 3000, "sched:sched_process_exec", EXEC);
	rp_run();
}

/* parent_known - the same without the gap: PPID 100 */
static void parent_known(void)
{
	prepare();
	tgid_put(100, 100, 0);
	rp_rec(0, 1000, "sched:sched_process_fork", "parent_pid=100 child_pid=" TID);
	rp_rec(0, 3000, "sched:sched_process_exec", EXEC);
	rp_run();
}

/*
 * child_fails_gone - process 100 makes a process (no CLONE_THREAD) TID, which
 * fails an exec and is gone before /proc could be read: its process is TID
 * itself, from task_newtask's flags alone, and its parent 100
 */
static void child_fails_gone(void)
{
	prepare();
	o.fails = 1;
	tgid_put(100, 100, 0);
	rp_rec(0, 900, "task:task_newtask",
	       "common_pid=100 pid=" TID " comm=sh clone_flags=0x1200011 oom_score_adj=0");
	rp_rec(0, 1000, "sched:sched_process_fork", "parent_pid=100 child_pid=" TID);
	rp_rec(0, 2000, "syscalls:sys_enter_execve", ENTER);
	rp_rec(0, 2100, "syscalls:sys_exit_execve", "common_pid=" TID " ret=-2");
	rp_run();
}

/*
 * thread_fails - thread TID of process 100 (CLONE_THREAD from 100), whose
 * parent is 50, fails an exec: PID TID, PPID 50, the process's parent
 */
static void thread_fails(void)
{
	prepare();
	o.fails = 1;
	tgid_put(100, 100, 0);
	pidmap_put(parent, 100, (void *)50L);
	rp_rec(0, 900, "task:task_newtask",
	       "common_pid=100 pid=" TID " comm=sh clone_flags=0x3d0f00 oom_score_adj=0");
	rp_rec(0, 2000, "syscalls:sys_enter_execve", ENTER);
	rp_rec(0, 2100, "syscalls:sys_exit_execve", "common_pid=" TID " ret=-2");
	rp_run();
}

/* one_line - case fn prints line exactly once */
static void one_line(void (*fn)(void), const char *name, const char *line)
{
	char *out = rp_case(fn);

	rp_check(name, rp_lines(out, line) == 1, out);
	free(out);
}

int main(void)
{
	char *out;

	out = rp_case(exec_taken);
	rp_check("execsnoop/arguments_taken_at_the_call",
		 rp_lines(out, TID " ") == 1 && rp_lines(out, " first -x") == 1, out);
	free(out);
	out = rp_case(pending_before_gap);
	rp_check("execsnoop/no_arguments_of_another_call_after_gap",
		 rp_lines(out, TID " ") == 1 && rp_lines(out, "/bin/second [?]") == 1, out);
	free(out);
	out = rp_case(value_before_gap_read_late);
	rp_check("execsnoop/capture_value_before_gap_read_late",
		 rp_lines(out, TID " ") == 1 && rp_lines(out, "/bin/second [?]") == 1, out);
	free(out);
	out = rp_case(value_aged_out);
	rp_check("execsnoop/capture_value_dropped_by_age",
		 rp_lines(out, TID " ") == 1 && rp_lines(out, "/bin/second [?]") == 1, out);
	free(out);
	one_line(parent_known, "execsnoop/parent_from_the_fork", TID "    100 /bin/second");
	out = rp_case(parent_before_gap);
	rp_check("execsnoop/no_parent_from_before_a_gap",
		 rp_lines(out, TID " ") == 1 && rp_lines(out, TID "      ? /bin/second") == 1, out);
	free(out);
	one_line(child_fails_gone, "execsnoop/failed_exec_of_a_child_gone_before_proc",
		 TID "    100 ENOENT");
	one_line(thread_fails, "execsnoop/failed_exec_of_a_thread", TID "     50 ENOENT");
	return rp_done("replay execsnoop");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* task.h - what the trace's task events say of each thread: the process it
 * belongs to, and which system call numbers it uses
 *
 * A 64-bit kernel also runs 32-bit programs (ia32 on x86-64), whose calls
 * reach raw_syscalls with the 32-bit table's numbers: the same number names
 * another call there. A thread's table is its program's ELF class, fixed
 * from one exec to the next; a new thread (task:task_newtask, recorded in its
 * parent) takes its parent's program, and its parent's process too when it
 * is made a thread of it (CLONE_THREAD), else it is a process of its own. The
 * tool hands on those events and sched_process_exec in time order; /proc
 * gives the threads that run at the start. What /proc says is used only for
 * records it can be true of: the start's threads are read before tracing
 * begins and again after, and one that changed between (an exec or a new
 * thread the trace may have missed) is not known until its next event; after
 * lost events a reading counts only from the time it was made (mono clock).
 */
#ifndef FTT_TASK_H
#define FTT_TASK_H

/* the events a tool follows for this, for its format_load list */
#define TASK_FORMATS "task:task_newtask", "sched:sched_process_exec"

enum abi { ABI_NATIVE, ABI_COMPAT, ABI_UNKNOWN };

/* task_start - before tracing begins: every thread that runs now, its
 * process and its program (/proc) */
void task_start(void);
/* task_settle - once tracing runs: the threads read again; one new since
 * task_start, or running another program, is not known until its next event */
void task_settle(void);
/* task_tgid_of_new - the process of a task made with clone_flags (task_newtask's):
 * its creator's (creator_tgid, 0 if not known) with CLONE_THREAD, else its own */
static inline int task_tgid_of_new(unsigned long long clone_flags, int creator_tgid, int child)
{
	return clone_flags & 0x00010000ULL /* the kernel's CLONE_THREAD */ ? creator_tgid : child;
}
/* task_new - parent made child at ts (task_newtask: its clone_flags) */
void task_new(int parent, int child, unsigned long long clone_flags, unsigned long long ts);
/* task_exec - pid (the thread old_pid before it) runs the program at path
 * from ts on (the exec's filename: a script's interpreter, on its #! line,
 * is what runs) */
void task_exec(int pid, int old_pid, const char *path, unsigned long long ts);
/* task_gap - events were lost: a new thread or an exec may be among them, so
 * every thread is read again from /proc, valid for records from the reading
 * on (mono: the trace clock is the mono clock; else for none) */
void task_gap(int mono);
/* task_abi - tid's table for its record at ts (records handed on in time order) */
enum abi task_abi(int tid, unsigned long long ts);
/* task_tgid - tid's process for its record at ts; 0 if not known */
int task_tgid(int tid, unsigned long long ts);
/* task_tgid_throughout - tid's process, if one task had the ID since the
 * start and each of its records had a known process; else 0 */
int task_tgid_throughout(int tid);
/* task_abi_throughout - tid's table, if it ran one since the start, known for
 * each of its records; else ABI_UNKNOWN */
enum abi task_abi_throughout(int tid);
/* task_file_abi - the table of the program at path (a #! script: its interpreter's) */
enum abi task_file_abi(const char *path);

#endif

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
 * gives the threads that run at the start.
 */
#ifndef FTT_TASK_H
#define FTT_TASK_H

/* the events a tool follows for this, for its format_load list */
#define TASK_FORMATS "task:task_newtask", "sched:sched_process_exec"

enum abi { ABI_NATIVE, ABI_COMPAT, ABI_UNKNOWN };

/* task_start - every thread that runs now: its process, and its program (/proc) */
void task_start(void);
/* task_new - parent made child (task_newtask: its clone_flags) */
void task_new(int parent, int child, unsigned long long clone_flags);
/* task_exec - pid (the thread old_pid before it) now runs the program at path
 * (the exec's filename: a script's interpreter, on its #! line, is what runs) */
void task_exec(int pid, int old_pid, const char *path);
/* task_gap - events were lost: a new thread or an exec may be among them, so
 * every thread is read again from /proc (one gone meanwhile is not known) */
void task_gap(void);
/* task_abi - tid's table, as of the last event handed on */
enum abi task_abi(int tid);
/* task_tgid - tid's process, as of the last event handed on; 0 if not known */
int task_tgid(int tid);
/* task_tgid_throughout - tid's process, if one task had the ID since the start; else 0 */
int task_tgid_throughout(int tid);
/* task_abi_throughout - tid's table, if it ran one since the start; else ABI_UNKNOWN */
enum abi task_abi_throughout(int tid);
/* task_file_abi - the table of the program at path (a #! script: its interpreter's) */
enum abi task_file_abi(const char *path);

#endif

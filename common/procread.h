/* procread.h - best-effort reads of a live process through /proc */
#ifndef FTT_PROCREAD_H
#define FTT_PROCREAD_H

#include <stddef.h>

/*
 * Used where the kernel cannot hand a string to the trace (no kprobes): the
 * process is read after the event, so it may have changed or be gone. Every
 * function returns -1 when the read fails, and the caller marks the value.
 */

/* proc_mem - read len bytes of pid's memory at addr; 0 on success */
int proc_mem(int pid, unsigned long long addr, void *buf, size_t len);
/* proc_mem_str - a NUL-terminated string of pid's memory at addr; its length */
int proc_mem_str(int pid, unsigned long long addr, char *buf, size_t len);
/* a string to read: pid's memory at addr */
struct proc_str {
	int pid;
	unsigned long long addr;
};
#define PROC_BATCH 256	/* strings read per syscall at most */
/*
 * proc_mem_strs - read count strings, as proc_mem_str would, and call
 * fn(i, string, length or -1, arg) for each, in order. Strings of one process
 * next to each other in v are read together: one syscall for up to PROC_BATCH.
 */
void proc_mem_strs(const struct proc_str *v, int count,
		   void (*fn)(int i, const char *s, int n, void *arg), void *arg);
/*
 * proc_mem_strv - the strings of pid's NULL-terminated pointer array at addr
 * (an argv): the pointers in one read, then fn for the first max strings as
 * proc_mem_strs calls it. Returns how many the array holds, counted up to
 * max + 1 (so max + 1 means more than max), or -1 if a pointer before its end
 * cannot be read (fn is then not called). max below PROC_BATCH.
 */
int proc_mem_strv(int pid, unsigned long long addr, int max,
		  void (*fn)(int i, const char *s, int n, void *arg), void *arg);
/*
 * A queue of strings to read later, together: a tool that sees many strings
 * asked for (one per event) pushes each with its item, and reads them all at
 * once before the events are handed on (proc_queue_flush). got(item, pid, s,
 * n) is called for each, in order: n the length, or -1 when unreadable; it
 * returns 0 if the string was of use, -1 if not (a reused buffer, say), which
 * the queue remembers as pid's last result. got must not push.
 */
struct proc_queue;
typedef int (*proc_got_fn)(void *item, int pid, const char *s, int n);
/* proc_queue_new - an empty queue that hands each string read to got */
struct proc_queue *proc_queue_new(proc_got_fn got);
/* proc_queue_push - ask for pid's string at addr, for item; a full queue is read at once */
void proc_queue_push(struct proc_queue *q, int pid, unsigned long long addr, void *item);
/* proc_queue_waiting - the item of pid's last push if it is still unread, else NULL */
void *proc_queue_waiting(const struct proc_queue *q, int pid);
/* proc_queue_read_ok - 1 if pid's last string read was of use (got returned 0), else 0 */
int proc_queue_read_ok(const struct proc_queue *q, int pid);
/* proc_queue_flush - read everything queued, handing each to got; the queue empties */
void proc_queue_flush(struct proc_queue *q);
/*
 * proc_str_plausible - could n bytes read from memory that may have been
 * reused since be text a program passed: not empty, no control bytes, valid
 * UTF-8 (a leftover pointer's bytes seldom are); 1 or 0
 */
int proc_str_plausible(const char *s, int n);
/*
 * A task that has exec'd runs another program: its memory, name and
 * close-on-exec FDs say nothing of what it did before. A tool that reads a
 * task after an event tells proc_exec_seen of every exec it sees (the trace's
 * timestamps), and asks proc_exec_since before trusting a read for an event.
 */
/* proc_exec_seen - pid exec'd at time ts */
void proc_exec_seen(int pid, unsigned long long ts);
/* proc_exec_since - pid has exec'd after time ts (as far as the execs seen show) */
int proc_exec_since(int pid, unsigned long long ts);
/* proc_comm - pid's name from /proc/PID/comm into buf; 0 on success */
int proc_comm(int pid, char *buf, size_t len);
/* proc_cmdline - pid's arguments (NUL-separated, len bytes at most); the byte count */
int proc_cmdline(int pid, char *buf, size_t len);
/* proc_fd_path - what /proc/PID/fd/FD links to (malloc'd), or NULL */
char *proc_fd_path(int pid, int fd);
/* proc_file_number - the first number of the "Key:" line of a /proc file; -1 */
long proc_file_number(const char *path, const char *key);
/* proc_status - the first number of the "Key:" line of /proc/PID/status (Uid, PPid, Tgid) */
long proc_status(int pid, const char *key);

#endif

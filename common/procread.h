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

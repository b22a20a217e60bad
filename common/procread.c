/* procread.c - best-effort reads of a live process through /proc
 *
 * Memory is read through /proc/PID/mem descriptors kept open for the last
 * few processes read, so a busy process costs one pread per string, not an
 * open, a read and a close. A kept descriptor of a process that has since
 * exited or exec'd reads nothing, and is then opened again once. A process
 * found gone is not looked for again for a moment: a reader catching up on a
 * backlog would otherwise pay a failed open and readlink per record.
 *
 * Many strings of one process read together (proc_mem_strs) go in one
 * process_vm_readv: a syscall per batch instead of one per string. A
 * proc_queue collects such strings as events ask for them, up to a batch.
 * The execs a tool has seen (proc_exec_seen) tell which reads would find
 * another program.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "pidmap.h"
#include "procread.h"

#define NMEM 8

static struct {
	int pid, fd;
} mem[NMEM];
static unsigned int mem_next;

#define NGONE 8
#define GONE_NS 20000000LL	/* how long a process found gone stays gone */

static struct {
	int pid;
	long long until;
} gone[NGONE];
static unsigned int gone_next;

/* now_ns - a cheap monotonic clock */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* is_gone - was pid found gone in the last GONE_NS */
static int is_gone(int pid)
{
	unsigned int i;

	for (i = 0; i < NGONE; i++)
		if (gone[i].pid == pid)
			return gone[i].until > now_ns();
	return 0;
}

/* mark_gone - remember that pid's /proc directory has gone (errno ENOENT/ESRCH) */
static void mark_gone(int pid)
{
	unsigned int i;

	if (errno != ENOENT && errno != ESRCH)
		return;
	for (i = 0; i < NGONE && gone[i].pid != pid; i++)
		;
	if (i == NGONE)
		i = gone_next++ % NGONE;
	gone[i].pid = pid;
	gone[i].until = now_ns() + GONE_NS;
}

/* mem_fd - the kept /proc/PID/mem descriptor of pid (fresh: open it anew); -1 */
static int mem_fd(int pid, int fresh)
{
	char path[64];
	unsigned int i;
	int fd;

	for (i = 0; i < NMEM; i++)
		if (mem[i].pid == pid && mem[i].fd > 0) {
			if (!fresh)
				return mem[i].fd;
			close(mem[i].fd);
			mem[i].pid = 0;
			mem[i].fd = 0;
			break;
		}
	if (is_gone(pid))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		mark_gone(pid);
		return -1;
	}
	i = mem_next++ % NMEM;
	if (mem[i].fd > 0)
		close(mem[i].fd);
	mem[i].pid = pid;
	mem[i].fd = fd;
	return fd;
}

/* mem_read - pread pid's memory, through a kept descriptor, opened anew once on failure */
static ssize_t mem_read(int pid, void *buf, size_t len, unsigned long long addr)
{
	ssize_t n = -1;
	int fd, tries;

	for (tries = 0; tries < 2 && n <= 0; tries++) {
		fd = mem_fd(pid, tries);
		if (fd < 0)
			return -1;
		n = pread(fd, buf, len, (off_t)addr);
	}
	return n;
}

/* proc_mem - read len bytes of pid's memory at addr; 0 on success */
int proc_mem(int pid, unsigned long long addr, void *buf, size_t len)
{
	if (!addr || pid <= 0)
		return -1;
	return mem_read(pid, buf, len, addr) == (ssize_t)len ? 0 : -1;
}

/* proc_mem_str - a NUL-terminated string of pid's memory at addr; its length */
int proc_mem_str(int pid, unsigned long long addr, char *buf, size_t len)
{
	size_t got = 0, chunk;
	ssize_t n;

	if (!addr || len == 0 || pid <= 0)
		return -1;
	/* read up to each page end, so a string near unmapped memory still reads;
	 * most paths are short, so the first read stops at 256 bytes */
	while (got < len - 1) {
		chunk = 4096 - ((addr + got) & 4095);
		if (!got && chunk > 256)
			chunk = 256;
		if (chunk > len - 1 - got)
			chunk = len - 1 - got;
		n = mem_read(pid, buf + got, chunk, addr + got);
		if (n <= 0)
			break;
		if (memchr(buf + got, '\0', n))
			return (int)strlen(buf);
		got += n;
	}
	if (got == 0)
		return -1;
	buf[got] = '\0';
	return (int)got;
}

#define FIRST 256		/* bytes of each string read in a batch: most paths fit */
static int no_vm_readv;		/* the kernel lacks process_vm_readv */

/* first_reads - the first read of each string of v[0..n) (one process), into
 * buf's FIRST-byte slots: each stops at its page end, so one unmapped page
 * fails that string alone. The count of strings read whole (up to the first
 * that failed), or -1 when the process cannot be read this way at all. */
static int first_reads(const struct proc_str *v, int n, char *buf, size_t *len)
{
	struct iovec local[PROC_BATCH], remote[PROC_BATCH];
	ssize_t got;
	int i;

	for (i = 0; i < n; i++) {
		len[i] = 4096 - (v[i].addr & 4095);
		if (len[i] > FIRST)
			len[i] = FIRST;
		local[i].iov_base = buf + (size_t)i * FIRST;
		local[i].iov_len = len[i];
		remote[i].iov_base = (void *)(unsigned long)v[i].addr;
		remote[i].iov_len = len[i];
	}
	got = process_vm_readv(v[0].pid, local, n, remote, n, 0);
	if (got < 0 && errno == ENOSYS)
		no_vm_readv = 1;	/* a kernel without it: /proc/PID/mem from now on */
	if (got < 0)
		return errno == EFAULT ? 0 : -1;
	for (i = 0; i < n && (size_t)got >= len[i]; i++)
		got -= len[i];
	return i;
}

/* proc_mem_strs - see procread.h */
void proc_mem_strs(const struct proc_str *v, int count,
		   void (*fn)(int i, const char *s, int n, void *arg), void *arg)
{
	static char buf[PROC_BATCH * FIRST], one[4096];
	struct proc_str u[PROC_BATCH];	/* the batch's addresses, a repeat read once */
	int slot[PROC_BATCH];		/* slot[i - at]: entry i's read in u */
	size_t len[PROC_BATCH];
	int at = 0, end, done, i, k, n = -1, nu;
	const char *str = NULL;
	char *nul;

	while (at < count) {
		/* one process's run; an address asked for again right after (a loop
		 * opening from one buffer) is read once: read together, the two
		 * reads would give the same bytes */
		nu = 0;
		for (end = at; end < count && end - at < PROC_BATCH && v[end].pid == v[at].pid;
		     end++) {
			if (end == at || v[end].addr != v[end - 1].addr)
				u[nu++] = v[end];
			slot[end - at] = nu - 1;
		}
		done = 0;
		if (v[at].pid > 0 && !no_vm_readv && !is_gone(v[at].pid)) {
			done = first_reads(u, nu, buf, len);
			if (done < 0) {		/* gone, or not this way: one by one */
				mark_gone(v[at].pid);
				done = 0;
			}
		}
		for (i = at; i < end && (k = slot[i - at]) < done; i++) {
			if (i == at || k != slot[i - at - 1]) {
				nul = memchr(buf + (size_t)k * FIRST, '\0', len[k]);
				str = buf + (size_t)k * FIRST;
				if (nul)
					n = (int)(nul - str);
				else {	/* longer than its first read: the rest page by page */
					n = proc_mem_str(u[k].pid, u[k].addr, one, sizeof(one));
					str = one;
				}
			}
			fn(i, str, n, arg);
		}
		/* the one that failed (if any) tries on its own; the batch goes on after it */
		at = i;
		if (at < end) {
			n = proc_mem_str(v[at].pid, v[at].addr, one, sizeof(one));
			fn(at, one, n, arg);
			at++;
		}
	}
}

/* proc_mem_strv - see procread.h */
int proc_mem_strv(int pid, unsigned long long addr, int max,
		  void (*fn)(int i, const char *s, int n, void *arg), void *arg)
{
	unsigned long long p[PROC_BATCH];
	struct proc_str v[PROC_BATCH];
	int n = max + 1, i;

	if (max < 0 || n > PROC_BATCH)
		return -1;
	if (proc_mem(pid, addr, p, n * sizeof(p[0])) < 0)	/* near a hole: one by one */
		for (i = 0; i < n; i++) {
			if (proc_mem(pid, addr + i * sizeof(p[0]), &p[i], sizeof(p[i])) < 0)
				return -1;
			if (!p[i])
				break;
		}
	for (i = 0; i < n && p[i]; i++) {
		v[i].pid = pid;
		v[i].addr = p[i];
	}
	proc_mem_strs(v, i < max ? i : max, fn, arg);
	return i;
}

#define QUEUE_HASH 1024	/* pids remembered by proc_queue_waiting (a power of 2) */

struct proc_queue {
	proc_got_fn got;
	int n;
	struct proc_str v[PROC_BATCH];
	void *item[PROC_BATCH];
	int last[QUEUE_HASH];	/* last[pid % QUEUE_HASH]: pid's last entry in v, plus 1 */
	int ok[QUEUE_HASH];	/* ok[pid % QUEUE_HASH] == pid: pid's last read was of use */
};

/* proc_queue_new - see procread.h */
struct proc_queue *proc_queue_new(proc_got_fn got)
{
	struct proc_queue *q = calloc(1, sizeof(*q));

	if (q)
		q->got = got;
	return q;
}

/* queue_got - proc_mem_strs's callback: the entry's string, to its item */
static void queue_got(int i, const char *s, int n, void *arg)
{
	struct proc_queue *q = arg;
	int pid = q->v[i].pid;

	q->ok[pid & (QUEUE_HASH - 1)] = q->got(q->item[i], pid, s, n) == 0 ? pid : 0;
}

/* proc_queue_flush - see procread.h */
void proc_queue_flush(struct proc_queue *q)
{
	proc_mem_strs(q->v, q->n, queue_got, q);
	q->n = 0;
}

/* proc_queue_push - see procread.h */
void proc_queue_push(struct proc_queue *q, int pid, unsigned long long addr, void *item)
{
	q->v[q->n].pid = pid;
	q->v[q->n].addr = addr;
	q->item[q->n] = item;
	q->last[pid & (QUEUE_HASH - 1)] = ++q->n;
	if (q->n == PROC_BATCH)	/* read while the callers are likeliest to live */
		proc_queue_flush(q);
}

/* proc_queue_waiting - see procread.h */
void *proc_queue_waiting(const struct proc_queue *q, int pid)
{
	int k = q->last[pid & (QUEUE_HASH - 1)] - 1;

	return k >= 0 && k < q->n && q->v[k].pid == pid ? q->item[k] : NULL;
}

/* proc_queue_read_ok - see procread.h */
int proc_queue_read_ok(const struct proc_queue *q, int pid)
{
	return pid && q->ok[pid & (QUEUE_HASH - 1)] == pid;
}

/* proc_str_plausible - see procread.h */
int proc_str_plausible(const char *s, int n)
{
	const unsigned char *u = (const unsigned char *)s;
	int i = 0, k, len;

	if (n <= 0)
		return 0;
	while (i < n) {
		if (u[i] < 0x20 || u[i] == 0x7f)
			return 0;
		len = u[i] < 0x80 ? 1 : u[i] < 0xc2 ? 0 : u[i] < 0xe0 ? 2 : u[i] < 0xf0 ? 3 :
		      u[i] < 0xf5 ? 4 : 0;
		if (!len || i + len > n)
			return 0;
		for (k = 1; k < len; k++)
			if ((u[i + k] & 0xc0) != 0x80)
				return 0;
		i += len;
	}
	return 1;
}

static struct pidmap *execs;	/* each task's last exec seen: its time */

/* proc_exec_seen - see procread.h */
void proc_exec_seen(int pid, unsigned long long ts)
{
	unsigned long long *t = malloc(sizeof(*t));

	if (!execs)
		execs = pidmap_new(free);
	if (!t)
		msg_die(EXIT_ERR, "out of memory");
	*t = ts;
	pidmap_put(execs, pid, t);
}

/* proc_exec_since - see procread.h */
int proc_exec_since(int pid, unsigned long long ts)
{
	unsigned long long *t = execs ? pidmap_get(execs, pid) : NULL;

	return t && *t > ts;
}

/* proc_comm - pid's name from /proc/PID/comm into buf; 0 on success */
int proc_comm(int pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	if (is_gone(pid))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		mark_gone(pid);
		return -1;
	}
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* proc_cmdline - pid's arguments (NUL-separated, len bytes at most); the byte count */
int proc_cmdline(int pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	size_t got = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got < len && (n = read(fd, buf + got, len - got)) > 0)
		got += n;
	close(fd);
	/* a zombie or a kernel thread has none: nothing to show */
	return got ? (int)got : -1;
}

/* proc_file_number - the first number of the "Key:" line of a /proc file; -1 */
long proc_file_number(const char *path, const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* proc_status - the first number of the "Key:" line of /proc/PID/status */
long proc_status(int pid, const char *key)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	return proc_file_number(path, key);
}

/* proc_fd_path - what /proc/PID/fd/FD links to (malloc'd), or NULL */
char *proc_fd_path(int pid, int fd)
{
	char path[64], buf[4096];
	ssize_t n;

	if (is_gone(pid))
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

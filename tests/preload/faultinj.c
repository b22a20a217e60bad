/* SPDX-License-Identifier: GPL-2.0-only */
/* faultinj - LD_PRELOAD fault injection for the reliability tests
 *
 * FTT_FAULT="OP:SUBSTRING:NTH[:ERRNO]" makes the NTH call of OP on a path
 * containing SUBSTRING fail with ERRNO (default EBUSY), as if the kernel had
 * refused it. OP is "write" (a write(2) to a file opened with that path) or
 * "mkdir". This simulates an error in the middle of a tool's setup, e.g. the
 * second event enable refused. FTT_FAULT_LOG=FILE: append "loaded" when the
 * library is loaded and "fired OP PATH" when the fault is injected, so a test
 * can tell a static tool (where LD_PRELOAD has no effect) from a tool that
 * never made the call. OP "malloc" with a number for SUBSTRING fails the NTH
 * malloc of at least that many bytes (ENOMEM): an allocation that fails while
 * events are read, e.g. a new chunk of the queue records wait in. OP
 * "nanosleep" with a number DIV for SUBSTRING makes every nanosleep from the
 * NTH on sleep 1/DIV of what it asks, and return as if it slept all of it: a
 * known call that is not what its caller believes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_FD 1024

static char op[16], sub[256];
static int nth, err = EBUSY, calls;
static char marked[MAX_FD];	/* fds opened on a matching path */
static char *paths[MAX_FD];

/* logmsg - append a line to $FTT_FAULT_LOG */
static void logmsg(const char *a, const char *b)
{
	const char *f = getenv("FTT_FAULT_LOG");
	char line[512];
	int fd, n;

	if (!f)
		return;
	fd = ((int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open"))(f,
		O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%s%s%s\n", a, b ? " " : "", b ? b : "");
	if (n > 0)
		((ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write"))(fd, line,
			(size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	close(fd);
}

/* init - parse FTT_FAULT once */
__attribute__((constructor)) static void init(void)
{
	const char *spec = getenv("FTT_FAULT");
	char ebuf[32] = "";

	logmsg("loaded", NULL);
	if (!spec || sscanf(spec, "%15[^:]:%255[^:]:%d:%31s", op, sub, &nth, ebuf) < 3)
		return;
	if (!strcmp(ebuf, "EPERM")) err = EPERM;
	else if (!strcmp(ebuf, "ENOENT")) err = ENOENT;
	else if (!strcmp(ebuf, "EINVAL")) err = EINVAL;
	else if (!strcmp(ebuf, "ENOMEM")) err = ENOMEM;
	else if (!strcmp(ebuf, "ENOSPC")) err = ENOSPC;
}

/* hit - count a call of `what` on `path`; true when this one must fail */
static int hit(const char *what, const char *path)
{
	if (!nth || strcmp(op, what) || !path || !strstr(path, sub))
		return 0;
	if (++calls != nth)
		return 0;
	logmsg(what, path);
	return 1;
}

/* track - remember whether fd was opened on a matching path */
static int track(int fd, const char *path)
{
	if (fd >= 0 && fd < MAX_FD) {
		marked[fd] = nth && !strcmp(op, "write") && strstr(path, sub) != NULL;
		free(paths[fd]);
		paths[fd] = marked[fd] ? strdup(path) : NULL;
	}
	return fd;
}

#define OPEN_WRAPPER(name)						\
int name(const char *path, int flags, ...)				\
{									\
	static int (*real)(const char *, int, ...);			\
	mode_t mode = 0;						\
	va_list ap;							\
									\
	if (!real)							\
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name); \
	va_start(ap, flags);						\
	if (flags & (O_CREAT | O_TMPFILE))				\
		mode = va_arg(ap, mode_t);				\
	va_end(ap);							\
	return track(real(path, flags, mode), path);			\
}

OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

/* __open64_2 - the fortified open without a mode */
int __open64_2(const char *path, int flags)
{
	static int (*real)(const char *, int);

	if (!real)
		real = (int (*)(const char *, int))dlsym(RTLD_NEXT, "__open64_2");
	return track(real(path, flags), path);
}

/* __open_2 - likewise */
int __open_2(const char *path, int flags)
{
	static int (*real)(const char *, int);

	if (!real)
		real = (int (*)(const char *, int))dlsym(RTLD_NEXT, "__open_2");
	return track(real(path, flags), path);
}

/* write - fail the chosen write to a matching file */
ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (fd >= 0 && fd < MAX_FD && marked[fd] && hit("write", paths[fd])) {
		errno = err;
		return -1;
	}
	return real(fd, buf, len);
}

/* close - forget the fd */
int close(int fd)
{
	static int (*real)(int);

	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "close");
	if (fd >= 0 && fd < MAX_FD && marked[fd]) {
		marked[fd] = 0;
		free(paths[fd]);
		paths[fd] = NULL;
	}
	return real(fd);
}

/* mkdir - fail the chosen mkdir of a matching path */
int mkdir(const char *path, mode_t mode)
{
	static int (*real)(const char *, mode_t);

	if (!real)
		real = (int (*)(const char *, mode_t))dlsym(RTLD_NEXT, "mkdir");
	if (hit("mkdir", path)) {
		errno = err;
		return -1;
	}
	return real(path, mode);
}

extern void *__libc_malloc(size_t len);

/* malloc - fail the chosen large allocation ("malloc:MINBYTES:NTH") */
void *malloc(size_t len)
{
	static __thread int inside;	/* logmsg's own calls pass through */
	char num[32];

	if (nth && !inside && op[0] == 'm' && !strcmp(op, "malloc") &&
	    len >= strtoul(sub, NULL, 10) && ++calls == nth) {
		inside = 1;
		snprintf(num, sizeof(num), "%zu", len);
		logmsg("malloc", num);
		inside = 0;
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(len);
}

/* nanosleep - shorten every sleep from the chosen one on ("nanosleep:DIV:NTH") */
int nanosleep(const struct timespec *req, struct timespec *rem)
{
	static int (*real)(const struct timespec *, struct timespec *);
	struct timespec t;
	long long ns, div;

	if (!real)
		real = (int (*)(const struct timespec *, struct timespec *))dlsym(RTLD_NEXT,
										  "nanosleep");
	if (!nth || strcmp(op, "nanosleep") || !req || ++calls < nth ||
	    (div = strtoll(sub, NULL, 10)) < 1)
		return real(req, rem);
	if (calls == nth)
		logmsg("nanosleep", sub);
	ns = ((long long)req->tv_sec * 1000000000LL + req->tv_nsec) / div;
	t.tv_sec = ns / 1000000000LL;
	t.tv_nsec = ns % 1000000000LL;
	return real(&t, NULL);
}

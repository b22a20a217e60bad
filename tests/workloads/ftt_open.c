/* SPDX-License-Identifier: GPL-2.0-only */
/* ftt_open - open workload for the opensnoop tests
 *
 * usage: ftt_open [--comm=NAME] [--wait=MS] [--go=FILE] [--hold=MS] [--flags=OCTAL]
 *                 [--wipe] [--open|--openat|--openat2|--libc|--libcat] PATH...
 * Sets its name (spaces allowed), waits (--go: until FILE exists), opens each PATH with the syscall chosen
 * last before it (default openat; --libc and --libcat: the C library's open()
 * and openat(), the others are raw syscalls) and O_RDONLY plus --flags, prints "FD PATH" or
 * "-ERRNO PATH" for each, keeps the files open for --hold ms, then exits.
 * --wipe: each path's bytes are zeroed once it is opened, as a program
 * reusing the buffer would (what the open read is gone from memory).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

struct how {
	unsigned long long flags, mode, resolve;
};

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (ms > 0 && nanosleep(&ts, &ts) < 0)
		;
}

int main(int argc, char **argv)
{
	long hold = 0, flags = 0, fd;
	int i, kind = 1, wipe = 0;
	struct how how;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--comm=", 7))
			prctl(PR_SET_NAME, argv[i] + 7, 0, 0, 0);
		else if (!strncmp(argv[i], "--wait=", 7))
			nap(atol(argv[i] + 7));
		else if (!strncmp(argv[i], "--go=", 5))
			while (access(argv[i] + 5, F_OK) < 0)
				nap(20);
		else if (!strncmp(argv[i], "--hold=", 7))
			hold = atol(argv[i] + 7);
		else if (!strncmp(argv[i], "--flags=", 8))
			flags = strtol(argv[i] + 8, NULL, 8);
		else if (!strcmp(argv[i], "--wipe"))
			wipe = 1;
		else if (!strcmp(argv[i], "--open"))
			kind = 0;
		else if (!strcmp(argv[i], "--openat"))
			kind = 1;
		else if (!strcmp(argv[i], "--openat2"))
			kind = 2;
		else if (!strcmp(argv[i], "--libc"))
			kind = 3;
		else if (!strcmp(argv[i], "--libcat"))
			kind = 4;
		else {
			memset(&how, 0, sizeof(how));
			how.flags = flags;
#ifdef SYS_open
			if (kind == 0)
				fd = syscall(SYS_open, argv[i], flags);
			else
#endif
			if (kind == 3)
				fd = open(argv[i], flags);
			else if (kind == 4)
				fd = openat(AT_FDCWD, argv[i], flags);
			else if (kind == 2)
				fd = syscall(SYS_openat2, AT_FDCWD, argv[i], &how, sizeof(how));
			else
				fd = syscall(SYS_openat, AT_FDCWD, argv[i], flags);
			printf("%ld %s\n", fd < 0 ? -(long)errno : fd, argv[i]);
			if (wipe)
				memset(argv[i], 0, strlen(argv[i]));
		}
	}
	fflush(stdout);
	nap(hold);
	return 0;
}

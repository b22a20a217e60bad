/* SPDX-License-Identifier: GPL-2.0-only */
/* clean.c - code the rules must not flag: what they look for, in comments,
 * and names that only resemble it
 * system(), popen("x", "r"), execve(), fork(), "/bin/sh", "/sys/kernel/tracing",
 * debugfs, creat(), fopen(path, "w"), mktemp(), O_CREAT,
 * msg_die(EXIT_ERR, "out of memory")
 */
#include <fcntl.h>
#include <stdio.h>

/* on_fork - a name that ends in fork */
static void on_fork(int fork)
{
	int n = fork ? 1 : 0;	// execve(path, argv, envp); O_CREAT
	who_fork(n, n);
}

/* f - reads, and creates exclusively */
int f(const char *path, const char *dir)
{
	FILE *f = fopen(path, "re");	/* not fopen(path, "w") */
	FILE *k = fopen("/proc/kallsyms", "r");
	const char *url = "http://example.org/"; int fd = open(dir, O_RDONLY | O_CLOEXEC);
	const char *glob = "/*"; const char *ev = "sched:sched_process_fork";
	char q = '"';

	/* a comment that ends */ fd = openat(fd, "j", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	return fd + (f != NULL) + (k != NULL) + url[0] + glob[0] + ev[0] + q;
}

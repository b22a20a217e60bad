/* SPDX-License-Identifier: GPL-2.0-only */
/* fcalls - a workload with known kernel calls, for the function tools' and syscount's tests
 *
 * usage: fcalls [sleep SECS] [select SECS] [getppid N] [getpgrp N] [opens N] [access N]
 *               [execs N] [prio N] [rrint N] [open PATH] [wait PATH] [comm NAME]
 *               [fail N] [notdir N] [reads N SIZE] [kills N]... in any order
 * select sleeps SECS in select() with no descriptors (the kernel's do_select,
 * which nothing else the tests run calls); getppid/getpgrp make N raw system
 * calls; opens opens and closes /dev/null N times, access calls access("/", F_OK) N times, execs runs this program
 * (with no arguments: it exits at once) N times, one after another, in a
 * child it waits for; prio calls sched_get_priority_max(SCHED_OTHER) N
 * times and rrint sched_rr_get_interval(0) N times (system calls whose
 * kernel entry points have names over 30 bytes); open opens PATH read-only,
 * prints "PATH FD" (or "PATH -ERRNO") and closes it. wait prints "waiting",
 * then opens PATH (a FIFO: until a writer opens it), reads once and closes
 * it: one read and one close after the writer came. comm names the process
 * NAME (prctl). fail makes N raw faccessat() calls that fail with ENOENT,
 * notdir N that fail with ENOTDIR; reads opens /dev/zero, reads SIZE bytes
 * (at most 65536) N times by raw read() calls, and closes it. kills makes N
 * raw kill(self, 0) calls (signal 0: nothing is sent). A first argument
 * --comm=NAME is comm NAME (as the other workloads take it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i, fd;
	long n, k;

	if (argc > 1 && !strncmp(argv[1], "--comm=", 7)) {
		prctl(PR_SET_NAME, argv[1] + 7, 0, 0, 0);
		argv++;
		argc--;
	}
	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "sleep")) {
			usleep((useconds_t)(atof(argv[i + 1]) * 1e6));
		} else if (!strcmp(argv[i], "select")) {
			long us = (long)(atof(argv[i + 1]) * 1e6);
			struct timeval tv = { us / 1000000, us % 1000000 };

			select(0, NULL, NULL, NULL, &tv);
		} else if (!strcmp(argv[i], "getppid") || !strcmp(argv[i], "getpgrp")) {
			n = atol(argv[i + 1]);
			for (k = 0; k < n; k++)
				syscall(argv[i][4] == 'p' && argv[i][5] == 'i' ? SYS_getppid
									      : SYS_getpgrp);
		} else if (!strcmp(argv[i], "opens")) {
			n = atol(argv[i + 1]);
			for (k = 0; k < n; k++)
				if ((fd = open("/dev/null", O_RDONLY)) >= 0)
					close(fd);
		} else if (!strcmp(argv[i], "kills")) {
			n = atol(argv[i + 1]);
			for (k = 0; k < n; k++)
				syscall(SYS_kill, getpid(), 0);
		} else if (!strcmp(argv[i], "access")) {
			n = atol(argv[i + 1]);
			for (k = 0; k < n; k++)
				access("/", F_OK);
		} else if (!strcmp(argv[i], "execs")) {
			n = atol(argv[i + 1]);
			for (k = 0; k < n; k++) {
				pid_t child = fork();

				if (child == 0) {
					execl("/proc/self/exe", "fcalls", (char *)NULL);
					_exit(127);
				}
				if (child > 0)
					waitpid(child, NULL, 0);
			}
		} else if (!strcmp(argv[i], "prio") || !strcmp(argv[i], "rrint")) {
			struct timespec ts;

			n = atol(argv[i + 1]);
			for (k = 0; k < n; k++)
				if (argv[i][0] == 'p')
					sched_get_priority_max(SCHED_OTHER);
				else
					sched_rr_get_interval(0, &ts);
		} else if (!strcmp(argv[i], "open")) {
			fd = open(argv[i + 1], O_RDONLY);
			printf("%s %d\n", argv[i + 1], fd < 0 ? -errno : fd);
			if (fd >= 0)
				close(fd);
		} else if (!strcmp(argv[i], "wait")) {
			char c;

			printf("waiting\n");
			fflush(stdout);
			fd = open(argv[i + 1], O_RDONLY);
			if (fd < 0 || read(fd, &c, 1) < 0) {
				perror(argv[i + 1]);
				return 1;
			}
			close(fd);
		} else if (!strcmp(argv[i], "comm")) {
			prctl(PR_SET_NAME, argv[i + 1], 0, 0, 0);
		} else if (!strcmp(argv[i], "fail") || !strcmp(argv[i], "notdir")) {
			const char *path = argv[i][0] == 'f' ? "/nonexistent-ftt/x" : "/dev/null/x";

			n = atol(argv[i + 1]);
			for (k = 0; k < n; k++)
				syscall(SYS_faccessat, AT_FDCWD, path, F_OK);
		} else if (!strcmp(argv[i], "reads") && i + 2 < argc) {
			static char buf[65536];
			long size = atol(argv[i + 2]);

			n = atol(argv[i + 1]);
			if (size < 0 || size > (long)sizeof(buf) ||
			    (fd = open("/dev/zero", O_RDONLY)) < 0) {
				fprintf(stderr, "fcalls: reads %s %s: bad size or no /dev/zero\n",
					argv[i + 1], argv[i + 2]);
				return 2;
			}
			for (k = 0; k < n; k++)
				syscall(SYS_read, fd, buf, (size_t)size);
			close(fd);
			i++;	/* it takes two */
		} else {
			fprintf(stderr, "fcalls: unknown action %s\n", argv[i]);
			return 2;
		}
	}
	fflush(stdout);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* fcalls - a workload with known kernel calls, for the function tools' tests
 *
 * usage: fcalls [sleep SECS] [getppid N] [getpgrp N] [opens N] [access N]
 *               [execs N] [prio N] [rrint N] [open PATH]... in any order
 * getppid/getpgrp make N raw system calls; opens opens and closes /dev/null N
 * times, access calls access("/", F_OK) N times, execs runs this program
 * (with no arguments: it exits at once) N times, one after another, in a
 * child it waits for; prio calls sched_get_priority_max(SCHED_OTHER) N
 * times and rrint sched_rr_get_interval(0) N times (system calls whose
 * kernel entry points have names over 30 bytes); open opens PATH read-only,
 * prints "PATH FD" (or "PATH -ERRNO") and closes it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i, fd;
	long n, k;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "sleep")) {
			usleep((useconds_t)(atof(argv[i + 1]) * 1e6));
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
		} else {
			fprintf(stderr, "fcalls: unknown action %s\n", argv[i]);
			return 2;
		}
	}
	fflush(stdout);
	return 0;
}

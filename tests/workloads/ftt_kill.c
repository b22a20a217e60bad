/* SPDX-License-Identifier: GPL-2.0-only */
/* ftt_kill - signal workload for the killsnoop tests
 *
 * usage: ftt_kill [--comm=NAME] [--go=FILE] ACTION...
 * Sets its name, starts a target child (T) that blocks every signal it can and
 * waits, and a child that exits at once and is reaped (D: a PID nobody has),
 * then does each ACTION in order and prints what it did, one line each:
 * "CALL TPID SIG RET ERR" (RET 0 or -1, ERR the errno's name or "-"; the
 * kernel's own signals: "kernel TPID SIG TCOMM -"). The first line is
 * "target T D SELF"; with --go, the actions wait until FILE exists. At the end T is killed with SIGKILL (printed too).
 * TPID in an action is a number, T, D or S (the workload itself).
 *   kill:PID:SIG  tkill:TID:SIG  tgkill:TGID:TID:SIG  sigqueue:PID:SIG
 *   tgsigqueue:TGID:TID:SIG  pidfd:PID:SIG (pidfd_open, then pidfd_send_signal)
 *   pidfdgone:SIG  pidfd_send_signal to a child that has been reaped (ESRCH)
 *   uid:UID       real and effective user UID, saved 0 (its calls to root's
 *                 processes: EPERM); root again before the final SIGKILL
 *   segv          a child named "ftksegv" writes to address 0 (SIGSEGV from
 *                 the kernel; then SIGCHLD to the workload)
 *   pipe          write to a pipe nobody reads, SIGPIPE ignored (the
 *                 kernel's SIGPIPE to the workload, then EPIPE)
 * Raw system calls throughout: the C library's wrappers are not needed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

static pid_t target, dead, self;

/* errname - the errno's name for the ground truth */
static const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case EPERM: return "EPERM";
	case ESRCH: return "ESRCH";
	case EINVAL: return "EINVAL";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

/* num - a TPID in an action: a number, T, D or S */
static long num(const char *s)
{
	if (!strcmp(s, "T"))
		return target;
	if (!strcmp(s, "D"))
		return dead;
	if (!strcmp(s, "S"))
		return self;
	return strtol(s, NULL, 10);
}

/* report - one line of ground truth for a call */
static void report(const char *call, const char *tpid, int sig, long ret)
{
	printf("%s %s %d %d %s\n", call, tpid, sig, ret < 0 ? -1 : (int)ret,
	       ret < 0 ? errname(errno) : "-");
	fflush(stdout);
}

/* queue - rt_sigqueueinfo (tgid 0) or rt_tgsigqueueinfo with an SI_QUEUE siginfo */
static long queue(pid_t tgid, pid_t tid, int sig)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	if (tgid)
		return syscall(SYS_rt_tgsigqueueinfo, tgid, tid, sig, &si);
	return syscall(SYS_rt_sigqueueinfo, tid, sig, &si);
}

int main(int argc, char **argv)
{
	char buf[64], a[3][24];
	sigset_t all;
	int i, n, sig, fd, p[2];
	long ret;
	const char *go = NULL;
	pid_t c;

	self = getpid();
	sigfillset(&all);
	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strncmp(argv[i], "--comm=", 7))
			prctl(PR_SET_NAME, argv[i] + 7, 0, 0, 0);
		else if (!strncmp(argv[i], "--go=", 5))
			go = argv[i] + 5;
	}
	target = fork();
	if (target == 0) {
		sigprocmask(SIG_BLOCK, &all, NULL);
		for (;;)
			pause();
	}
	dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	printf("target %d %d %d\n", (int)target, (int)dead, (int)self);
	fflush(stdout);
	usleep(50000);		/* the target has blocked its signals */
	while (go && access(go, F_OK) < 0)
		usleep(20000);

	for (; i < argc; i++) {
		n = sscanf(argv[i], "%23[a-z_]:%23[^:]:%23[^:]:%d", a[0], a[1], a[2], &sig);
		if (n == 3 && strcmp(a[0], "tgkill") && strcmp(a[0], "tgsigqueue")) {
			sig = atoi(a[2]);
			errno = 0;
			if (!strcmp(a[0], "kill"))
				ret = syscall(SYS_kill, (pid_t)num(a[1]), sig);
			else if (!strcmp(a[0], "tkill"))
				ret = syscall(SYS_tkill, (pid_t)num(a[1]), sig);
			else if (!strcmp(a[0], "sigqueue"))
				ret = queue(0, (pid_t)num(a[1]), sig);
			else if (!strcmp(a[0], "pidfd")) {
				fd = syscall(SYS_pidfd_open, (pid_t)num(a[1]), 0);
				if (fd < 0) {
					perror("pidfd_open");
					return 1;
				}
				ret = syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
				close(fd);
			} else
				goto bad;
			snprintf(buf, sizeof(buf), "%ld", num(a[1]));
			report(a[0], buf, sig, ret);
		} else if (n == 4) {
			errno = 0;
			if (!strcmp(a[0], "tgkill"))
				ret = syscall(SYS_tgkill, (pid_t)num(a[1]), (pid_t)num(a[2]), sig);
			else if (!strcmp(a[0], "tgsigqueue"))
				ret = queue((pid_t)num(a[1]), (pid_t)num(a[2]), sig);
			else
				goto bad;
			snprintf(buf, sizeof(buf), "%ld", num(a[2]));
			report(a[0], buf, sig, ret);
		} else if (n == 2 && !strcmp(a[0], "pidfdgone")) {
			sig = atoi(a[1]);
			c = fork();
			if (c == 0)
				_exit(0);
			fd = syscall(SYS_pidfd_open, c, 0);
			waitpid(c, NULL, 0);
			if (fd < 0) {
				perror("pidfd_open");
				return 1;
			}
			ret = syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
			close(fd);
			report("pidfd", "?", sig, ret);
		} else if (n == 2 && !strcmp(a[0], "uid")) {
			if (setresuid(atoi(a[1]), atoi(a[1]), 0) < 0) {
				perror("setresuid");
				return 1;
			}
		} else if (n == 1 && !strcmp(a[0], "segv")) {
			c = fork();
			if (c == 0) {
				prctl(PR_SET_NAME, "ftksegv", 0, 0, 0);
				signal(SIGSEGV, SIG_DFL);
				*(volatile int *)0 = 0;
				_exit(0);
			}
			waitpid(c, NULL, 0);
			printf("kernel %d %d ftksegv -\n", (int)c, SIGSEGV);
			fflush(stdout);
		} else if (n == 1 && !strcmp(a[0], "pipe")) {
			signal(SIGPIPE, SIG_IGN);
			if (pipe(p) < 0)
				return 1;
			close(p[0]);
			if (write(p[1], "x", 1) >= 0 || errno != EPIPE)
				return 1;
			close(p[1]);
			printf("kernel %d %d - -\n", (int)self, SIGPIPE);
			fflush(stdout);
		} else {
bad:
			fprintf(stderr, "ftt_kill: bad action '%s'\n", argv[i]);
			kill(target, SIGKILL);
			return 2;
		}
	}
	if (setresuid(0, 0, 0) < 0)	/* after uid: (the saved user is root) */
		perror("setresuid");
	ret = syscall(SYS_kill, target, SIGKILL);
	snprintf(buf, sizeof(buf), "%d", (int)target);
	report("kill", buf, SIGKILL, ret);
	waitpid(target, NULL, 0);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* child.c - the command a tool runs and traces: started held, let go once tracing is on
 *
 * The command runs under a keeper: a process of the tool's, forked before
 * the tool sets anything up (so that it holds no descriptor but stdin,
 * stdout and stderr), which makes itself the subreaper of what it starts
 * (PR_SET_CHILD_SUBREAPER), forks the command's process and waits for every
 * descendant, orphans included: its end is the end of the command and all it
 * started. The command's process waits on a pipe: the tool puts its PID in
 * the kernel's task filter (who.h), turns counting on, and only then lets it
 * run the command. A second pipe, closed by the exec (O_CLOEXEC), carries
 * back the errno of an exec that failed. The command is run by execve of the
 * file child_find found, with argv as typed, or of /bin/sh -c with the text
 * the user gave (child_shell, --exec); tests/check-source.sh rule 1 allows
 * exactly these calls here. Its calls from the end of the wait on are the
 * command's process's: the end of that read and the execve itself, then the
 * command's own. SIGCHLD stops the tool's loops when the keeper ends. The
 * keeper ends with _exit and never runs the tool's exit handlers.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "msg.h"
#include "signals.h"
#include "xalloc.h"

extern char **environ;

#define SHELL_PATH "/bin/sh"	/* --exec runs its text with sh -c, as the user asked */

static pid_t keeper;			/* waits for the command and all it starts */
static pid_t command;			/* the command's process */
static const char *shown;		/* the command, as typed, for messages */
static int go_fd = -1, err_fd = -1;	/* the tool's ends of the two pipes */
static volatile sig_atomic_t ended;

/* runnable - path is a regular file this process may execute: 0, else -1 with errno */
static int runnable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EACCES;
		return -1;
	}
	return access(path, X_OK);
}

/* child_find - see child.h */
char *child_find(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	int denied = 0;
	char *f;

	if (!name[0]) {
		errno = ENOENT;
		return NULL;
	}
	if (strchr(name, '/'))
		return runnable(name) == 0 ? xstrdup(name) : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = end + 1) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		f = end > p ? xasprintf("%.*s/%s", (int)(end - p), p, name) : xstrdup(name);
		if (runnable(f) == 0)
			return f;
		denied |= errno == EACCES;
		free(f);
		if (!*end)
			break;
	}
	errno = denied ? EACCES : ENOENT;
	return NULL;
}

/* on_child - SIGCHLD: the keeper ended, so the run ends (errno kept) */
static void on_child(int sig)
{
	int e = errno, status;

	(void)sig;
	if (keeper > 0 && waitpid(keeper, &status, WNOHANG) == keeper) {
		ended = 1;
		sig_request_stop();
	}
	errno = e;
}

/* what in_child read of its strings (volatile: the reads must be made) */
static volatile size_t touched;

/* in_child - the child: wait for the go, then run the command (never returns) */
static void __attribute__((noreturn)) in_child(const char *path, char *const argv[], int go,
					       int err)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD };
	sigset_t none;
	char c = 0;
	int e;
	size_t i;

	/* the command gets the signals as the tool got them before it changed them */
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		signal(stops[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	if (c != 'g')
		_exit(127);	/* the tool ended without letting it go */
	/*
	 * every string the exec is given is read here first: a probe at the
	 * call takes them without faulting pages in, and a page of the tool's
	 * read-only data that this process never touched since the fork is not
	 * in its page tables, so the tool would show its own command's
	 * arguments as unknown
	 */
	touched += strlen(path);
	for (i = 0; argv[i]; i++)
		touched += strlen(argv[i]);
	execve(path, argv, environ);
	e = errno;
	if (write(err, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* in_keeper - the keeper: start the command's process, tell the tool its PID,
 * then wait for it and every orphan it leaves (never returns) */
static void __attribute__((noreturn)) in_keeper(const char *path, char *const argv[], int go,
						int err, int tell)
{
	pid_t cmd, w;
	int status, code = 127;

	/* Ctrl-C reaches the whole group: the command takes it, the keeper
	 * goes on until the last process of the command ends */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	/* without it, orphans would escape the wait: the tool is told nothing,
	 * and says it could not start the command */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		_exit(127);
	cmd = fork();
	if (cmd == 0) {
		close(tell);
		in_child(path, argv, go, err);
	}
	close(go);
	close(err);
	if (write(tell, &cmd, sizeof(cmd)) != (ssize_t)sizeof(cmd) || cmd < 0)
		_exit(127);
	close(tell);
	for (;;) {
		w = waitpid(-1, &status, 0);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break;
		if (w == cmd)
			code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	_exit(code);
}

/* start - child_start, the command named in messages as `name` */
static pid_t start(const char *path, char *const argv[], const char *name)
{
	struct sigaction sa;
	int go[2], err[2], tell[2];
	pid_t cmd = -1;
	ssize_t n;

	shown = name;
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 || pipe2(tell, O_CLOEXEC) < 0)
		msg_die(EXIT_ERR, "cannot start %s:", shown);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	keeper = fork();
	if (keeper < 0)
		msg_die(EXIT_ERR, "cannot start %s:", shown);
	if (keeper == 0) {
		close(go[1]);
		close(err[0]);
		close(tell[0]);
		in_keeper(path, argv, go[0], err[1], tell[1]);
	}
	close(go[0]);
	close(err[1]);
	close(tell[1]);
	while ((n = read(tell[0], &cmd, sizeof(cmd))) < 0 && errno == EINTR)
		;
	close(tell[0]);
	if (n != (ssize_t)sizeof(cmd) || cmd <= 0)
		msg_die(EXIT_ERR, "cannot start %s: the process that waits for it failed "
			"(fork, or PR_SET_CHILD_SUBREAPER)", shown);
	go_fd = go[1];
	err_fd = err[0];
	command = cmd;
	return cmd;
}

/* child_start - see child.h */
pid_t child_start(const char *path, char *const argv[])
{
	return start(path, argv, argv[0]);
}

/* child_shell - see child.h */
pid_t child_shell(const char *command)
{
	static char *argv[4];

	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = (char *)command;
	argv[3] = NULL;
	return start(SHELL_PATH, argv, command);
}

/* child_go - see child.h */
void child_go(void)
{
	ssize_t n;
	int e;

	if (go_fd < 0)
		return;		/* no command was started, or it was let go already */
	if (write(go_fd, "g", 1) != 1) {
		/* ended before it was let go (a Ctrl-C reached it too): its
		 * SIGCHLD ends the run */
		if (errno == EPIPE || ended)
			goto done;
		msg_die(EXIT_ERR, "cannot let %s start:", shown);
	}
	close(go_fd);
	go_fd = -1;
	/* the error of a failed exec, or the end of the pipe at the exec */
	while ((n = read(err_fd, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(err_fd);
	err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		errno = e;
		msg_die(EXIT_ERR, "cannot run %s:", shown);
	}
	return;
done:
	close(go_fd);
	close(err_fd);
	go_fd = err_fd = -1;
}

/* child_ended - see child.h */
int child_ended(void)
{
	return ended;
}

/* child_report - see child.h */
void child_report(void)
{
	if (keeper > 0 && !ended)
		msg_warn("the command (PID %d) or a process it started still runs; what it "
			 "does from now on is not traced", (int)command);
}

/* child_keeper - see child.h */
pid_t child_keeper(void)
{
	return keeper;
}

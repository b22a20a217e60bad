/* SPDX-License-Identifier: GPL-2.0-only */
/* child.c - the command a tool runs and traces: started held, let go once tracing is on
 *
 * The child is forked before the tool sets anything up, so that it holds no
 * descriptor but stdin, stdout and stderr, and waits on a pipe: the tool
 * puts its PID in the kernel's task filter (who.h), turns counting on, and
 * only then lets it run the command. A second pipe, closed by the exec
 * (O_CLOEXEC), carries back the errno of an exec that failed. The command is
 * run by execve of the file child_find found, with argv as typed: no shell
 * (tests/check-source.sh rule 1 allows exactly these two calls here). Its
 * calls from the end of the wait on are the child's: the end of that read
 * and the execve itself, then the command's own. SIGCHLD stops the tool's
 * loops when the child ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "msg.h"
#include "signals.h"
#include "xalloc.h"

extern char **environ;

static pid_t child;
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

/* on_child - SIGCHLD: the child ended, so the run ends (errno kept) */
static void on_child(int sig)
{
	int e = errno, status;

	(void)sig;
	if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
		ended = 1;
		sig_request_stop();
	}
	errno = e;
}

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
	execve(path, argv, environ);
	e = errno;
	if (write(err, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* child_start - see child.h */
pid_t child_start(const char *path, char *const argv[])
{
	struct sigaction sa;
	int go[2], err[2];

	shown = argv[0];
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		msg_die(EXIT_ERR, "cannot start %s:", shown);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	child = fork();
	if (child < 0)
		msg_die(EXIT_ERR, "cannot start %s:", shown);
	if (child == 0) {
		close(go[1]);
		close(err[0]);
		in_child(path, argv, go[0], err[1]);
	}
	close(go[0]);
	close(err[1]);
	go_fd = go[1];
	err_fd = err[0];
	return child;
}

/* child_go - see child.h */
void child_go(void)
{
	ssize_t n;
	int e;

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

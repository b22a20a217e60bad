/* SPDX-License-Identifier: GPL-2.0-only */
/* pgrun - run "CMD | cat" in a new process group, as a terminal's shell does
 *
 * usage: pgrun DIR CMD [ARG...]
 *
 * Makes a new process group, starts CMD with stdout into a pipe read by cat
 * (stdout DIR/out) and stderr to DIR/err, both with default signal
 * dispositions, like a foreground pipeline typed at a terminal. Writes the
 * group id to DIR/pgid and CMD's pid to DIR/pid before it starts, then waits:
 * a test sends SIGINT to the whole group (kill -INT -PGID, what Ctrl-C does)
 * while pgrun itself ignores it, as an interactive shell would. Writes CMD's
 * exit status to DIR/rc (128+N if it died of signal N) and exits 0.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* put - write "VALUE\n" to DIR/NAME */
static void put(const char *dir, const char *name, int v)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fprintf(f, "%d\n", v);
	fclose(f);
}

/* redirect - open DIR/NAME for writing as fd */
static void redirect(const char *dir, const char *name, int fd)
{
	char path[4096];
	int f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (f < 0 || dup2(f, fd) < 0) {
		perror(path);
		_exit(127);
	}
	close(f);
}

int main(int argc, char **argv)
{
	int p[2], status;
	pid_t cmd, cat;

	if (argc < 3) {
		fprintf(stderr, "usage: pgrun DIR CMD [ARG...]\n");
		return 2;
	}
	if (setpgid(0, 0) < 0 || pipe(p) < 0) {
		perror("pgrun");
		return 1;
	}
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	put(argv[1], "pgid", (int)getpgrp());
	cmd = fork();
	if (cmd == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		redirect(argv[1], "err", 2);
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	put(argv[1], "pid", (int)cmd);
	cat = fork();
	if (cat == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		dup2(p[0], 0);
		close(p[0]);
		close(p[1]);
		redirect(argv[1], "out", 1);
		execlp("cat", "cat", (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	close(p[1]);
	waitpid(cmd, &status, 0);
	put(argv[1], "rc", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	waitpid(cat, NULL, 0);
	return 0;
}

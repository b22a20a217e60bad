/* SPDX-License-Identifier: GPL-2.0-only */
/* unit.h - a minimal unit-test harness: one line per check, status at the end */
#ifndef FTT_UNIT_H
#define FTT_UNIT_H

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int unit_failed, unit_passed;

#define CHECK(name, cond) do {						\
	if (cond) {							\
		unit_passed++;						\
	} else {							\
		unit_failed++;						\
		printf("FAIL %s (%s:%d: %s)\n", name, __FILE__, __LINE__, #cond); \
	}								\
} while (0)

/* unit_exit_status - run fn(arg) in a child with stderr captured; its exit status */
static inline int unit_exit_status(void (*fn)(const void *), const void *arg,
				   char *err, size_t len)
{
	int p[2], status = -1;
	ssize_t n;

	pid_t pid;

	if (pipe(p) < 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 2);
		fn(arg);
		exit(0);
	}
	close(p[1]);
	len--;
	while (len > 0 && (n = read(p[0], err, len)) > 0) {
		err += n;
		len -= n;
	}
	*err = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* unit_tmpdir - make a private directory for SUITE's files (in $TMPDIR, else /tmp) into buf */
static inline void unit_tmpdir(char *buf, size_t len, const char *suite)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(buf, len, "%s/ftt-unit-%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", suite);
	if (!mkdtemp(buf)) {
		printf("FAIL %s: cannot make a temporary directory %s: %s\n", suite, buf,
		       strerror(errno));
		exit(1);
	}
}

/* unit_parents - make the directories of DIR/REL that REL names (its last part is not made) */
static inline void unit_parents(const char *dir, const char *rel)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = strchr(path + strlen(dir) + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
}

/* unit_put - write TEXT to DIR/REL, making the directories REL names; exits on failure */
static inline void unit_put(const char *dir, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	unit_parents(dir, rel);
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		printf("FAIL cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* unit_rm_one - remove one entry of a tree (nftw, depth first) */
static inline int unit_rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

/* unit_rmtree - remove DIR and everything in it; -1 if something stayed */
static inline int unit_rmtree(const char *dir)
{
	return nftw(dir, unit_rm_one, 16, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

/* the exit status of a program that cannot run here (tests/run-unit.sh) */
#define UNIT_SKIP 77

/* the common fields every event format begins with (8 bytes), for formats
 * written in a test, then a blank line as the kernel writes it */
#define UNIT_COMMON_FIELDS							\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"	\
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"	\
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* unit_skip - say why SUITE cannot run here; the exit status for the runner */
static inline int unit_skip(const char *suite, const char *reason)
{
	printf("SKIP %s: %s\n", suite, reason);
	return UNIT_SKIP;
}

/* unit_done - print the tally; exit status for the runner */
static inline int unit_done(const char *suite)
{
	printf("%s %s: %d checks passed, %d failed\n", unit_failed ? "FAIL" : "PASS",
	       suite, unit_passed, unit_failed);
	return unit_failed ? 1 : 0;
}

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* test_child - the command a tool runs: found in PATH as execve runs it, held
 * until let go, run with its arguments as given (no shell), its end a stop;
 * an exec that fails is said, a tool that ends first runs nothing */
#include <fcntl.h>
#include <signal.h>
#include <time.h>

#include "child.h"
#include "msg.h"
#include "signals.h"
#include "unit.h"

static char dir[128];

/* found_is - child_find(name) is want (NULL: not found, with errno err) */
static void found_is(const char *name, const char *want, int err)
{
	char label[256];
	char *got;

	errno = 0;
	got = child_find(name);
	snprintf(label, sizeof(label), "child_find '%s'", name);
	if (want) {
		CHECK(label, got && !strcmp(got, want));
		if (!got || strcmp(got, want))
			printf("     got '%s', wanted '%s'\n", got ? got : "(null)", want);
	} else {
		CHECK(label, !got && errno == err);
		if (got || errno != err)
			printf("     got '%s', errno %d, wanted errno %d\n", got ? got : "(null)", errno,
			       err);
	}
	free(got);
}

/* put_file - a file in dir with text and mode */
static void put_file(const char *name, const char *text, mode_t mode)
{
	char path[256];

	unit_put(dir, name, text);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	chmod(path, mode);
}

/* wait_stop - up to 5 s for sig_stop (the child's SIGCHLD) */
static int wait_stop(void)
{
	struct timespec ts = { 0, 10000000 };
	int i;

	for (i = 0; i < 500 && !sig_stop; i++)
		nanosleep(&ts, NULL);
	return sig_stop;
}

/* run_ok - a command that writes its argv to a file: held until let go, then
 * run with its arguments as they are, and its end stops the loops */
static void run_ok(void)
{
	char script[256], out[256], text[256] = "";
	char *argv[] = { script, "two words", "$HOME", NULL };
	FILE *f;
	size_t n;

	snprintf(script, sizeof(script), "%s/argv.sh", dir);
	snprintf(out, sizeof(out), "%s/argv.sh.out", dir);
	unlink(out);
	sig_stop = 0;
	child_start(script, argv);
	usleep(100000);
	CHECK("held: nothing run before child_go", access(out, F_OK) < 0);
	CHECK("held: not ended", !child_ended() && !sig_stop);
	child_go();
	CHECK("its end stops the loops", wait_stop());
	CHECK("child_ended", child_ended());
	f = fopen(out, "re");
	if (f) {
		n = fread(text, 1, sizeof(text) - 1, f);
		text[n] = '\0';
		fclose(f);
	}
	CHECK("run with its arguments as given, no shell", !strcmp(text, "[two words] [$HOME]\n"));
	if (strcmp(text, "[two words] [$HOME]\n"))
		printf("     got '%s'\n", text);
}

/* go_bad - child_go of a file the kernel will not run: dies naming it */
static void go_bad(const void *path)
{
	char *argv[] = { (char *)path, NULL };

	child_start(path, argv);
	child_go();
}

/* end_first - the tool ends before child_go: the child runs nothing */
static void end_first(const void *path)
{
	char *argv[] = { (char *)path, NULL };

	child_start(path, argv);
	usleep(100000);
	_exit(0);
}

int main(void)
{
	char path[256], saved[4096], err[512], out[256];
	const char *p = getenv("PATH");
	int rc;

	msg_init("unit");
	sig_init();
	unit_tmpdir(dir, sizeof(dir), "child");
	snprintf(saved, sizeof(saved), "%s", p ? p : "");
	put_file("argv.sh", "#!/bin/sh\nprintf '[%s] ' \"$@\" | sed 's/ $//' > \"$0.out\"; echo >> \"$0.out\"\n",
		 0755);
	put_file("plain", "not a program\n", 0644);
	put_file("junk", "\x01\x02\x03 not an executable format\n", 0755);
	mkdir(strcat(strcpy(path, dir), "/sub"), 0755);
	put_file("sub/argv.sh", "#!/bin/sh\n", 0755);

	/* PATH: the first executable regular file, in order; an empty entry is "." */
	setenv("PATH", strcat(strcpy(path, dir), "/none::/bin"), 1);
	if (chdir("/") == 0)
		found_is("argv.sh", NULL, ENOENT);
	if (chdir(dir) == 0)
		found_is("argv.sh", "argv.sh", 0);
	if (chdir("/") < 0)
		CHECK("chdir /", 0);
	setenv("PATH", strcat(strcat(strcpy(path, dir), "/sub:"), dir), 1);
	snprintf(out, sizeof(out), "%s/sub/argv.sh", dir);
	found_is("argv.sh", out, 0);
	setenv("PATH", dir, 1);
	found_is("plain", NULL, EACCES);	/* there, but not to be run */
	found_is("sub", NULL, EACCES);		/* a directory */
	found_is("no-such-command-ftt", NULL, ENOENT);
	found_is("", NULL, ENOENT);
	/* a name with a slash is the file itself */
	snprintf(out, sizeof(out), "%s/argv.sh", dir);
	found_is(out, out, 0);
	snprintf(out, sizeof(out), "%s/plain", dir);
	found_is(out, NULL, EACCES);
	snprintf(out, sizeof(out), "%s/none", dir);
	found_is(out, NULL, ENOENT);
	setenv("PATH", saved, 1);

	run_ok();

	snprintf(out, sizeof(out), "%s/junk", dir);
	rc = unit_exit_status(go_bad, out, err, sizeof(err));
	CHECK("an exec refused: exit 1", rc == 1);
	CHECK("an exec refused: one line naming the command",
	      strstr(err, "cannot run ") && strstr(err, "/junk: Exec format error") &&
	      strchr(err, '\n') == err + strlen(err) - 1);
	if (rc != 1 || !strstr(err, "Exec format error"))
		printf("     got %d: %s", rc, err);

	snprintf(out, sizeof(out), "%s/argv.sh", dir);
	snprintf(path, sizeof(path), "%s/argv.sh.out", dir);
	unlink(path);
	rc = unit_exit_status(end_first, out, err, sizeof(err));
	usleep(200000);
	CHECK("the tool ends first: nothing run", rc == 0 && access(path, F_OK) < 0);

	unit_rmtree(dir);
	return unit_done("child");
}

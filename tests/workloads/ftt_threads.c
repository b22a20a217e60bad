/* SPDX-License-Identifier: GPL-2.0-only */
/* ftt_threads - many threads, then more threads and a child, each with a known action
 *
 * usage: ftt_threads DIR N MORE GO
 * Starts N threads that wait, prints "ready PID" once all of them run, and
 * waits until the file GO exists. Then every task does its action once: the
 * N threads and the main thread, MORE threads started now, a child process
 * forked now, and a thread that child starts. A task's action is
 *   open("DIR/tTID", O_RDONLY) through the C library (the file is missing),
 *   close(0x10000000 + TID)   (no such descriptor),
 * TID being its own thread ID (a child's main thread: its PID). After its
 * action each task prints "tTID" on stdout, one write per line, so stdout
 * ends up listing exactly the tasks that acted. Exits 0 when all have.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MARK 0x10000000

static const char *dir;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int started, go;

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0)
		;
}

/* act - this task's action, then its line on stdout */
static void act(void)
{
	char path[4096], line[32];
	int tid = (int)syscall(SYS_gettid), fd, n;

	snprintf(path, sizeof(path), "%s/t%d", dir, tid);
	fd = open(path, O_RDONLY);
	if (fd >= 0)
		close(fd);
	syscall(SYS_close, MARK + tid);
	n = snprintf(line, sizeof(line), "t%d\n", tid);
	if (write(1, line, n) != n)
		exit(1);
}

/* waiter - one of the first N: runs, then waits for the go */
static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	started++;
	pthread_cond_broadcast(&cv);
	while (!go)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	act();
	return NULL;
}

/* actor - a thread started after the go: acts at once */
static void *actor(void *arg)
{
	(void)arg;
	act();
	return NULL;
}

/* spawn - start a thread with a small stack; exits on failure */
static pthread_t spawn(void *(*fn)(void *))
{
	pthread_attr_t a;
	pthread_t t;

	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	if (pthread_create(&t, &a, fn, NULL)) {
		fprintf(stderr, "ftt_threads: cannot start a thread\n");
		exit(1);
	}
	pthread_attr_destroy(&a);
	return t;
}

int main(int argc, char **argv)
{
	pthread_t *t;
	int n, more, i, status;
	pid_t child;
	char line[32];

	if (argc != 5) {
		fprintf(stderr, "usage: ftt_threads DIR N MORE GO\n");
		return 2;
	}
	dir = argv[1];
	n = atoi(argv[2]);
	more = atoi(argv[3]);
	prctl(PR_SET_NAME, "ftt_threads", 0, 0, 0);
	t = calloc(n + more + 1, sizeof(*t));
	if (!t)
		return 1;
	for (i = 0; i < n; i++)
		t[i] = spawn(waiter);
	pthread_mutex_lock(&mu);
	while (started < n)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	i = snprintf(line, sizeof(line), "ready %d\n", (int)getpid());
	if (write(2, line, i) != i)
		return 1;
	while (access(argv[4], F_OK) < 0)
		nap_ms(10);

	pthread_mutex_lock(&mu);
	go = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	act();
	for (i = 0; i < more; i++)
		t[n + i] = spawn(actor);
	child = fork();
	if (child == 0) {
		pthread_t c = spawn(actor);

		act();
		pthread_join(c, NULL);
		_exit(0);
	}
	for (i = 0; i < n + more; i++)
		pthread_join(t[i], NULL);
	if (child < 0 || waitpid(child, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return 1;
	return 0;
}

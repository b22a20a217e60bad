/* opengen - open one unique path N times as fast as possible (bench load)
 *
 * usage: opengen N [PATH]
 * Creates PATH (default /tmp/opengen.PID), then does open(O_RDONLY)+close N
 * times, then removes it. Static and libc-startup free of other opens, so a
 * tracer of syscalls:sys_enter_openat sees exactly N events from this PID.
 * Prints "pid N seconds ops_per_sec" on stdout.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* now_s - monotonic time in seconds */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	char path[128];
	unsigned long n, i;
	double t0, t1;
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: opengen N [PATH]\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 10);
	if (argc == 3)
		snprintf(path, sizeof(path), "%s", argv[2]);
	else
		snprintf(path, sizeof(path), "/tmp/opengen.%d", (int)getpid());
	fd = creat(path, 0600);		/* creat(2): not an openat event */
	if (fd < 0) {
		perror(path);
		return 1;
	}
	close(fd);
	t0 = now_s();
	for (i = 0; i < n; i++) {
		fd = open(path, O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
	t1 = now_s();
	unlink(path);
	printf("%d %lu %.6f %.0f\n", (int)getpid(), n, t1 - t0, n / (t1 - t0));
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* harness - run one tracing tool against one load, and measure both
 *
 * usage: harness [-P open|kill|io:FILE|banner:MS] [-q quiet_ms] [-k stop_s] [-o out] [-e err]
 *                [-N n] [-G "gen args"] [-- tool args...]
 *
 * Starts the tool (if any) in its own process group with its stdout on a pipe
 * that the harness reads and counts, like `tool | grep -c`. It waits until the
 * tool is ready: with -P open (the default) the harness opens "/" every 5 ms
 * until a line of output carries its own PID; with -P kill it sends itself
 * signal 0 (kill(2), which sends nothing) every 5 ms instead; with -P io:FILE it reads 4 KiB of
 * FILE with O_DIRECT every 5 ms instead (block I/O tools); with -P banner:MS
 * it waits for a line containing "Tracing", then MS more (tools that print no
 * PID, like histograms). Then it runs the load generator (-G,
 * split on spaces; its first line of stdout is kept), keeps reading until the
 * generator's N events (-N) are all seen or none came for quiet_ms, sends
 * SIGINT to the tool's group, reads to EOF and reaps it. A tool still writing
 * stop_s seconds after the SIGINT (-k, default 10) is killed (SIGKILL).
 *
 * Prints one line of key=value pairs on stdout:
 *   banner_s ready_s   exec to the first "Tracing" line; to the first own event
 *   gen=...            the generator's own line, commas for spaces (opengen:
 *                      pid,n,seconds,ops/s,ops per CPU second)
 *   seen               output lines carrying the generator's PID
 *   lines              all output lines
 *   cpu_s              user+sys seconds of the tool and everything it waited for
 *   maxrss_kb          largest single process of the tool (wait4)
 *   rss_sum_kb         peak of the summed RSS of the tool's process group (sampled)
 *   stop_s             SIGINT to exit
 *   status             the tool's exit status (or 128+signal)
 * Without a tool it only runs the generator (the untraced and floor runs).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 32

struct counter {
	char tok[2][16];	/* " PID " forms: own PID, generator PID */
	size_t toklen[2];
	unsigned long hits[2], lines;
	unsigned long lostmarks, lostsum;	/* ftrace's "[LOST N EVENTS]" lines, their N */
	int banner;
	char part[8192];	/* an unfinished line */
	size_t plen;
	FILE *save;
};

static double t_start;

/* now_s - monotonic seconds */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* die - message and exit 1 */
static void die(const char *what)
{
	fprintf(stderr, "harness: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* has_pid - does the line hold `pid` as a token: after '-' or ' ', before ' ' or '[' */
static int has_pid(const char *l, size_t n, const char *pid, size_t plen)
{
	const char *p = l, *end = l + n;

	if (!plen)
		return 0;
	while ((p = memmem(p, end - p, pid, plen))) {
		if (p > l && (p[-1] == '-' || p[-1] == ' ') &&
		    (p + plen == end || p[plen] == ' ' || p[plen] == '['))
			return 1;
		p += plen;
	}
	return 0;
}

/* line - count one complete line of tool output */
static void line(struct counter *c, const char *l, size_t n)
{
	const char *p;
	int i;

	c->lines++;
	/* the bash tools pass trace_pipe's loss marks on: "CPU:1 [LOST 672 EVENTS]" */
	if ((p = memmem(l, n, "LOST", 4)) && memmem(l, n, "EVENTS", 6)) {
		c->lostmarks++;
		c->lostsum += strtoul(p + 4, NULL, 10);
	}
	if (!c->banner && memmem(l, n, "Tracing", 7))
		c->banner = 1;
	for (i = 0; i < 2; i++)
		if (has_pid(l, n, c->tok[i], c->toklen[i]))
			c->hits[i]++;
}

/* feed - split a chunk of output into lines */
static void feed(struct counter *c, const char *buf, size_t n)
{
	const char *p = buf, *nl, *end = buf + n;

	if (c->save)
		fwrite(buf, 1, n, c->save);
	while ((nl = memchr(p, '\n', end - p))) {
		if (c->plen) {
			size_t k = nl - p;

			if (k > sizeof(c->part) - c->plen)
				k = sizeof(c->part) - c->plen;
			memcpy(c->part + c->plen, p, k);
			line(c, c->part, c->plen + k);
			c->plen = 0;
		} else {
			line(c, p, nl - p);
		}
		p = nl + 1;
	}
	if (p < end) {
		size_t k = end - p;

		if (k > sizeof(c->part) - c->plen)
			k = sizeof(c->part) - c->plen;
		memcpy(c->part + c->plen, p, k);
		c->plen += k;
	}
}

/* drain - read what the tool's pipe holds, waiting up to ms; -1 at EOF */
static int drain(int fd, struct counter *c, int ms)
{
	static char buf[1 << 16];
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	if (fd < 0) {
		if (ms > 0)
			poll(NULL, 0, ms);
		return 0;
	}
	if (poll(&p, 1, ms) <= 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		feed(c, buf, n);
	if (n == 0)
		return -1;
	return 0;
}

/* group_rss_kb - summed resident memory of every process in group pg */
static long group_rss_kb(pid_t pg)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long sum = 0, pagekb = sysconf(_SC_PAGESIZE) / 1024;
	char path[300], buf[512], *p;
	int fd, n;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		long size, res;
		int pgid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 2, "%*c %*d %d", &pgid) != 1 || pgid != pg)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/statm", e->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			if (sscanf(buf, "%ld %ld", &size, &res) == 2)
				sum += res * pagekb;
		}
	}
	closedir(d);
	return sum;
}

/* split - cut a command string on spaces into argv */
static void split(char *s, char **argv)
{
	int n = 0;
	char *t;

	for (t = strtok(s, " "); t && n < MAX_ARGS - 1; t = strtok(NULL, " "))
		argv[n++] = t;
	argv[n] = NULL;
}

/* spawn - fork argv with stdout on a new pipe (*rd) and stderr to errpath; own group if pg */
static pid_t spawn(char **argv, int *rd, const char *errpath, int pg)
{
	int p[2];
	pid_t pid;

	if (pipe(p) < 0)
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (pg)
			setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		if (errpath) {
			int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd >= 0) {
				dup2(fd, 2);
				close(fd);
			}
		}
		execvp(argv[0], argv);
		fprintf(stderr, "harness: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pg)
		setpgid(pid, pid);
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	*rd = p[0];
	return pid;
}

int main(int argc, char **argv)
{
	const char *probe = "open", *iofile = NULL, *outpath = NULL, *errpath = NULL;
	char *gen_cmd = NULL, *gen_argv[MAX_ARGS], genline[256] = "", **tool = NULL;
	static struct counter c;
	double banner_s = -1, ready_s = -1, last_hit, next_probe = 0, next_rss = 0;
	double quiet = 1.0, stop_s = -1, stop_max = 10, t;
	unsigned long want = 0, prev_hits = 0;
	long rss, rss_peak = 0;
	pid_t tpid = 0, gpid;
	int opt, tfd = -1, gfd, st, tstatus = -1, gdone = 0, eof = 0, iofd = -1;
	double banner_wait = 0.2;
	void *iobuf = NULL;
	struct rusage ru = { 0 };
	size_t glen = 0;
	ssize_t n;

	while ((opt = getopt(argc, argv, "P:q:k:o:e:N:G:")) != -1) {
		switch (opt) {
		case 'P': probe = optarg; break;
		case 'q': quiet = atof(optarg) / 1000; break;
		case 'k': stop_max = atof(optarg); break;
		case 'o': outpath = optarg; break;
		case 'e': errpath = optarg; break;
		case 'N': want = strtoul(optarg, NULL, 10); break;
		case 'G': gen_cmd = optarg; break;
		default:
			fprintf(stderr, "usage: harness [-P open|kill|io:FILE|banner:MS] [-q ms] [-k s] [-o out] [-e err] "
				"[-N n] -G 'gen args' [-- tool args...]\n");
			return 2;
		}
	}
	if (!gen_cmd) {
		fprintf(stderr, "harness: -G is required\n");
		return 2;
	}
	if (optind < argc)
		tool = argv + optind;
	if (!strncmp(probe, "io:", 3)) {
		iofile = probe + 3;
		iofd = open(iofile, O_RDONLY | O_DIRECT);
		if (iofd < 0 || posix_memalign(&iobuf, 4096, 4096))
			die(iofile);
	} else if (!strncmp(probe, "banner:", 7)) {
		banner_wait = atof(probe + 7) / 1000;
	} else if (strcmp(probe, "open") && strcmp(probe, "kill")) {
		fprintf(stderr, "harness: unknown probe %s\n", probe);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (outpath && !(c.save = fopen(outpath, "w")))
		die(outpath);
	c.toklen[0] = snprintf(c.tok[0], sizeof(c.tok[0]), "%d", (int)getpid());

	/* 1. the tool, until it is ready */
	t_start = now_s();
	if (tool) {
		tpid = spawn(tool, &tfd, errpath, 1);
		while (ready_s < 0) {
			if (drain(tfd, &c, 2) < 0) {
				waitpid(tpid, &st, 0);
				printf("status=%d error=exited_before_ready lines=%lu\n",
				       WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), c.lines);
				return 1;
			}
			t = now_s();
			if (c.banner && banner_s < 0)
				banner_s = t - t_start;
			if (!strcmp(probe, "open") || !strcmp(probe, "kill") || iofile) {
				if (c.hits[0])
					ready_s = t - t_start;
				else if (t >= next_probe) {
					if (iofile) {
						if (pread(iofd, iobuf, 4096, 0) < 0)
							die(iofile);
					} else if (!strcmp(probe, "kill")) {
						kill(getpid(), 0);
					} else {
						close(open("/", O_RDONLY));
					}
					next_probe = t + 0.005;
				}
			} else if (banner_s >= 0 && t - t_start >= banner_s + banner_wait) {
				ready_s = banner_s;
			}
			/* 15 s to be ready, past the wait a banner asks for */
			if (t - t_start > 15 + (banner_s >= 0 ? banner_wait : 0)) {
				kill(-tpid, SIGTERM);
				waitpid(tpid, &st, 0);
				printf("status=-1 error=not_ready_in_15s lines=%lu\n", c.lines);
				return 1;
			}
		}
	}

	/* 2. the load, reading the tool all along */
	split(gen_cmd, gen_argv);
	gpid = spawn(gen_argv, &gfd, NULL, 0);
	c.toklen[1] = snprintf(c.tok[1], sizeof(c.tok[1]), "%d", (int)gpid);
	while (!gdone) {
		drain(tfd, &c, 5);
		while ((n = read(gfd, genline + glen, sizeof(genline) - 1 - glen)) > 0)
			glen += n;
		if (waitpid(gpid, &st, WNOHANG) == gpid)
			gdone = 1;
		if (tool && (t = now_s()) >= next_rss) {
			rss = group_rss_kb(tpid);
			if (rss > rss_peak)
				rss_peak = rss;
			next_rss = t + 0.25;
		}
	}
	while ((n = read(gfd, genline + glen, sizeof(genline) - 1 - glen)) > 0)
		glen += n;
	genline[glen] = '\0';
	genline[strcspn(genline, "\n")] = '\0';
	for (char *p = genline; *p; p++)
		if (*p == ' ')
			*p = ',';
	if (!tool) {
		printf("gen=%s\n", genline);
		return 0;
	}

	/* 3. until all N are seen or the output goes quiet, then stop the tool */
	last_hit = now_s();
	while (!want || c.hits[1] < want) {
		drain(tfd, &c, 20);
		t = now_s();
		if (c.hits[1] != prev_hits) {
			prev_hits = c.hits[1];
			last_hit = t;
		}
		if (t - last_hit >= quiet)
			break;
	}
	t = now_s();
	kill(-tpid, SIGINT);
	while (!eof) {
		if (drain(tfd, &c, 50) < 0)
			eof = 1;
		if (now_s() - t > stop_max) {
			kill(-tpid, SIGKILL);
			break;
		}
	}
	if (wait4(tpid, &st, 0, &ru) == tpid) {
		stop_s = now_s() - t;
		tstatus = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	if (c.save)
		fclose(c.save);
	printf("banner_s=%.4f ready_s=%.4f gen=%s seen=%lu lines=%lu lostmarks=%lu lostsum=%lu "
	       "cpu_s=%.3f maxrss_kb=%ld rss_sum_kb=%ld stop_s=%.3f status=%d\n",
	       banner_s, ready_s, genline, c.hits[1], c.lines, c.lostmarks, c.lostsum,
	       ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6,
	       ru.ru_maxrss, rss_peak, stop_s, tstatus);
	return 0;
}

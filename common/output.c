/* output.c - where event lines go: stdout live, or memory until the end (-d)
 *
 * Live output is fully buffered and flushed once per batch of events drained
 * from the kernel, so a pipe sees each line promptly without a write() per line.
 * A reader that has gone away (| head) is noticed both on write (EPIPE) and by
 * polling stdout for an error, so the tool ends even when no more events come.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "output.h"
#include "signals.h"

FILE *out;
static char *mem_buf;
static size_t mem_len;
static int buffered_mode, broken, is_pipe;

/* out_init - live (buffered == 0) or buffered-until-out_finish output */
void out_init(int buffered)
{
	struct stat st;

	buffered_mode = buffered;
	is_pipe = fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode);
	out = stdout;
	if (buffered) {
		out = open_memstream(&mem_buf, &mem_len);
		if (!out) {
			out = stdout;
			buffered_mode = 0;
		}
	}
}

/* stdout_gone - has the pipe's reader closed its end? */
static int stdout_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = 0 };

	if (!is_pipe)
		return 0;
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

/* out_broken - true once stdout's reader has gone away */
int out_broken(void)
{
	return broken;
}

/* out_batch_end - live: push what is pending; a closed pipe requests the stop */
void out_batch_end(void)
{
	if (broken)
		return;
	if (!buffered_mode && (fflush(stdout) == EOF || ferror(stdout))) {
		broken = 1;
		sig_request_stop();
		return;
	}
	if (stdout_gone()) {
		broken = 1;
		sig_request_stop();
	}
}

/* out_finish - buffered: write everything collected to stdout; flush either way */
void out_finish(void)
{
	if (buffered_mode && out != stdout) {
		fclose(out);
		out = stdout;
		if (mem_len && !broken)
			fwrite(mem_buf, 1, mem_len, stdout);
		free(mem_buf);
		mem_buf = NULL;
		buffered_mode = 0;
	}
	if (!broken && fflush(stdout) == EOF)
		broken = 1;
}

/* out_ending - out_finish, then the closing "Ending tracing..." unless stdout is gone */
void out_ending(void)
{
	out_finish();
	if (!broken) {
		printf("\nEnding tracing...\n");
		fflush(stdout);
	}
}

/* out_time - format a trace timestamp (ns) as seconds.microseconds */
char *out_time(unsigned long long ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%06llu", ns / 1000000000ULL, (ns % 1000000000ULL) / 1000);
	return buf;
}

/* out_hms - local wall-clock HH:MM:SS of a CLOCK_MONOTONIC timestamp (trace_clock mono) */
char *out_hms(unsigned long long mono_ns, char *buf, size_t len)
{
	static long long offset;	/* CLOCK_REALTIME - CLOCK_MONOTONIC, in ns */
	struct timespec rt, mono;
	struct tm tm;
	time_t t;

	if (!offset) {
		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC, &mono);
		offset = (rt.tv_sec - mono.tv_sec) * 1000000000LL + (rt.tv_nsec - mono.tv_nsec);
	}
	t = (time_t)(((long long)mono_ns + offset) / 1000000000LL);
	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
	return buf;
}

/* out_vis - append src to dst at offset at, control bytes as ^X (cat -v); the new length */
size_t out_vis(char *dst, size_t len, size_t at, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n && at + 3 < len; i++) {
		unsigned char c = src[i];

		if (c < 0x20 || c == 0x7f) {
			dst[at++] = '^';
			dst[at++] = c == 0x7f ? '?' : c + 64;
		} else {
			dst[at++] = c;
		}
	}
	dst[at] = '\0';
	return at;
}

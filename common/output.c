/* output.c - where event lines go: stdout live, or memory until the end (-d)
 *
 * Live output is fully buffered and flushed once per batch of events drained
 * from the kernel, so a pipe sees each line promptly without a write() per line.
 * A reader that has gone away (| head) is noticed both on write (EPIPE) and by
 * polling stdout for an error, so the tool ends even when no more events come.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
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

/* set_broken - stdout takes no more: its reader went away, or, after a second
 * stop signal, took nothing (then the lines not written are said to be lost) */
static void set_broken(void)
{
	int e = errno, fl = fcntl(STDOUT_FILENO, F_GETFL);

	if (!broken && e != EPIPE &&
	    (e == EAGAIN || e == EWOULDBLOCK || (fl >= 0 && (fl & O_NONBLOCK))))
		msg_warn("stopped twice while the reader of the output took nothing: "
			 "the output not yet written is dropped");
	broken = 1;
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
		set_broken();
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
		if (mem_len && !broken && fwrite(mem_buf, 1, mem_len, stdout) < mem_len)
			set_broken();
		free(mem_buf);
		mem_buf = NULL;
		buffered_mode = 0;
	}
	if (!broken && fflush(stdout) == EOF)
		set_broken();
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

/* out_num - see output.h */
char *out_num(unsigned long long v, int base, int width, char *buf, size_t len)
{
	char d[72];
	int at = sizeof(d) - 1;

	d[at] = '\0';
	do
		d[--at] = "0123456789abcdef"[v % base];
	while ((v /= base));
	while (at > (int)sizeof(d) - 1 - width && at > 0)
		d[--at] = '0';
	if (len) {
		len = len - 1 < sizeof(d) - 1 - at ? len - 1 : sizeof(d) - 1 - at;
		memcpy(buf, d + at, len);
		buf[len] = '\0';
	}
	return buf;
}

/* line_pad - n bytes of s, then spaces up to width, as room allows */
static void line_pad(struct out_line *l, const char *s, size_t n, int width, int right)
{
	size_t room = sizeof(l->buf) - l->n, pad = width > 0 && (size_t)width > n ? width - n : 0;

	if (right && pad) {
		pad = pad < room ? pad : room;
		memset(l->buf + l->n, ' ', pad);
		l->n += pad;
		room -= pad;
		pad = 0;
	}
	n = n < room ? n : room;
	memcpy(l->buf + l->n, s, n);
	l->n += n;
	room -= n;
	pad = pad < room ? pad : room;
	memset(l->buf + l->n, ' ', pad);
	l->n += pad;
}

/* line_str - see output.h */
void line_str(struct out_line *l, const char *s, int width, int max)
{
	line_pad(l, s, max < 0 ? strlen(s) : strnlen(s, max), width, 0);
}

/* line_rstr - see output.h */
void line_rstr(struct out_line *l, const char *s, int width)
{
	line_pad(l, s, strlen(s), width, 1);
}

/* line_dec - see output.h */
void line_dec(struct out_line *l, long long v, int width)
{
	char d[24];
	unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	int at = sizeof(d);

	do
		d[--at] = '0' + u % 10;
	while (u /= 10);
	if (v < 0)
		d[--at] = '-';
	line_pad(l, d + at, sizeof(d) - at, width < 0 ? -width : width, width < 0);
}

/* line_add - see output.h */
void line_add(struct out_line *l, const char *s)
{
	line_pad(l, s, strlen(s), 0, 0);
}

/* line_put - see output.h */
void line_put(struct out_line *l)
{
	fwrite(l->buf, 1, l->n, out);
	l->n = 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* output.c - where event lines go: stdout live, or a temporary file until the end (-d)
 *
 * Live output is fully buffered and flushed once per batch of events drained
 * from the kernel, so a pipe sees each line promptly without a write() per line.
 * A reader that has gone away (| head) is noticed both on write (EPIPE) and by
 * polling stdout for an error, so the tool ends even when no more events come.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "msg.h"
#include "output.h"
#include "signals.h"

FILE *out;
int out_json;
static char json_host[1024] = "\"\"";	/* the node name, escaped and quoted */
static char *mem_buf;		/* -d without a temporary file: memory */
static size_t mem_len;
static int buffered_mode, spilled, broken, is_pipe, spill_mem;

/*
 * spill_file - an unlinked file in $TMPDIR (default /tmp) for -d's output, so
 * a long run's lines take disk, not the tool's memory; NULL (errno) if none
 */
static FILE *spill_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *f;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	if (spill_mem) {
		fd = memfd_create("ftt-out", MFD_CLOEXEC);
		goto done;
	}
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		if (snprintf(path, sizeof(path), "%s/ftt-out-XXXXXX", dir) >= (int)sizeof(path)) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		fd = mkstemp(path);
		if (fd >= 0)
			unlink(path);
	}
done:
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w+");
	if (!f)
		close(fd);
	return f;
}

/* out_spill_memory - see output.h */
void out_spill_memory(void)
{
	spill_mem = 1;
}

/* out_init - live (buffered == 0) or buffered-until-out_finish output */
void out_init(int buffered)
{
	struct stat st;

	buffered_mode = buffered;
	is_pipe = fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode);
	out = stdout;
	if (buffered) {
		out = spill_file();
		spilled = out != NULL;
		if (!out) {
			msg_warn("no temporary file in %s (%s): the output waits in memory",
				 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
				 strerror(errno));
			out = open_memstream(&mem_buf, &mem_len);
		}
		if (!out) {
			out = stdout;
			buffered_mode = 0;
		}
	}
}

/* copy_spill - the temporary file's lines to stdout; -1 if stdout refused them */
static int copy_spill(FILE *f)
{
	char buf[65536];
	size_t n;

	if (fflush(f) == EOF || fseek(f, 0, SEEK_SET) < 0) {
		msg_warn("the output kept for the end could not be read back:");
		return 0;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, n, stdout) < n)
			return -1;
	if (ferror(f))
		msg_warn("the output kept for the end could not be read back in full:");
	return 0;
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
static void out_finish(void)
{
	if (buffered_mode && out != stdout) {
		if (spilled && !broken && copy_spill(out) < 0)
			set_broken();
		fclose(out);
		out = stdout;
		if (mem_len && !broken && fwrite(mem_buf, 1, mem_len, stdout) < mem_len)
			set_broken();
		free(mem_buf);
		mem_buf = NULL;
		buffered_mode = spilled = 0;
	}
	if (!broken && fflush(stdout) == EOF)
		set_broken();
}

/* out_ending - out_finish, then the closing "Ending tracing..." unless stdout is gone */
void out_ending(void)
{
	out_finish();
	if (out_json)
		fprintf(stderr, "Ending tracing...\n");
	else if (!broken) {
		printf("\nEnding tracing...\n");
		fflush(stdout);
	}
}

/* out_banner - see output.h */
void out_banner(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(out_json ? stderr : stdout, fmt, ap);
	va_end(ap);
}

/* out_tracing - see output.h */
void out_tracing(double duration, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (duration > 0)
		out_banner("Tracing %s for %g seconds (buffered)...\n", what, duration);
	else
		out_banner("Tracing %s. Ctrl-C to end.\n", what);
}

/* out_time - format a trace timestamp (ns) as seconds.microseconds */
char *out_time(unsigned long long ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%06llu", ns / 1000000000ULL, (ns % 1000000000ULL) / 1000);
	return buf;
}

/* mono_offset - CLOCK_REALTIME - CLOCK_MONOTONIC in ns, taken once: every
 * wall-clock time a run prints is converted on the same basis */
static long long mono_offset(void)
{
	static long long offset;
	struct timespec rt, mono;

	if (!offset) {
		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC, &mono);
		offset = (rt.tv_sec - mono.tv_sec) * 1000000000LL + (rt.tv_nsec - mono.tv_nsec);
	}
	return offset;
}

/* out_hms - local wall-clock HH:MM:SS of a CLOCK_MONOTONIC timestamp (trace_clock mono) */
static char *out_hms(unsigned long long mono_ns, char *buf, size_t len)
{
	struct tm tm;
	time_t t;

	t = (time_t)(((long long)mono_ns + mono_offset()) / 1000000000LL);
	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
	return buf;
}

/* line_times - see output.h */
void line_times(struct out_line *l, unsigned long long ts, int mono, int hms, int secs)
{
	char buf[64];

	line_begin(l, mono ? ts : OUT_NO_TIME);
	if (hms) {
		line_str(l, out_hms(ts, buf, sizeof(buf)), 8, -1);
		line_add(l, " ");
	}
	if (secs) {
		line_str(l, out_time(ts, buf, sizeof(buf)), 16, -1);
		line_add(l, " ");
	}
}

/* out_time_headers - see output.h */
void out_time_headers(int hms, int secs)
{
	if (hms)
		printf("%-8s ", "TIME");
	if (secs)
		printf("%-16s ", "TIMEs");
}

/* out_vis - see output.h */
size_t out_vis(char *dst, size_t len, size_t at, const char *src, size_t n)
{
	return json_escape(dst, len, at, src, n, 0, NULL);
}

/*
 * vis_write - write n bytes of s to fp as out_vis shows them, a newline kept
 * as it is where keep_nl (every one if keep_nl > 1, else only a last one)
 */
static void vis_write(FILE *fp, const char *s, size_t n, int keep_nl)
{
	char buf[1024];
	size_t i = 0, run, k;

	while (i < n) {
		/* the longest stretch that needs no escape goes out as it is */
		for (run = i; run < n; run += k) {
			k = json_safe_len((const unsigned char *)s + run, n - run);
			if (!k)
				break;
		}
		fwrite(s + i, 1, run - i, fp);
		i = run;
		if (i < n && s[i] == '\n' && (keep_nl > 1 || i + 1 == n)) {
			fputc('\n', fp);
			i++;
		} else if (i < n) {
			k = out_vis(buf, sizeof(buf), 0, s + i, 1);
			fwrite(buf, 1, k, fp);
			i++;
		}
	}
}

/* out_write - see output.h */
void out_write(FILE *fp, const char *s, size_t n)
{
	vis_write(fp, s, n, 1);
}

/* out_text - see output.h */
size_t out_text(FILE *fp, const char *s, size_t n)
{
	size_t keep = 0, k;

	/* a character cut at the end of s: held back, for the next piece */
	for (k = 1; k <= 3 && k <= n; k++) {
		unsigned char c = s[n - k];

		if ((c & 0xc0) == 0x80)
			continue;
		if ((c >= 0xc2 && c <= 0xdf && k < 2) || (c >= 0xe0 && c <= 0xef && k < 3) ||
		    (c >= 0xf0 && c <= 0xf4 && k < 4))
			keep = k;
		break;
	}
	vis_write(fp, s, n - keep, 2);
	return n - keep;
}

/* digits - v in base 8, 10 or 16, zero-padded to width, written to the end
 * of d (size bytes); where it starts */
static int digits(unsigned long long v, int base, int width, char *d, int size)
{
	int at = size;

	if (base == 16)
		do
			d[--at] = "0123456789abcdef"[v & 15];
		while ((v >>= 4));
	else if (base == 10)
		do
			d[--at] = (char)('0' + v % 10);
		while ((v /= 10));
	else
		do
			d[--at] = (char)('0' + v % (unsigned)base);
		while ((v /= (unsigned)base));
	while (at > size - width && at > 0)
		d[--at] = '0';
	return at;
}

/* out_num - see output.h */
char *out_num(unsigned long long v, int base, int width, char *buf, size_t len)
{
	char d[72];
	int at = digits(v, base, width, d, sizeof(d));
	size_t k = sizeof(d) - at;

	if (len) {
		k = k < len - 1 ? k : len - 1;
		memcpy(buf, d + at, k);
		buf[k] = '\0';
	}
	return buf;
}

/* line_num - see output.h */
void line_num(struct out_line *l, unsigned long long v, int base, int width)
{
	char d[24];
	int at = digits(v, base, width, d, sizeof(d));

	line_addn(l, d + at, sizeof(d) - at);
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
	if (n > room) {
		n = room;
		l->cut = 1;
	}
	memcpy(l->buf + l->n, s, n);
	l->n += n;
	room -= n;
	pad = pad < room ? pad : room;
	memset(l->buf + l->n, ' ', pad);
	l->n += pad;
}

/* line_vis - s (n bytes) escaped (out_vis), padded to width as it shows */
static void line_vis(struct out_line *l, const char *s, size_t n, int width, int right)
{
	size_t used, at = json_escape(l->buf, sizeof(l->buf), l->n, s, n, 0, &used);
	size_t len = at - l->n, room = sizeof(l->buf) - at, pad = width > 0 && (size_t)width > len ? width - len : 0;

	if (used < n)
		l->cut = 1;
	pad = pad < room ? pad : room;
	if (right && pad) {
		memmove(l->buf + l->n + pad, l->buf + l->n, len);
		memset(l->buf + l->n, ' ', pad);
	} else {
		memset(l->buf + at, ' ', pad);
	}
	l->n = at + pad;
}

/* line_str - see output.h */
void line_str(struct out_line *l, const char *s, int width, int max)
{
	if (!out_json)
		line_vis(l, s, max < 0 ? strlen(s) : strnlen(s, max), width, 0);
}

/* line_rstr - see output.h */
void line_rstr(struct out_line *l, const char *s, int width)
{
	if (!out_json)
		line_vis(l, s, strlen(s), width, 1);
}

/* dec_text - "%-Wd" (width > 0) or "%Wd" (width < 0) of v */
static void dec_text(struct out_line *l, long long v, int width)
{
	char d[24];
	int at = digits(v < 0 ? -(unsigned long long)v : (unsigned long long)v, 10, 0, d, sizeof(d));

	if (v < 0)
		d[--at] = '-';
	line_pad(l, d + at, sizeof(d) - at, width < 0 ? -width : width, width < 0);
}

/* line_dec - see output.h */
void line_dec(struct out_line *l, long long v, int width)
{
	if (!out_json)
		dec_text(l, v, width);
}

/* JSON_ROOM - bytes kept free at a line's end to close its containers, say
 * it was cut (TRUNCATED), and end the object and the line */
#define TRUNCATED ",\"truncated\":true"
#define JSON_ROOM (8 + sizeof(TRUNCATED) + 2)

/* TEXT_CUT - the end of a text line that did not fit */
#define TEXT_CUT " [truncated]\n"

/*
 * text_cut - end a cut text line with TEXT_CUT: what it holds is shortened to
 * make room, at a whole UTF-8 character and never inside a \xNN escape
 */
static void text_cut(struct out_line *l)
{
	size_t m = sizeof(TEXT_CUT) - 1, n = l->n, k;

	if (n && l->buf[n - 1] == '\n')
		n--;
	if (n > sizeof(l->buf) - m)
		n = sizeof(l->buf) - m;
	while (n > 0 && n < l->n && ((unsigned char)l->buf[n] & 0xc0) == 0x80)
		n--;	/* n was inside a character: drop all of it */
	for (k = n >= 3 ? n - 3 : 0; k + 1 < n; k++)
		if (l->buf[k] == '\\' && l->buf[k + 1] == 'x' && k + 4 > n) {
			n = k;	/* an escape the cut would split */
			break;
		}
	memcpy(l->buf + n, TEXT_CUT, m);
	l->n = n + m;
}

/* line_put - see output.h */
void line_put(struct out_line *l)
{
	if (out_json) {
		while (l->depth > 0)
			l->buf[l->n++] = l->close[--l->depth];
		if (l->cut) {	/* JSON_ROOM keeps room for it */
			memcpy(l->buf + l->n, TRUNCATED, sizeof(TRUNCATED) - 1);
			l->n += sizeof(TRUNCATED) - 1;
		}
		l->buf[l->n++] = '}';
		l->buf[l->n++] = '\n';
		fwrite(l->buf, 1, l->n, out);
		l->n = 0;
		l->skip = l->cut = 0;
		return;
	}
	if (l->cut)
		text_cut(l);
	out_write(out, l->buf, l->n);
	l->n = 0;
	l->cut = 0;
}

/* out_json_init - see output.h */
void out_json_init(void)
{
	struct utsname u;

	out_json = 1;
	mono_offset();
	if (uname(&u) == 0) {
		json_str(json_host, sizeof(json_host) - 2, 1, u.nodename, strlen(u.nodename));
		strcat(json_host, "\"");
	}
}

/* out_iso - see output.h */
char *out_iso(unsigned long long mono_ns, char *buf, size_t len)
{
	return json_time((long long)mono_ns + mono_offset(), buf, len);
}

/* json_key - a comma if a member came before, then "key": (nothing for a
 * NULL key); 0 with nothing written if that and `value` more bytes do not fit */
static int json_key(struct out_line *l, const char *key, size_t value)
{
	size_t need = (key ? strlen(key) + 3 : 0) + 1 + value;

	if (l->skip || l->n + need > sizeof(l->buf) - JSON_ROOM) {
		l->cut = 1;
		return 0;
	}
	if (l->more)
		l->buf[l->n++] = ',';
	if (key) {
		l->buf[l->n++] = '"';
		memcpy(l->buf + l->n, key, strlen(key));
		l->n += strlen(key);
		l->buf[l->n++] = '"';
		l->buf[l->n++] = ':';
	}
	l->more = 1;
	return 1;
}

/* json_raw - "key":text, text a JSON number, literal, quoted string or bracket */
static void json_raw(struct out_line *l, const char *key, const char *text)
{
	size_t n = strlen(text);

	if (json_key(l, key, n)) {
		memcpy(l->buf + l->n, text, n);
		l->n += n;
	}
}

/* json_string - "key":"s" (n bytes of s, escaped), cut to what fits */
static void json_string(struct out_line *l, const char *key, const char *s, size_t n)
{
	size_t used;

	if (!json_key(l, key, 2))
		return;
	l->buf[l->n++] = '"';
	l->n = json_escape(l->buf, sizeof(l->buf) - JSON_ROOM - 1, l->n, s, n, 1, &used);
	l->buf[l->n++] = '"';
	if (used < n)
		l->cut = 1;
}

/* line_begin - see output.h */
void line_begin(struct out_line *l, unsigned long long mono_ns)
{
	char t[48];

	if (!out_json)
		return;
	l->n = 0;
	l->depth = l->skip = l->more = l->cut = 0;
	l->buf[l->n++] = '{';
	if (mono_ns == OUT_NO_TIME) {
		json_raw(l, "time", "null");
	} else {
		out_iso(mono_ns, t, sizeof(t));
		json_string(l, "time", t, strlen(t));
	}
	json_raw(l, "host", json_host);	/* escaped and quoted by out_json_init */
	json_string(l, "tool", msg_prog, strlen(msg_prog));
}

/* col_str - see output.h */
void col_str(struct out_line *l, const char *key, const char *s, int width, int max)
{
	size_t n;

	if (!s) {
		col_null(l, key, "", width);
		return;
	}
	n = max < 0 ? strlen(s) : strnlen(s, max);
	if (out_json)
		json_string(l, key, s, n);
	else
		line_vis(l, s, n, width, 0);
}

/* col_rstr - see output.h */
void col_rstr(struct out_line *l, const char *key, const char *s, int width)
{
	if (out_json)
		json_string(l, key, s, strlen(s));
	else
		line_vis(l, s, strlen(s), width, 1);
}

/* col_dec - see output.h */
void col_dec(struct out_line *l, const char *key, long long v, int width)
{
	char d[24];

	if (!out_json) {
		dec_text(l, v, width);
		return;
	}
	snprintf(d, sizeof(d), "%lld", v);
	json_raw(l, key, d);
}

/* col_num - see output.h */
void col_num(struct out_line *l, const char *key, long long v, const char *text, int width)
{
	if (out_json)
		col_dec(l, key, v, 0);
	else
		line_vis(l, text, strlen(text), width < 0 ? -width : width, width < 0);
}

/* col_fixed - see output.h */
void col_fixed(struct out_line *l, const char *key, unsigned long long v, int scale, int prec,
	       int width)
{
	unsigned long long div = 1;
	char d[80];
	int i;

	scale = scale < 0 ? 0 : scale > 18 ? 18 : scale;
	for (i = 0; i < scale; i++)
		div *= 10;
	if (out_json) {
		if (scale)
			snprintf(d, sizeof(d), "%llu.%0*llu", v / div, scale & 31, v % div);
		else
			snprintf(d, sizeof(d), "%llu", v);
		json_raw(l, key, d);
		return;
	}
	snprintf(d, sizeof(d), "%.*f", prec, (double)v / div);
	line_pad(l, d, strlen(d), width < 0 ? -width : width, width < 0);
}

/* col_null - see output.h */
void col_null(struct out_line *l, const char *key, const char *text, int width)
{
	if (out_json)
		json_raw(l, key, "null");
	else
		line_vis(l, text, strlen(text), width < 0 ? -width : width, width < 0);
}

/* col_bool - see output.h */
void col_bool(struct out_line *l, const char *key, int v, const char *text)
{
	if (out_json)
		json_raw(l, key, v ? "true" : "false");
	else if (v)
		line_add(l, text);
}

/* col_hist - see output.h */
void col_hist(struct out_line *l, const char *key, const struct hist *h)
{
	unsigned long long lo, hi;
	int i, last = 0;

	if (!out_json)
		return;
	for (i = 0; i < HIST_SLOTS; i++)
		if (h->slot[i])
			last = i;
	col_open(l, key, '[');
	for (i = 0; i <= last; i++) {
		hist_range(h, i, &lo, &hi);
		col_open(l, NULL, '{');
		col_dec(l, "lo", (long long)lo, 0);
		if (hi)
			col_dec(l, "hi", (long long)hi, 0);
		else
			json_raw(l, "hi", "null");
		col_dec(l, "count", (long long)h->slot[i], 0);
		col_close(l);
	}
	col_close(l);
}

/* col_open - see output.h */
void col_open(struct out_line *l, const char *key, char c)
{
	if (!out_json)
		return;
	if (l->skip || l->depth == (int)sizeof(l->close) || !json_key(l, key, 0)) {
		l->skip++;
		l->cut = 1;
		return;
	}
	l->buf[l->n++] = c;
	l->close[l->depth++] = c == '[' ? ']' : '}';
	l->more = 0;
}

/* col_close - see output.h */
void col_close(struct out_line *l)
{
	if (!out_json)
		return;
	if (l->skip) {
		l->skip--;
		return;
	}
	if (l->depth > 0)
		l->buf[l->n++] = l->close[--l->depth];
	l->more = 1;
}

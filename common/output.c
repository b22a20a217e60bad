/* SPDX-License-Identifier: GPL-2.0-only */
/* output.c - where event lines go: stdout live, or a temporary file until the end (-d)
 *
 * Lines are built by line.c; what they carry from the traced is escaped on
 * its way out here (out_vis, out_write, out_text).
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
#include <unistd.h>

#include "json.h"
#include "msg.h"
#include "output.h"
#include "signals.h"

FILE *out;
int out_json;
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

/* out_pipe_fd - see output.h */
int out_pipe_fd(void)
{
	return is_pipe ? STDOUT_FILENO : -1;
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

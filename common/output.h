/* SPDX-License-Identifier: GPL-2.0-only */
/* output.h - where event lines go: stdout live, or a temporary file until the end (-d) */
#ifndef FTT_OUTPUT_H
#define FTT_OUTPUT_H

#include <stdio.h>
#include <string.h>

#include "hist.h"

/* the stream handlers print to: stdout when live; when buffered, an unlinked
 * file in $TMPDIR (memory if none can be made) */
extern FILE *out;

/*
 * out_spill_memory - keep the buffered mode's output in memory (a memfd, which
 * can be swapped out), not in a file on a disk the tool may be tracing
 */
void out_spill_memory(void);
/* out_init - live (buffered == 0) or buffered-until-out_finish output */
void out_init(int buffered);
/* out_batch_end - live: push what is pending; a closed pipe requests the stop */
void out_batch_end(void);
/* out_ending - write what -d kept to stdout and flush, then the closing
 * "Ending tracing..." unless stdout is gone (in JSON mode on stderr) */
void out_ending(void);
/* out_banner - the tool's "Tracing ..." line: stdout, or stderr in JSON mode */
void out_banner(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* out_tracing - the banner of a run: "Tracing WHAT for D seconds (buffered)..."
 * with a duration (D > 0), else "Tracing WHAT. Ctrl-C to end."; WHAT from fmt */
void out_tracing(double duration, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* out_broken - true once stdout's reader has gone away */
int out_broken(void);
/* out_time - format a trace timestamp (ns) as seconds.microseconds */
char *out_time(unsigned long long ns, char *buf, size_t len);
/*
 * Text from the traced (process names, paths, arguments, string fields) can
 * hold anything a user put there. It is shown with every byte a terminal
 * could act on escaped as \xNN: C0 controls (a newline too, so no row can be
 * forged), DEL, C1 controls (U+0080 to U+009F, as UTF-8 C2 80 to C2 9F) and
 * bytes that are not valid UTF-8. Printable UTF-8 is shown as it is.
 */
/* out_vis - append src (n bytes) to dst at `at`, escaped (up to 4n bytes); the new length.
 * Stops short, at a whole character, when dst (len bytes) is full; a '\0' follows if it fits */
size_t out_vis(char *dst, size_t len, size_t at, const char *src, size_t n);
/* out_write - write one line (n bytes of s) to fp escaped, all but a last newline */
void out_write(FILE *fp, const char *s, size_t n);
/* out_text - write a piece of a text stream escaped, its newlines kept; what is
 * written (a character cut at the end is not: pass it again with the next piece) */
size_t out_text(FILE *fp, const char *s, size_t n);
/* out_num - v in base 8, 10 or 16, zero-padded to width ("%0Wllo", "%0Wllx") */
char *out_num(unsigned long long v, int base, int width, char *buf, size_t len);

/*
 * A line built column by column and written with one fwrite: the printf
 * family parses its format on every call, which at hundreds of thousands of
 * lines a second is a tool's largest cost. Each adder writes what the printf
 * conversion in its comment would, truncating at the line's end.
 */
struct out_line {
	size_t n;
	char buf[16384];
	int more, depth, skip;	/* JSON: a member written; containers open, skipped */
	int cut;		/* text cut to fit; JSON: a member left out or a string cut */
	char close[8];		/* JSON: what closes each open container */
};
/* line_str - "%-W.Ms" of s: at most max bytes (max < 0: all), escaped (out_vis), padded to width */
void line_str(struct out_line *l, const char *s, int width, int max);
/* line_rstr - "%Ws" of s: escaped, right-aligned in width */
void line_rstr(struct out_line *l, const char *s, int width);
/* line_dec - "%-Wd" (width > 0) or "%Wd" (width < 0) of v */
void line_dec(struct out_line *l, long long v, int width);
/* JSON mode (out_json_init, below): the line_* adders add nothing */
extern int out_json;
/* line_addn - n bytes of s as they are: the tool's own text, or text out_vis
 * made (line_put escapes what is left); inline, as the hot paths add many */
static inline void line_addn(struct out_line *l, const char *s, size_t n)
{
	if (out_json)
		return;
	if (n > sizeof(l->buf) - l->n) {
		n = sizeof(l->buf) - l->n;
		l->cut = 1;
	}
	memcpy(l->buf + l->n, s, n);
	l->n += n;
}
/* line_num - v in base 10 or 16, zero-padded to width ("%0Wllu", "%0Wllx") */
void line_num(struct out_line *l, unsigned long long v, int base, int width);
/* line_add - line_addn of the string s */
static inline void line_add(struct out_line *l, const char *s)
{
	line_addn(l, s, strlen(s));
}
/* line_put - write the line to out (escaped, out_write) and empty it; a line
 * cut to fit the buffer ends with " [truncated]" and its newline. In JSON mode
 * close the object (and any container left open) and end the line */
void line_put(struct out_line *l);

/*
 * JSON Lines (-j). After out_json_init(), each line is one JSON object:
 * line_begin() opens it with "time" (the event's trace timestamp as UTC wall
 * clock), "host" and "tool"; each col_* adds the column under its key (the
 * column's name in lower case), and line_put() closes it. The col_* calls
 * make the text column too, so one set of calls gives both outputs; the
 * line_* adders above are text only and add nothing to a JSON line (spaces,
 * brackets and other decoration between columns). A member that would not
 * fit in the line (16 KiB) is left out; a string is cut at a whole
 * character; the line is always valid JSON, and one that lost anything ends
 * with "truncated":true.
 */
/* a line_begin timestamp that is not on the mono clock: "time" is null */
#define OUT_NO_TIME (~0ULL)
/* out_json_init - JSON mode: the host name, and the trace clock's wall-clock offset */
void out_json_init(void);
/* out_iso - UTC wall-clock "YYYY-MM-DDTHH:MM:SS.NNNNNNNNNZ" of a CLOCK_MONOTONIC timestamp */
char *out_iso(unsigned long long mono_ns, char *buf, size_t len);
/* line_begin - JSON: open the object with time (mono_ns, or OUT_NO_TIME), host, tool */
void line_begin(struct out_line *l, unsigned long long mono_ns);
/*
 * line_times - line_begin (ts, or OUT_NO_TIME unless mono), then the text's
 * TIME (hms: HH:MM:SS, -T) and TIMEs (secs: seconds.microseconds, -t)
 * columns; a JSON line has its "time" instead
 */
void line_times(struct out_line *l, unsigned long long ts, int mono, int hms, int secs);
/* out_time_headers - the headers of line_times's columns on stdout */
void out_time_headers(int hms, int secs);
/* col_str - line_str of s; JSON: "key":"s" (at most max bytes, escaped: json.h);
 * s NULL: JSON null, text as "" */
void col_str(struct out_line *l, const char *key, const char *s, int width, int max);
/* col_rstr - line_rstr of s; JSON: "key":"s" */
void col_rstr(struct out_line *l, const char *key, const char *s, int width);
/* col_dec - line_dec of v; JSON: "key":v */
void col_dec(struct out_line *l, const char *key, long long v, int width);
/* col_num - text, left in width (right in -width, escaped); JSON: "key":v (a
 * column whose text is a number in another form, "0x3", or a name, "ENOENT") */
void col_num(struct out_line *l, const char *key, long long v, const char *text, int width);
/* col_fixed - v / 10^scale: text "%W.Pf" (right-aligned in -width); JSON: the
 * exact decimal, all scale digits ("latms" of 273451 ns: 0.27, 0.273451) */
void col_fixed(struct out_line *l, const char *key, unsigned long long v, int scale, int prec,
	       int width);
/* col_null - an unknown value: text as col_num shows it ("?", "[?]"); JSON: "key":null */
void col_null(struct out_line *l, const char *key, const char *text, int width);
/* col_bool - text added only when v ("[cut]"); JSON: "key":true or false */
void col_bool(struct out_line *l, const char *key, int v, const char *text);
/* col_hist - JSON: "key":[{"lo":..,"hi":..,"count":..},...], the slots
 * hist_print shows (hi null: unbounded); text: nothing (hist_print) */
void col_hist(struct out_line *l, const char *key, const struct hist *h);
/* col_open - JSON: "key":[ or "key":{ (c is '[' or '{'; key NULL inside an array); text: nothing */
void col_open(struct out_line *l, const char *key, char c);
/* col_close - JSON: close the container col_open opened last; text: nothing */
void col_close(struct out_line *l);

#endif

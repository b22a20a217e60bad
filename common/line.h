/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * line.h - a line of output built column by column, as text or as a JSON
 * object, and handed whole to output (output.h: out_write, or out)
 *
 * Two prefixes share the one line and its JSON state: line_* act on the line
 * as a whole (line_begin, line_times, line_put) or add the text output's own
 * pieces, which a JSON line leaves out (spaces, brackets, the tool's text);
 * col_* add one column, the text column and the JSON member under its key
 * from one call.
 */
#ifndef FTT_LINE_H
#define FTT_LINE_H

#include <string.h>

#include "hist.h"
#include "output.h"

/*
 * A line built column by column and written with one fwrite: the printf
 * family parses its format on every call, which at hundreds of thousands of
 * lines a second is a tool's largest cost. Each adder writes what the printf
 * conversion in its comment would, truncating at the line's end.
 */
struct line {
	size_t n;
	char buf[16384];
	int more, depth, skip;	/* JSON: a member written; containers open, skipped */
	int cut;		/* text cut to fit; JSON: a member left out or a string cut */
	char close[8];		/* JSON: what closes each open container */
};
/*
 * A padded column is aligned in its width by name: ALIGN_LEFT pads after the
 * text ("%-Ws"), ALIGN_RIGHT before it ("%Ws"). A width is a width (>= 0; 0:
 * no padding, as in JSON-only columns); text wider than it is never cut.
 */
enum align { ALIGN_LEFT, ALIGN_RIGHT };
/* line_str - "%-W.Ms" or "%W.Ms" of s: at most max bytes (max < 0: all), escaped
 * (out_vis), aligned in width */
void line_str(struct line *l, const char *s, enum align a, int width, int max);
/* line_dec - "%-Wd" or "%Wd" of v: aligned in width */
void line_dec(struct line *l, long long v, enum align a, int width);
/* line_addn - n bytes of s as they are: the tool's own text, or text out_vis
 * made (line_put escapes what is left); inline, as the hot paths add many.
 * In JSON mode (out_json: line_json_init, below) the line_* adders add nothing */
static inline void line_addn(struct line *l, const char *s, size_t n)
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
void line_num(struct line *l, unsigned long long v, int base, int width);
/* line_add - line_addn of the string s */
static inline void line_add(struct line *l, const char *s)
{
	line_addn(l, s, strlen(s));
}
/* line_put - write the line to out (escaped, out_write) and empty it; a line
 * cut to fit the buffer ends with " [truncated]" and its newline. In JSON mode
 * close the object (and any container left open) and end the line */
void line_put(struct line *l);

/*
 * JSON Lines (-j). After line_json_init(), each line is one JSON object:
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
#define LINE_NO_TIME (~0ULL)
/* line_json_init - JSON mode (out_json): the host name, and the trace clock's
 * wall-clock offset (fmt_mono_offset) */
void line_json_init(void);
/* line_begin - JSON: open the object with time (mono_ns, or LINE_NO_TIME), host, tool */
void line_begin(struct line *l, unsigned long long mono_ns);
/*
 * line_times - line_begin (ts, or LINE_NO_TIME unless mono), then the text's
 * TIME (hms: HH:MM:SS, -T) and TIMEs (secs: seconds.microseconds, -t)
 * columns; a JSON line has its "time" instead
 */
void line_times(struct line *l, unsigned long long ts, int mono, int hms, int secs);
/* line_time_headers - the headers of line_times's columns on stdout */
void line_time_headers(int hms, int secs);
/* col_str - line_str of s; JSON: "key":"s" (at most max bytes, escaped: json.h);
 * s NULL: JSON null, text as "" */
void col_str(struct line *l, const char *key, const char *s, enum align a, int width, int max);
/* col_dec - line_dec of v; JSON: "key":v */
void col_dec(struct line *l, const char *key, long long v, enum align a, int width);
/* col_num - text, escaped and aligned in width; JSON: "key":v (a column whose
 * text is a number in another form, "0x3", or a name, "ENOENT") */
void col_num(struct line *l, const char *key, long long v, const char *text, enum align a,
	     int width);
/* col_fixed - v / 10^scale: text "%-W.Pf" or "%W.Pf"; JSON: the exact
 * decimal, all scale digits ("latms" of 273451 ns: 0.27, 0.273451) */
void col_fixed(struct line *l, const char *key, unsigned long long v, int scale, int prec,
	       enum align a, int width);
/* col_null - an unknown value: text as col_num shows it ("?", "[?]"); JSON: "key":null */
void col_null(struct line *l, const char *key, const char *text, enum align a, int width);
/* col_bool - text added only when v ("[cut]"); JSON: "key":true or false */
void col_bool(struct line *l, const char *key, int v, const char *text);
/* col_hist - JSON: "key":[{"lo":..,"hi":..,"count":..},...], the slots
 * hist_print shows (hi null: unbounded); text: nothing (hist_print) */
void col_hist(struct line *l, const char *key, const struct hist *h);
/* col_open - JSON: "key":[ or "key":{ (c is '[' or '{'; key NULL inside an array); text: nothing */
void col_open(struct line *l, const char *key, char c);
/* col_close - JSON: close the container col_open opened last; text: nothing */
void col_close(struct line *l);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * line.c - a line of output built column by column, as text or as a JSON
 * object, and handed to output (out_write, or one fwrite to out)
 *
 * line_* act on the line as a whole and add the text output's own pieces;
 * col_* add a column, the text column or the JSON member under its key, from
 * one call. Both write the one buffer and its JSON state (the open
 * containers, whether a member came before), which line_put closes: they are
 * one mechanism, with a prefix for each kind of call (line.h).
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "fmt.h"
#include "json.h"
#include "line.h"
#include "msg.h"
#include "output.h"

static char json_host[1024] = "\"\"";	/* the node name, escaped and quoted */

/* line_num - v in base 10 or 16, zero-padded to width, added to the text */
void line_num(struct line *l, unsigned long long v, int base, int width)
{
	char d[24];
	int at = fmt_digits(v, base, width, d, sizeof(d));

	line_addn(l, d + at, sizeof(d) - at);
}

/* line_pad - n bytes of s, aligned in width with spaces, as room allows */
static void line_pad(struct line *l, const char *s, size_t n, enum align a, int width)
{
	size_t room = sizeof(l->buf) - l->n, pad = width > 0 && (size_t)width > n ? width - n : 0;

	if (a == ALIGN_RIGHT && pad) {
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

/* line_vis - s (n bytes) escaped (out_vis), aligned in width as it shows */
static void line_vis(struct line *l, const char *s, size_t n, enum align a, int width)
{
	size_t used, at = json_escape(l->buf, sizeof(l->buf), l->n, s, n, 0, &used);
	size_t len = at - l->n, room = sizeof(l->buf) - at, pad = width > 0 && (size_t)width > len ? width - len : 0;

	if (used < n)
		l->cut = 1;
	pad = pad < room ? pad : room;
	if (a == ALIGN_RIGHT && pad) {
		memmove(l->buf + l->n + pad, l->buf + l->n, len);
		memset(l->buf + l->n, ' ', pad);
	} else {
		memset(l->buf + at, ' ', pad);
	}
	l->n = at + pad;
}

/* line_str - s escaped, at most max bytes, aligned in width; text only */
void line_str(struct line *l, const char *s, enum align a, int width, int max)
{
	if (!out_json)
		line_vis(l, s, max < 0 ? strlen(s) : strnlen(s, max), a, width);
}

/* dec_text - "%-Wd" or "%Wd" of v */
static void dec_text(struct line *l, long long v, enum align a, int width)
{
	char d[24];
	unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	int at = fmt_digits(u, 10, 0, d, sizeof(d));

	if (v < 0)
		d[--at] = '-';
	line_pad(l, d + at, sizeof(d) - at, a, width);
}

/* line_dec - v in decimal, aligned in width; text only */
void line_dec(struct line *l, long long v, enum align a, int width)
{
	if (!out_json)
		dec_text(l, v, a, width);
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
static void text_cut(struct line *l)
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

/* line_put - write the line to out and empty it; a cut line says so at its end */
void line_put(struct line *l)
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

/* line_json_init - JSON mode: out_json set, the wall-clock offset taken, the host name kept */
void line_json_init(void)
{
	struct utsname u;

	out_json = 1;
	fmt_mono_offset();
	if (uname(&u) == 0) {
		json_str(json_host, sizeof(json_host) - 2, 1, u.nodename, strlen(u.nodename));
		strcat(json_host, "\"");
	}
}

/* json_key - a comma if a member came before, then "key": (nothing for a
 * NULL key); 0 with nothing written if that and `value` more bytes do not fit */
static int json_key(struct line *l, const char *key, size_t value)
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
static void json_raw(struct line *l, const char *key, const char *text)
{
	size_t n = strlen(text);

	if (json_key(l, key, n)) {
		memcpy(l->buf + l->n, text, n);
		l->n += n;
	}
}

/* json_string - "key":"s" (n bytes of s, escaped), cut to what fits */
static void json_string(struct line *l, const char *key, const char *s, size_t n)
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

/* line_begin - JSON: empty the line and open its object with time, host and tool */
void line_begin(struct line *l, unsigned long long mono_ns)
{
	char t[48];

	if (!out_json)
		return;
	l->n = 0;
	l->depth = l->skip = l->more = l->cut = 0;
	l->buf[l->n++] = '{';
	if (mono_ns == LINE_NO_TIME) {
		json_raw(l, "time", "null");
	} else {
		fmt_iso(mono_ns, t, sizeof(t));
		json_string(l, "time", t, strlen(t));
	}
	json_raw(l, "host", json_host);	/* escaped and quoted by line_json_init */
	json_string(l, "tool", msg_prog, strlen(msg_prog));
}

/* line_times - line_begin, then the text's TIME and TIMEs columns where asked for */
void line_times(struct line *l, unsigned long long ts, int mono, int hms, int secs)
{
	char buf[64];

	line_begin(l, mono ? ts : LINE_NO_TIME);
	if (hms) {
		line_str(l, fmt_hms(ts, buf, sizeof(buf)), ALIGN_LEFT, 8, -1);
		line_add(l, " ");
	}
	if (secs) {
		line_str(l, fmt_time(ts, buf, sizeof(buf)), ALIGN_LEFT, 16, -1);
		line_add(l, " ");
	}
}

/* line_time_headers - the headers of line_times's columns on stdout */
void line_time_headers(int hms, int secs)
{
	if (hms)
		printf("%-8s ", "TIME");
	if (secs)
		printf("%-16s ", "TIMEs");
}

/* col_str - a string column: escaped text, or a JSON string (null for NULL) */
void col_str(struct line *l, const char *key, const char *s, enum align a, int width, int max)
{
	size_t n;

	if (!s) {
		col_null(l, key, "", a, width);
		return;
	}
	n = max < 0 ? strlen(s) : strnlen(s, max);
	if (out_json)
		json_string(l, key, s, n);
	else
		line_vis(l, s, n, a, width);
}

/* col_dec - a decimal column: padded text, or a JSON number */
void col_dec(struct line *l, const char *key, long long v, enum align a, int width)
{
	char d[24];

	if (!out_json) {
		dec_text(l, v, a, width);
		return;
	}
	snprintf(d, sizeof(d), "%lld", v);
	json_raw(l, key, d);
}

/* col_num - a number shown in the text as given (text), in JSON as the number */
void col_num(struct line *l, const char *key, long long v, const char *text, enum align a,
	     int width)
{
	if (out_json)
		col_dec(l, key, v, a, 0);
	else
		line_vis(l, text, strlen(text), a, width);
}

/* col_fixed - v / 10^scale: rounded to prec digits in the text, exact in JSON */
void col_fixed(struct line *l, const char *key, unsigned long long v, int scale, int prec,
	       enum align a, int width)
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
	line_pad(l, d, strlen(d), a, width);
}

/* col_null - an unknown value: text as given, JSON null */
void col_null(struct line *l, const char *key, const char *text, enum align a, int width)
{
	if (out_json)
		json_raw(l, key, "null");
	else
		line_vis(l, text, strlen(text), a, width);
}

/* col_bool - text only when v; JSON true or false */
void col_bool(struct line *l, const char *key, int v, const char *text)
{
	if (out_json)
		json_raw(l, key, v ? "true" : "false");
	else if (v)
		line_add(l, text);
}

/* col_hist - JSON: the histogram's slots as an array of objects; text: nothing */
void col_hist(struct line *l, const char *key, const struct hist *h)
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
		col_dec(l, "lo", (long long)lo, ALIGN_LEFT, 0);
		if (hi)
			col_dec(l, "hi", (long long)hi, ALIGN_LEFT, 0);
		else
			json_raw(l, "hi", "null");
		col_dec(l, "count", (long long)h->slot[i], ALIGN_LEFT, 0);
		col_close(l);
	}
	col_close(l);
}

/* col_open - JSON: open an array or an object under key; text: nothing */
void col_open(struct line *l, const char *key, char c)
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

/* col_close - JSON: close the container col_open opened last; text: nothing */
void col_close(struct line *l)
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

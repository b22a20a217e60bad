/* SPDX-License-Identifier: GPL-2.0-only */
/* output.h - where event lines go: stdout live, or a temporary file until the end (-d) */
#ifndef FTT_OUTPUT_H
#define FTT_OUTPUT_H

#include <stdio.h>

/* the stream handlers print to: stdout when live; when buffered, an unlinked
 * file in $TMPDIR (memory if none can be made) */
extern FILE *out;

/* out_init - live (buffered == 0) or buffered-until-out_finish output */
void out_init(int buffered);
/* out_batch_end - live: push what is pending; a closed pipe requests the stop */
void out_batch_end(void);
/* out_finish - buffered: write everything collected to stdout; flush either way */
void out_finish(void);
/* out_ending - out_finish, then the closing "Ending tracing..." unless stdout is gone */
void out_ending(void);
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
/* out_hms - local wall-clock HH:MM:SS of a CLOCK_MONOTONIC timestamp (trace_clock mono) */
char *out_hms(unsigned long long mono_ns, char *buf, size_t len);

/*
 * A line built column by column and written with one fwrite: the printf
 * family parses its format on every call, which at hundreds of thousands of
 * lines a second is a tool's largest cost. Each adder writes what the printf
 * conversion in its comment would, truncating at the line's end.
 */
struct out_line {
	size_t n;
	char buf[16384];
};
/* line_str - "%-W.Ms" of s: at most max bytes (max < 0: all), escaped (out_vis), padded to width */
void line_str(struct out_line *l, const char *s, int width, int max);
/* line_rstr - "%Ws" of s: escaped, right-aligned in width */
void line_rstr(struct out_line *l, const char *s, int width);
/* line_dec - "%-Wd" (width > 0) or "%Wd" (width < 0) of v */
void line_dec(struct out_line *l, long long v, int width);
/* line_add - s as it is: the tool's own text, or text out_vis made */
void line_add(struct out_line *l, const char *s);
/* line_put - write the line to out (escaped, out_write) and empty it */
void line_put(struct out_line *l);

#endif

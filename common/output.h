/* SPDX-License-Identifier: GPL-2.0-only */
/* output.h - where event lines go: stdout live, or a temporary file until the end (-d) */
#ifndef FTT_OUTPUT_H
#define FTT_OUTPUT_H

#include <stdio.h>

/* the stream handlers print to: stdout when live; when buffered, an unlinked
 * file in $TMPDIR (memory if none can be made) */
extern FILE *out;
/* JSON mode (-j, line_json_init in line.h): stdout takes JSON Lines, and the
 * banner and the closing line go to stderr */
extern int out_json;

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
/* out_pipe_fd - stdout's descriptor if it is a pipe whose reader can go away (poll it), else -1 */
int out_pipe_fd(void);
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

#endif

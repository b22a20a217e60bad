/* output.h - where event lines go: stdout live, or memory until the end (-d) */
#ifndef FTT_OUTPUT_H
#define FTT_OUTPUT_H

#include <stdio.h>

/* the stream handlers print to: stdout when live, a memory buffer when buffered */
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
/* out_vis - append src (n bytes) to dst at `at`, control bytes as ^X (cat -v); new length */
size_t out_vis(char *dst, size_t len, size_t at, const char *src, size_t n);
/* out_hms - local wall-clock HH:MM:SS of a CLOCK_MONOTONIC timestamp (trace_clock mono) */
char *out_hms(unsigned long long mono_ns, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz.h - shared parts of the libFuzzer harnesses
 *
 * The opt_* parsers end the process on bad input (exit(EXIT_USAGE)). The
 * harnesses are linked with -Wl,--wrap=exit: while FUZZ_TRY runs a call,
 * exit() jumps back to it with the status instead, so one process checks
 * millions of inputs. The messages go to /dev/null (stderr is reassigned;
 * the sanitizers write their reports to fd 2 directly).
 */
#ifndef FTT_FUZZ_H
#define FTT_FUZZ_H

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf fuzz_jmp;
static volatile int fuzz_armed, fuzz_status;

void __real_exit(int status) __attribute__((noreturn));

/* __wrap_exit - inside FUZZ_TRY: return to it with the status; else exit */
void __wrap_exit(int status)
{
	if (fuzz_armed) {
		fuzz_armed = 0;
		fuzz_status = status;
		longjmp(fuzz_jmp, 1);
	}
	__real_exit(status);
}

/* FUZZ_TRY(rc, call) - run call; rc is -1 if it returned, else its exit status */
#define FUZZ_TRY(rc, call) do {						\
	if (setjmp(fuzz_jmp) == 0) {					\
		fuzz_armed = 1;						\
		call;							\
		fuzz_armed = 0;						\
		(rc) = -1;						\
	} else {							\
		(rc) = fuzz_status;					\
	}								\
} while (0)

/* fuzz_quiet - send the tools' own messages to /dev/null */
static inline void fuzz_quiet(void)
{
	FILE *f = fopen("/dev/null", "w");

	if (f)
		stderr = f;
}

/* fuzz_str - the input as a NUL-terminated string (stops at an embedded NUL) */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* FUZZ_ASSERT - a property that must hold: abort (a finding) if not */
#define FUZZ_ASSERT(cond) do {						\
	if (!(cond)) {							\
		fprintf(stdout, "property failed: %s (%s:%d)\n", #cond,	\
			__FILE__, __LINE__);				\
		fflush(stdout);						\
		abort();						\
	}								\
} while (0)

#endif

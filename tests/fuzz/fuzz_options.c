/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_options - the strict parsers of everything a user types
 *
 * First byte picks the parser, the rest is the string. Besides "no crash, no
 * sanitizer report", each accepted input is checked against an independent
 * definition of what the parser promises (digits only and in range, seconds
 * in (0, 31 days], no control byte, identifier syntax), and a refusal must be
 * a usage exit (2), or 1 for a PID that does not exist.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <regex.h>

#include "filter.h"
#include "fuzz.h"
#include "msg.h"
#include "options.h"
#include "probes.h"

/* ident_oracle - [A-Za-z_][A-Za-z0-9_]* written the long way */
static int ident_oracle(const char *s)
{
	size_t i;

	if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return 0;
	for (i = 1; s[i]; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* all_digits - non-empty and only 0-9 */
static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* repeats - number of repetition operators in a regular expression */
static int repeats(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += strchr("*+?{", *s) != NULL;
	return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	msg_init("fuzz");
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile unsigned long ul = 0;
	volatile double d = 0;
	volatile pid_t pid = 0;
	unsigned long max;
	regex_t re;
	char *s;
	int rc;

	if (size < 1 || size > 512)
		return 0;
	s = fuzz_str(data + 1, size - 1);
	switch (data[0] % 9) {
	case 0:		/* opt_ulong with a small range */
		FUZZ_TRY(rc, ul = opt_ulong(s, "-t", 1, 1000));
		if (rc < 0)
			FUZZ_ASSERT(all_digits(s) && ul >= 1 && ul <= 1000 &&
				    strtoul(s, NULL, 10) == ul);
		else
			FUZZ_ASSERT(rc == EXIT_USAGE);
		break;
	case 1:		/* opt_ulong over the whole range */
		max = ULONG_MAX;
		FUZZ_TRY(rc, ul = opt_ulong(s, "-n", 0, max));
		if (rc < 0) {
			errno = 0;
			FUZZ_ASSERT(all_digits(s) && strtoul(s, NULL, 10) == ul && errno == 0);
		} else {
			FUZZ_ASSERT(rc == EXIT_USAGE);
		}
		break;
	case 2:		/* opt_seconds */
		FUZZ_TRY(rc, d = opt_seconds(s, "-d"));
		if (rc < 0)
			FUZZ_ASSERT(isfinite(d) && d > 0 && d <= 31 * 86400.0 &&
				    strspn(s, "0123456789.") == strlen(s));
		else
			FUZZ_ASSERT(rc == EXIT_USAGE);
		break;
	case 3:		/* opt_no_ctrl */
		FUZZ_TRY(rc, opt_no_ctrl(s, "filter"));
		if (rc < 0) {
			const unsigned char *p;

			for (p = (const unsigned char *)s; *p; p++)
				FUZZ_ASSERT(*p >= 0x20 && *p != 0x7f);
		} else {
			FUZZ_ASSERT(rc == EXIT_USAGE);
		}
		break;
	case 4:		/* opt_is_ident and probe_name_ok against the oracle */
		FUZZ_ASSERT(!!opt_is_ident(s) == ident_oracle(s));
		FUZZ_ASSERT(!!probe_name_ok(s) == (ident_oracle(s) && strlen(s) < 64));
		break;
	case 5:		/* opt_regex: compiles or refuses with a usage exit */
		/*
		 * glibc's regcomp takes gigabytes for stacked repeats such as
		 * "x++++++...+" (60 of them: over 2 GB); a known glibc trait,
		 * not ours: keep to short patterns with few repeat operators
		 */
		if (strlen(s) > 64 || repeats(s) > 6)
			break;
		FUZZ_TRY(rc, opt_regex(&re, s, "name"));
		if (rc < 0) {
			regexec(&re, "sshd", 0, NULL, 0);
			regfree(&re);
		} else {
			FUZZ_ASSERT(rc == EXIT_USAGE);
		}
		break;
	case 6:		/* opt_pid: a range error is usage, a missing PID runtime */
		FUZZ_TRY(rc, pid = opt_pid(s, "-p"));
		if (rc < 0)
			FUZZ_ASSERT(all_digits(s) && pid >= 1 && pid <= 4194304);
		else
			FUZZ_ASSERT(rc == EXIT_USAGE || rc == EXIT_ERR);
		break;
	case 7:		/* opt_usage and msg_die with hostile text: one line, right status */
		FUZZ_TRY(rc, opt_usage("bad '%.40s'", s));
		FUZZ_ASSERT(rc == EXIT_USAGE);
		FUZZ_TRY(rc, msg_die(EXIT_ERR, "bad '%.40s':", s));
		FUZZ_ASSERT(rc == EXIT_ERR);
		break;
	case 8:		/* filter_ok: an accepted filter cannot leave "(...)" */
		if (!filter_ok(s)) {
			const char *p;
			int depth = 0;
			char q = 0;

			for (p = s; *p; p++) {
				FUZZ_ASSERT((unsigned char)*p >= 0x20);
				if (q)
					q = *p == q ? 0 : q;
				else if (*p == '"' || *p == '\'')
					q = *p;
				else
					depth += (*p == '(') - (*p == ')');
				FUZZ_ASSERT(depth >= 0);
			}
			FUZZ_ASSERT(!q && !depth);
		}
		FUZZ_TRY(rc, filter_check(s, "filter"));
		FUZZ_ASSERT(rc == -1 ? !filter_ok(s) : rc == EXIT_USAGE);
		break;
	}
	free(s);
	return 0;
}

/* options.c - strict parsing of everything a user types */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "options.h"

/* opt_usage - print "prog: msg" and a hint to -h, then exit(EXIT_USAGE) */
void opt_usage(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", msg_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s -h)\n", msg_prog);
	exit(EXIT_USAGE);
}

/* opt_ulong - decimal integer in [min, max]; no sign, junk or overflow */
unsigned long opt_ulong(const char *s, const char *what, unsigned long min,
			unsigned long max)
{
	unsigned long v;
	char *end;

	if (!s || !*s)
		opt_usage("%s: empty number", what);
	if (!isdigit((unsigned char)*s))
		opt_usage("%s: '%.40s' is not a positive decimal number", what, s);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end)
		opt_usage("%s: '%.40s' is not a decimal number", what, s);
	if (errno == ERANGE || v < min || v > max)
		opt_usage("%s: %.40s is out of range (%lu to %lu)", what, s, min, max);
	return v;
}

/* opt_seconds - positive seconds (decimals allowed) up to 31 days */
double opt_seconds(const char *s, const char *what)
{
	double v;
	char *end;
	const char *p;

	if (!s || !*s)
		opt_usage("%s: empty duration", what);
	for (p = s; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			opt_usage("%s: '%.40s' is not a number of seconds", what, s);
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s || errno)
		opt_usage("%s: '%.40s' is not a number of seconds", what, s);
	if (!isfinite(v) || v <= 0 || v > 31 * 86400.0)
		opt_usage("%s: %.40s seconds is out of range (above 0, at most 2678400)",
			  what, s);
	return v;
}

/* opt_pid - a PID of a process that exists now */
pid_t opt_pid(const char *s, const char *what)
{
	pid_t pid = (pid_t)opt_ulong(s, what, 1, 4194304);

	if (kill(pid, 0) < 0 && errno == ESRCH)
		msg_die(EXIT_ERR, "%s: no process with PID %d", what, (int)pid);
	return pid;
}

/* opt_regex - compile an extended regex (unanchored, like awk's match) */
void opt_regex(regex_t *re, const char *s, const char *what)
{
	char err[128];
	int rc;

	opt_no_ctrl(s, what);
	rc = regcomp(re, s, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		regerror(rc, re, err, sizeof(err));
		opt_usage("%s: bad regular expression '%.40s': %s", what, s, err);
	}
}

/* opt_no_ctrl - refuse a string holding a newline or other control byte */
void opt_no_ctrl(const char *s, const char *what)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			opt_usage("%s: control character (0x%02x) not allowed", what, *p);
}

/* opt_is_ident - true for [A-Za-z_][A-Za-z0-9_]* (a tracefs system or event name) */
int opt_is_ident(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* opt_tids - every thread of PID (from /proc/PID/task); returns the count */
int opt_tids(pid_t pid, pid_t **tids)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0, cap = 16;
	pid_t *v;

	v = malloc(cap * sizeof(*v));
	if (!v)
		msg_die(EXIT_ERR, "out of memory");
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir) {
		v[n++] = pid;
		*tids = v;
		return n;
	}
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		if (n == cap) {
			cap *= 2;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				msg_die(EXIT_ERR, "out of memory");
		}
		v[n++] = atoi(d->d_name);
	}
	closedir(dir);
	*tids = v;
	return n;
}

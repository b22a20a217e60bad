/* SPDX-License-Identifier: GPL-2.0-only */
/* options.c - strict parsing of everything a user types */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "line.h"
#include "msg.h"
#include "options.h"

/* the Makefile passes both (-D): the release or git describe, and PREFIX's doc directory */
#ifndef FTT_VERSION
#define FTT_VERSION "unknown"
#endif
#ifndef FTT_DOCDIR
#define FTT_DOCDIR "/usr/local/share/doc/ftrace-tools"
#endif
#ifndef FTT_SRCDIR
#define FTT_SRCDIR ""
#endif

#define OPT_VERSION	0x100	/* --version: no short option */
#define OPT_LONGS	16	/* a tool's own long options, at most */

/* long_name - the option name in a "--name[=value]" argument and its length (at most 40) */
static int long_name(const char *arg, const char **name)
{
	size_t n;

	if (!arg || strncmp(arg, "--", 2)) {
		*name = "?";
		return 1;
	}
	*name = arg + 2;
	n = strcspn(*name, "=");
	return n > 40 ? 40 : (int)n;
}

/*
 * see_also - -h's last line: the man page and the example, where they are:
 * installed (under DOCDIR; then the line before names the alias install
 * makes, TOOL-ftrace), else in the tree the tool was built in, else the man
 * page's name alone (a binary copied elsewhere)
 */
static void see_also(void)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/examples/%s_example.txt", FTT_DOCDIR, msg_prog);
	if (access(path, R_OK) == 0) {
		printf("Also installed as %s-ftrace, a name no other package takes.\n", msg_prog);
		printf("See man %s(8) and %s\n", msg_prog, path);
		return;
	}
	snprintf(path, sizeof(path), "%s/examples/%s_example.txt", FTT_SRCDIR, msg_prog);
	if (FTT_SRCDIR[0] && access(path, R_OK) == 0) {
		printf("See man %s/man/man8/%s.8 and %s\n", FTT_SRCDIR, msg_prog, path);
		return;
	}
	printf("See man %s(8)\n", msg_prog);
}

/*
 * given_arg - is name (len bytes from long_name, then "=value") a long option
 * in all[] that takes no argument and has value val (name may be abbreviated,
 * as getopt_long allows)?
 */
static int given_arg(const struct option *all, const char *name, int len, int val)
{
	if (name[len] != '=')
		return 0;
	for (; all->name; all++)
		if (all->val == val && all->has_arg == no_argument && !strncmp(all->name, name, len))
			return 1;
	return 0;
}

/* opt_operands - see options.h */
int opt_operands(int argc, int min, int max, const char *missing, const char *most)
{
	int n = argc - optind;

	if (n < min)
		opt_usage("missing %s", missing ? missing : "argument");
	if (n > max)
		opt_usage("too many arguments (%s)", most);
	return n;
}

/* opt_last_regex - see options.h */
const char *opt_last_regex(int argc, char *const argv[], regex_t *re, const char *what,
			   const char *most)
{
	if (!opt_operands(argc, 0, 1, NULL, most))
		return NULL;
	opt_regex(re, argv[optind], what);
	return argv[optind];
}

/* opt_exec - see options.h */
const struct option opt_exec[] = {
	{ "exec", required_argument, NULL, OPT_EXEC },
	{ NULL, 0, NULL, 0 },
};

/* opt_scope - see options.h */
const struct option opt_scope[] = {
	{ "exec", required_argument, NULL, OPT_EXEC },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ NULL, 0, NULL, 0 },
};

/* opt_scope_show - see options.h */
const struct option opt_scope_show[] = {
	{ "exec", required_argument, NULL, OPT_EXEC },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "show-cgroup", no_argument, NULL, OPT_SHOW_CGROUP },
	{ NULL, 0, NULL, 0 },
};

/* exec_text - --exec's text: not blank, and no control byte but tab and
 * newline (the shell's own separators); exits naming --exec */
static void exec_text(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p == ' ' || *p == '\t' || *p == '\n'; p++)
		;
	if (!*p)
		opt_usage("--exec: the command is empty");
	for (p = (const unsigned char *)s; *p; p++)
		if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
			opt_usage("--exec: the command holds a control character (0x%02x)", *p);
}

/* opt_next - see options.h */
int opt_next(int argc, char *const argv[], const char *shorts,
	     const struct option *longs, const char *usage)
{
	static struct option all[OPT_LONGS + 4];
	static char opts[64];
	const char *arg, *name;
	int c, n = 0, len;

	if (!all[0].name) {
		all[n++] = (struct option){ "help", no_argument, NULL, 'h' };
		all[n++] = (struct option){ "version", no_argument, NULL, OPT_VERSION };
		if (strchr(shorts, 'j'))
			all[n++] = (struct option){ "json", no_argument, NULL, 'j' };
		for (; longs && longs->name && n < OPT_LONGS + 3; longs++)
			all[n++] = *longs;
		/* a leading ':' reports a missing argument as ':', and prints nothing;
		 * a '+' before it ends the options at the first operand */
		if (shorts[0] == '+')
			snprintf(opts, sizeof(opts), "+:%s", shorts + 1 + (shorts[1] == ':'));
		else
			snprintf(opts, sizeof(opts), ":%s", shorts + (shorts[0] == ':'));
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, opts, all, NULL)) == 'j')
		line_json_init();
	arg = optind > 0 && optind <= argc ? argv[optind - 1] : NULL;
	len = long_name(arg, &name);
	switch (c) {
	case OPT_EXEC:
		exec_text(optarg);
		break;
	case 'h':
		fputs(usage, stdout);
		see_also();
		exit(EXIT_OK);
	case OPT_VERSION:
		printf("%s %s\n", msg_prog, FTT_VERSION);
		exit(EXIT_OK);
	case ':':
		/* a short option's argument is missing only at the very end of argv */
		if (arg && !strncmp(arg, "--", 2))
			opt_usage("option --%.*s needs an argument", len, name);
		opt_usage("option -%c needs an argument", optopt);
	case '?':
		/* optopt is 0 for an unknown long option, its value for one given an argument */
		if (!optopt)
			opt_usage("unknown option --%.*s", len, name);
		if (given_arg(all, name, len, optopt))
			opt_usage("option --%.*s takes no argument", len, name);
		if (isprint((unsigned char)optopt))
			opt_usage("unknown option -%c", optopt);
		opt_usage("unknown option (byte 0x%02x)", (unsigned char)optopt);
	}
	return c;
}

/* opt_funcs - see options.h */
void opt_funcs(const char *s, const char *missing)
{
	const char *p;

	opt_no_ctrl(s, "funcstring");
	for (p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.*?[] ", *p))
			opt_usage("funcstring: '%c' not allowed (function names and globs only)", *p);
	if (!strpbrk(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_*?"))
		opt_usage("missing funcstring (%s)", missing);
}

/* opt_usage - print "prog: msg" and a hint to -h, then exit(EXIT_USAGE) */
void opt_usage(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", msg_prog);
	va_start(ap, fmt);
	msg_vline(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s -h)\n", msg_prog);
	exit(EXIT_USAGE);
}

/* opt_apart - see options.h */
void opt_apart(int a, const char *name_a, int b, const char *name_b)
{
	if (a && b)
		opt_usage("use either %s or %s, not both", name_a, name_b);
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

	if (!s || !*s)
		opt_usage("%s: empty duration", what);
	errno = 0;
	v = strtod(s, &end);
	/* digits and '.' only: no sign, exponent, hex, "inf" or "nan" */
	if (s[strspn(s, "0123456789.")] || *end || errno)
		opt_usage("%s: '%.40s' is not a number of seconds", what, s);
	if (!isfinite(v) || v <= 0 || v > 31 * 86400.0)
		opt_usage("%s: %.40s seconds is out of range (above 0, at most 2678400)",
			  what, s);
	return v;
}

/* live_id - a PID or TID that exists now; "none" names it in "no process with PID N" */
static pid_t live_id(const char *s, const char *what, const char *none)
{
	pid_t id = (pid_t)opt_ulong(s, what, 1, 4194304);

	/* kill() takes a thread's ID as well as a process's */
	if (kill(id, 0) < 0 && errno == ESRCH)
		msg_die(EXIT_ERR, "%s: no %s %d", what, none, (int)id);
	return id;
}

/* opt_pid - a PID of a process that exists now */
pid_t opt_pid(const char *s, const char *what)
{
	return live_id(s, what, "process with PID");
}

/* opt_tid - a TID of a thread that exists now */
pid_t opt_tid(const char *s, const char *what)
{
	return live_id(s, what, "thread with TID");
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

/* SPDX-License-Identifier: GPL-2.0-only */
/* test_options - the strict parsers accept what they should and nothing else */
#include <math.h>

#include "msg.h"
#include "options.h"
#include "output.h"
#include "unit.h"

static void parse_ulong(const void *s) { opt_ulong(s, "-t", 1, 1000); }
static void parse_seconds(const void *s) { opt_seconds(s, "-d"); }
static void parse_pid(const void *s) { opt_pid(s, "-p"); }
static void parse_tid(const void *s) { opt_tid(s, "-L"); }
static void check_ctrl(const void *s) { opt_no_ctrl(s, "filter"); }
static void parse_regex(const void *s) { regex_t re; opt_regex(&re, s, "name"); regfree(&re); }

/*
 * parse_args - run opt_next over a space-separated command line the way a
 * tool does (short options "d:hjx", long --count=N and --quiet, and the
 * --json opt_next adds for -j); exit 0 at the end of the options, 3 if "--"
 * did not end them before an argument "-x", 5 if -j was seen (out_json)
 */
static void parse_args(const void *line)
{
	static const struct option longs[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	char buf[256], *argv[16], *save = NULL, *w;
	int argc = 0;

	snprintf(buf, sizeof(buf), "tool %s", (const char *)line);
	for (w = strtok_r(buf, " ", &save); w && argc < 15; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	optind = 0;
	while (opt_next(argc, argv, "d:hjx", longs, "USAGE: tool\n") != -1)
		;
	if (optind < argc && !strcmp(argv[optind], "-x") && strcmp(argv[optind - 1], "--"))
		exit(3);
	if (out_json)
		exit(5);
}

/*
 * parse_plus - opt_next with "+d:hjx", as a tool that runs a command does:
 * the options end at the first operand, whatever follows it; exit 0 if that
 * operand is "cmd", else 4
 */
static void parse_plus(const void *line)
{
	char buf[256], *argv[16], *save = NULL, *w;
	int argc = 0;

	snprintf(buf, sizeof(buf), "tool %s", (const char *)line);
	for (w = strtok_r(buf, " ", &save); w && argc < 15; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	optind = 0;
	while (opt_next(argc, argv, "+d:hjx", NULL, "USAGE: tool\n") != -1)
		;
	exit(optind < argc && !strcmp(argv[optind], "cmd") ? 0 : 4);
}

/* refused - the parser must exit with `status` and one stderr line matching `want` */
static void refused(void (*fn)(const void *), const char *in, int status, const char *want)
{
	char err[512], name[128];
	int rc = unit_exit_status(fn, in, err, sizeof(err));
	char *nl = strchr(err, '\n');

	snprintf(name, sizeof(name), "refuse '%s'", in);
	CHECK(name, rc == status);
	CHECK(name, nl && nl[1] == '\0');	/* exactly one line */
	CHECK(name, strstr(err, want) != NULL);
	if (!strstr(err, want))
		printf("     got: %s", err);
}

/* ends - the parser exits with `status` and says nothing */
static void ends(void (*fn)(const void *), const char *in, int status)
{
	char err[512], name[128];

	snprintf(name, sizeof(name), "status %d of '%s'", status, in);
	CHECK(name, unit_exit_status(fn, in, err, sizeof(err)) == status && !err[0]);
}

/* accepted - the parser must not exit */
static void accepted(void (*fn)(const void *), const char *in)
{
	char err[512], name[128];

	snprintf(name, sizeof(name), "accept '%s'", in);
	CHECK(name, unit_exit_status(fn, in, err, sizeof(err)) == 0 && !err[0]);
}

int main(void)
{
	msg_init("unit");

	CHECK("ulong 5", opt_ulong("5", "-t", 1, 10) == 5);
	CHECK("ulong max", opt_ulong("1000", "-t", 1, 1000) == 1000);
	refused(parse_ulong, "", 2, "-t: empty number");
	refused(parse_ulong, "0", 2, "out of range (1 to 1000)");
	refused(parse_ulong, "1001", 2, "out of range");
	refused(parse_ulong, "-3", 2, "not a positive decimal number");
	refused(parse_ulong, "+3", 2, "not a positive decimal number");
	refused(parse_ulong, " 3", 2, "not a positive decimal number");
	refused(parse_ulong, "3x", 2, "not a decimal number");
	refused(parse_ulong, "0x10", 2, "not a decimal number");
	refused(parse_ulong, "99999999999999999999999", 2, "out of range");

	CHECK("seconds 1.5", fabs(opt_seconds("1.5", "-d") - 1.5) < 1e-9);
	CHECK("seconds 10", opt_seconds("10", "-d") == 10);
	refused(parse_seconds, "0", 2, "out of range");
	refused(parse_seconds, "1e3", 2, "not a number of seconds");
	refused(parse_seconds, "nan", 2, "not a number of seconds");
	refused(parse_seconds, "inf", 2, "not a number of seconds");
	refused(parse_seconds, "-1", 2, "not a number of seconds");
	refused(parse_seconds, "1.2.3", 2, "not a number of seconds");
	refused(parse_seconds, ".", 2, "not a number of seconds");
	refused(parse_seconds, "9999999", 2, "out of range");
	accepted(parse_seconds, "0.01");

	CHECK("pid self", opt_pid("1", "-p") == 1);
	refused(parse_pid, "4194304", 1, "no process with PID 4194304");
	refused(parse_pid, "4194305", 2, "out of range");
	refused(parse_pid, "abc", 2, "not a positive decimal number");

	CHECK("tid self", opt_tid("1", "-L") == 1);
	refused(parse_tid, "4194304", 1, "-L: no thread with TID 4194304");
	refused(parse_tid, "0", 2, "-L: 0 is out of range");

	refused(check_ctrl, "a == 1\nb == 2", 2, "control character (0x0a)");
	refused(check_ctrl, "a\r", 2, "control character (0x0d)");
	accepted(check_ctrl, "comm == \"bash\" && pid > 3");

	refused(parse_args, "--bogus", 2, "unknown option --bogus (see unit -h)");
	refused(parse_args, "--bogus=3 -x", 2, "unknown option --bogus (see");
	refused(parse_args, "--quiet=1", 2, "option --quiet takes no argument");
	refused(parse_args, "--version=1", 2, "option --version takes no argument");
	refused(parse_args, "-x --count", 2, "option --count needs an argument");
	refused(parse_args, "-x -d", 2, "option -d needs an argument");
	/* with '+', a command's own options are its own */
	ends(parse_plus, "cmd -x -Z --bogus", 0);
	ends(parse_plus, "-x -d 1 cmd -d", 0);
	ends(parse_plus, "-- cmd", 0);
	refused(parse_plus, "-Z cmd", 2, "unknown option -Z");
	refused(parse_plus, "-x -d", 2, "option -d needs an argument");
	refused(parse_args, "-xZ", 2, "unknown option -Z");
	refused(parse_args, "--quiet -Zx", 2, "unknown option -Z");
	refused(parse_args, "--count=3 -Zx", 2, "unknown option -Z");
	refused(parse_args, "--qu=1", 2, "option --qu takes no argument");
	refused(parse_args, "-:", 2, "unknown option -:");
	accepted(parse_args, "-x --count 3 --quiet -d 1 -- -x");
	accepted(parse_args, "--count=3 arg --quiet");
	/* -j and --json are opt_next's: out_json, never returned to the tool */
	ends(parse_args, "-j", 5);
	ends(parse_args, "-xj -d 1", 5);
	ends(parse_args, "--json", 5);
	ends(parse_args, "--js", 5);
	ends(parse_args, "-- -j", 0);
	refused(parse_args, "--json=1", 2, "option --json takes no argument");

	refused(parse_regex, "(unclosed", 2, "bad regular expression");
	accepted(parse_regex, "^ba.*sh$");

	CHECK("ident ok", opt_is_ident("sched_process_exec"));
	CHECK("ident _x", opt_is_ident("_x1"));
	CHECK("ident empty", !opt_is_ident(""));
	CHECK("ident digit", !opt_is_ident("1abc"));
	CHECK("ident slash", !opt_is_ident("a/b"));
	CHECK("ident dots", !opt_is_ident(".."));
	CHECK("ident space", !opt_is_ident("a b"));
	CHECK("ident glob", !opt_is_ident("sched_*"));
	return unit_done("options");
}

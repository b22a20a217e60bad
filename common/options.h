/* SPDX-License-Identifier: GPL-2.0-only */
/* options.h - strict parsing of everything a user types */
#ifndef FTT_OPTIONS_H
#define FTT_OPTIONS_H

#include <getopt.h>
#include <regex.h>
#include <sys/types.h>

/*
 * The opt_* parsers print one line naming the option and the problem and
 * exit with EXIT_USAGE (or EXIT_ERR for a PID that does not exist).
 * "what" names the option for the message, e.g. "-d" or "count".
 */

/* opt_ulong - decimal integer in [min, max]; no sign, junk or overflow */
unsigned long opt_ulong(const char *s, const char *what, unsigned long min,
			unsigned long max);
/* opt_seconds - positive seconds (decimals allowed) up to 31 days */
double opt_seconds(const char *s, const char *what);
/* opt_pid - a PID of a process that exists now */
pid_t opt_pid(const char *s, const char *what);
/* opt_tid - a TID of a thread that exists now */
pid_t opt_tid(const char *s, const char *what);
/* opt_regex - compile an extended regex (unanchored, like awk's match) */
void opt_regex(regex_t *re, const char *s, const char *what);
/* opt_no_ctrl - refuse a string holding a newline or other control byte */
void opt_no_ctrl(const char *s, const char *what);
/*
 * opt_funcs - kernel function names and globs, space-separated: letters,
 * digits, _ . * ? [ ] only (no '!' negation, ':' commands or module filters);
 * "missing" describes what an empty list lacks
 */
void opt_funcs(const char *s, const char *missing);
/* opt_is_ident - true for [A-Za-z_][A-Za-z0-9_]* (a tracefs system or event name) */
int opt_is_ident(const char *s);
/*
 * opt_operands - the number of arguments after the options (from optind),
 * which must be min to max: fewer is the usage error "missing `missing`",
 * more is "too many arguments (`most`)"
 */
int opt_operands(int argc, int min, int max, const char *missing, const char *most);
/*
 * opt_last_regex - the one optional argument after the options, an extended
 * regex compiled into re (opt_regex, named `what`); NULL if there is none.
 * More than one is a usage error: "too many arguments (`most`)"
 */
const char *opt_last_regex(int argc, char *const argv[], regex_t *re, const char *what,
			   const char *most);
/*
 * opt_next - the next option, as getopt_long(3) finds it among the tool's
 * short options (e.g. "d:hp:"; "+d:hp:" ends the options at the first
 * operand, for a command with options of its own after it; else options and
 * operands may mix) and long ones (longs, NULL for none), with
 * --help and --version added, and --json when shorts hold 'j'. -h and --help
 * print the usage, then "See man TOOL(8) and DOCDIR/examples/TOOL_example.txt";
 * --version prints "TOOL VERSION"; both exit(EXIT_OK). -j and --json turn
 * JSON mode on (line_json_init: out_json, output.h). "--" ends the options.
 * An unknown option, a missing argument or an argument to an option that
 * takes none exits with EXIT_USAGE naming the option. -1 after the last.
 */
int opt_next(int argc, char *const argv[], const char *shorts,
	     const struct option *longs, const char *usage);
/*
 * opt_exec - the long option --exec COMMAND, for a tool's longs: opt_next
 * returns OPT_EXEC with the text in optarg, once it has checked it (not
 * blank, no control byte but tab and newline); the tool runs it with
 * child_shell (child.h) and traces it as -p would
 */
#define OPT_EXEC	0x101
extern const struct option opt_exec[];
/*
 * opt_scope - --exec COMMAND and --cgroup PATH (OPT_CGROUP, the path in
 * optarg, checked by cgscope_open), for a tool's longs
 */
#define OPT_CGROUP	0x102
extern const struct option opt_scope[];
/* opt_scope_show - opt_scope and --show-cgroup (OPT_SHOW_CGROUP, no argument:
 * cgscope_show, cgscope.h), for a tool's longs */
#define OPT_SHOW_CGROUP	0x103
extern const struct option opt_scope_show[];
/* opt_usage - print "prog: msg" and a hint to -h, then exit(EXIT_USAGE) */
void opt_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* opt_apart - opt_usage "use either A or B, not both" when options a and b were both given */
void opt_apart(int a, const char *name_a, int b, const char *name_b);

#endif

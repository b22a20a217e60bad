#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/check-cli.sh - the command line every tool shares, without root or tracefs
#
# usage: tests/check-cli.sh BINDIR VERSION DOCDIR SRCDIR
# VERSION, DOCDIR and SRCDIR are what the Makefile computed (not asked of a tool).
# For each tool in tools/: --help (exit 0, the usage on stdout, nothing on
# stderr, its last line naming the man page and the example where they are), -h
# (the same bytes), --version (exactly "TOOL VERSION"), --bogus (exit 2, one
# line on stderr naming --bogus), and "--" ending the options: an argument
# after it that looks like an option reaches the tool's own argument check
# and is refused there (a known message), never run as an option.
# Prints PASS/FAIL lines; exit 1 on any failure.
cd "$(dirname "$0")/.." || exit 1
[ $# -eq 4 ] || { echo "usage: $0 BINDIR VERSION DOCDIR SRCDIR" >&2; exit 2; }
BIN=$1 VERSION=$2 DOCDIR=$3 SRCDIR=$4
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
bad=0

# run TOOL ARGS... - run the tool; rc, $T/out and $T/err
run() {
	"$BIN/$@" > "$T/out" 2> "$T/err" < /dev/null
	rc=$?
}

# fail TOOL WHAT - one FAIL line with what was seen
fail() {
	echo "FAIL cli/$1: $2 (rc $rc, stdout: $(head -c 200 "$T/out"), stderr: $(head -c 200 "$T/err"))"
	bad=1
}

# after_dashdash TOOL - an argument after "--" that the tool must refuse as an
# argument (no root needed), the message that shows it was taken as one, and
# a second argument where the tool needs two (funcslower's threshold)
after_dashdash() {
	case $1 in
	execsnoop)	set -- "-x(" "name: bad regular expression '-x('" ;;
	opensnoop)	set -- "-x(" "filename: bad regular expression '-x('" ;;
	iosnoop)	set -- "-1" "duration: '-1' is not a number of seconds" ;;
	iolatency)	set -- "-1" "interval: '-1' is not a number of seconds" ;;
	funccount)	set -- "-F" "funcstring: '-' not allowed" ;;
	funcgraph)	set -- "-a" "funcstring: '-' not allowed" ;;
	functrace)	set -- "-H" "funcstring: '-' not allowed" ;;
	funcslower)	set -- "-a" "funcstring: '-' not allowed" 100 ;;
	funclatency)	set -- "-u" "funcstring: '-' not allowed" ;;
	cachestat)	set -- "-1" "interval: '-1' is not a number of seconds" ;;
	kprobe)		set -- "-s" "invalid kprobe definition" ;;
	uprobe)		set -- "-s" "invalid uprobe definition" ;;
	tpoint)		set -- "-l" "tracepoint '-l' is not SYSTEM:EVENT" ;;
	tcpretrans)	set -- "--help" "unexpected argument '--help'" ;;
	killsnoop)	set -- "-s" "unexpected argument '-s'" ;;
	syscount)	set -- "-x" "command '-x': not found" ;;
	perf-stat-hist)	set -- "-f" "tracepoint '-f' is not SYSTEM:EVENT" ;;
	bitesize)	set -- "-1" "seconds: '-1' is not a number of seconds" ;;
	reset-ftrace)	set -- "-f" "unexpected argument '-f'" ;;
	*)		return 1 ;;
	esac
	ARG=$1 WANT=$2 ARG2=${3-}
}

for src in tools/*.c; do
	t=$(basename "$src" .c)
	[ -x "$BIN/$t" ] || { echo "FAIL cli/$t: no $BIN/$t"; bad=1; continue; }
	ok=1

	run "$t" --help
	cp "$T/out" "$T/help"
	if [ $rc -ne 0 ] || [ -s "$T/err" ] || ! head -1 "$T/out" | grep -q "^USAGE: $t "; then
		fail "$t" "--help: not the usage on stdout with exit 0 and an empty stderr"; ok=0
	fi
	# the example where it is: installed, else in the tree built in
	if [ -r "$DOCDIR/examples/${t}_example.txt" ]; then
		want="See man $t(8) and $DOCDIR/examples/${t}_example.txt"
	elif [ -n "$SRCDIR" ] && [ -r "$SRCDIR/examples/${t}_example.txt" ]; then
		want="See man $SRCDIR/man/man8/$t.8 and $SRCDIR/examples/${t}_example.txt"
	else
		want="See man $t(8)"
	fi
	if [ "$(tail -1 "$T/out")" != "$want" ]; then
		fail "$t" "--help: last line is not '$want'"; ok=0
	fi
	[ -f "examples/${t}_example.txt" ] || { fail "$t" "no examples/${t}_example.txt"; ok=0; }

	run "$t" -h
	if [ $rc -ne 0 ] || [ -s "$T/err" ] || ! cmp -s "$T/out" "$T/help"; then
		fail "$t" "-h: not the same as --help"; ok=0
	fi

	run "$t" --version
	if [ $rc -ne 0 ] || [ -s "$T/err" ] || [ "$(cat "$T/out")" != "$t $VERSION" ] ||
	   [ "$(wc -l < "$T/out")" -ne 1 ]; then
		fail "$t" "--version: not exactly one line '$t $VERSION'"; ok=0
	fi

	run "$t" --bogus
	if [ $rc -ne 2 ] || [ -s "$T/out" ] || [ "$(wc -l < "$T/err")" -ne 1 ] ||
	   ! grep -q -- "--bogus" "$T/err"; then
		fail "$t" "--bogus: not exit 2 with one line on stderr naming --bogus"; ok=0
	fi

	if after_dashdash "$t"; then
		# the tool's refusal of ARG as its argument, not an option's message
		run "$t" -- "$ARG" ${ARG2:+"$ARG2"}
		if [ $rc -ne 2 ] || [ "$(wc -l < "$T/err")" -ne 1 ] || ! grep -qF -- "$WANT" "$T/err"; then
			fail "$t" "'-- $ARG': not taken as an argument (want exit 2 and '$WANT')"; ok=0
		fi
	else
		fail "$t" "no '--' case in tests/check-cli.sh"; ok=0
	fi

	[ $ok -eq 1 ] && echo "PASS cli/$t: --help, -h, --version, --bogus, --"
done
exit $bad

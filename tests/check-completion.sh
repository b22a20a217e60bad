#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/check-completion.sh - the bash completion file against what the code
# accepts and what the system has
#
# usage: tests/check-completion.sh BINDIR
# For every tool: "TOOL -<TAB>" offers exactly the options of the optstring
# and long options in tools/TOOL.c, plus --help and --version. The arguments:
# iosnoop/iolatency -d offers exactly the block devices of nonzero size in
# /sys/class/block; -p offers a PID this test started; -n the name of a
# process this test started; tpoint (root) offers exactly the SYSTEM:EVENT
# names of available_events that start with what was typed; funccount offers
# exactly the matching names of available_filter_functions when the kernel
# lets root read it. Prints PASS/FAIL/SKIP lines; exit 1 on any failure.
cd "$(dirname "$0")/.." || exit 1
[ $# -eq 1 ] || { echo "usage: $0 BINDIR" >&2; exit 2; }
BIN=$(cd "$1" && pwd) || exit 1
command -v bash > /dev/null || { echo "FAIL completion: bash not installed"; exit 1; }
T=$(mktemp -d) || exit 1
sleeper=
trap '[ -n "$sleeper" ] && kill $sleeper 2>/dev/null; rm -rf "$T"' EXIT
bad=0

# complete LINE - what the completion offers at the end of LINE, sorted, one per line
complete_at() {
	PATH="$BIN:$PATH" LINE=$1 bash -c '
		. completion/ftrace-tools.bash || exit 1
		read -ra COMP_WORDS <<< "$LINE"
		[[ $LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$LINE COMP_POINT=${#LINE}
		# bash itself splits words at a colon; the tests type no colon but
		# where tpoint needs one, and then the completion gets the part after it
		_ftt "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' | grep -v '^$' | sort
}

# check NAME WANTFILE GOTFILE - PASS or FAIL with the difference
check() {
	if cmp -s "$2" "$3"; then
		echo "PASS completion/$1: $(wc -l < "$2") candidates"
	else
		echo "FAIL completion/$1: offered (+) against expected (-):"
		diff "$2" "$3" | grep '^[<>]' | sed 's/^</  -/; s/^>/  +/' | head -10
		bad=1
	fi
}

# the options of every tool, from its source
for src in tools/*.c; do
	t=$(basename "$src" .c)
	optstr=$(sed -n 's/.*opt_next(argc, argv, "\([^"]*\)".*/\1/p' "$src")
	[ -n "$optstr" ] || { echo "FAIL completion/$t: no opt_next optstring in $src"; bad=1; continue; }
	{
		# ':' marks an argument, a leading '+' the end of options at an operand
		echo "$optstr" | sed 's/[:+]//g' | fold -w1 | sed 's/^/-/'
		sed -n 's/.*{ "\([a-z][a-z-]*\)", [a-z_]*_argument,.*/--\1/p' "$src"
		# opt_next adds --json to a tool that takes -j (options.c); opt_exec
		# is --exec, opt_scope --exec and --cgroup, opt_scope_show those and
		# --show-cgroup
		case $optstr in *j*) echo --json ;; esac
		grep -q 'opt_next(argc, argv, "[^"]*", opt_exec,' "$src" && echo --exec
		grep -q 'opt_next(argc, argv, "[^"]*", opt_scope,' "$src" && printf '%s\n' --exec --cgroup
		grep -q 'opt_next(argc, argv, "[^"]*", opt_scope_show,' "$src" &&
			printf '%s\n' --exec --cgroup --show-cgroup
		printf '%s\n' --help --version
	} | sort > "$T/want"
	complete_at "$t -" > "$T/got"
	check "$t/options" "$T/want" "$T/got"
done

# block devices by name
for d in /sys/class/block/*; do
	[ "$(cat "$d/size" 2>/dev/null)" -gt 0 ] 2>/dev/null && basename "$d"
done | sort > "$T/want"
complete_at "iosnoop -d " > "$T/got"
check "iosnoop/-d" "$T/want" "$T/got"
complete_at "iolatency -Q -d " > "$T/got"
check "iolatency/-d" "$T/want" "$T/got"

# a process this test started, by PID and by name; its name is unique
cp "$(command -v sleep)" "$T/ftxcomp$$" && "$T/ftxcomp$$" 30 &
sleeper=$!
sleep 0.2
echo "$sleeper" > "$T/want"
complete_at "opensnoop -p $sleeper" | grep -x "$sleeper" > "$T/got"
check "opensnoop/-p" "$T/want" "$T/got"
echo "ftxcomp$$" > "$T/want"
complete_at "iosnoop -n ftxcomp" > "$T/got"
check "iosnoop/-n" "$T/want" "$T/got"
complete_at "execsnoop -a " > "$T/got"
: > "$T/want"
check "execsnoop/-a takes a number: nothing offered" "$T/want" "$T/got"
# --exec takes a command: the test's unique program, by name on PATH
echo "ftxcomp$$" > "$T/want"
PATH=$T:$PATH complete_at "opensnoop --exec ftxcomp" > "$T/got"
check "opensnoop/--exec" "$T/want" "$T/got"

# tracepoints and functions: root reads them
if [ "$(id -u)" != 0 ]; then
	echo "SKIP completion/tpoint, completion/funccount: not root"
else
	tr=/sys/kernel/tracing
	[ -e "$tr/available_events" ] || mount -t tracefs nodev "$tr" 2>/dev/null
	grep '^sched:sched_process_' "$tr/available_events" | sed 's/^sched://' | sort > "$T/want"
	if [ -s "$T/want" ]; then
		complete_at "tpoint -s sched:sched_process_" > "$T/got"
		check "tpoint/tracepoint" "$T/want" "$T/got"
	else
		echo "FAIL completion/tpoint: no sched:sched_process_* in $tr/available_events"
		bad=1
	fi
	if cat "$tr/available_filter_functions" > "$T/funcs" 2>/dev/null && [ -s "$T/funcs" ]; then
		grep -o '^vfs_read[A-Za-z0-9_.]*' "$T/funcs" | sort -u > "$T/want"
		complete_at "funccount -d 1 vfs_read" > "$T/got"
		check "funccount/function" "$T/want" "$T/got"
	else
		echo "SKIP completion/funccount: this kernel does not let root read available_filter_functions"
	fi
fi
exit $bad

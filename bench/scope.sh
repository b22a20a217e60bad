#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench/scope.sh - opensnoop --cgroup against -p on a busy host: what the
# scope costs the load outside it, and whether every open inside is shown
#
# usage: sh bench/scope.sh        (or: make bench-scope)
#
# A busy load outside the scope (opengen: BENCH_SCOPE_N opens a run, as fast
# as it can) runs beside a small one inside it (opengen: BENCH_SCOPE_IN opens,
# in a cgroup v2 made for the run, under the cgroup2 mount), under each mode:
#   untraced   nothing traced
#   -p         opensnoop -p (the inside load's PID): the kernel's PID list
#              (set_event_pid) lets only that process's records through
#   --cgroup   opensnoop --cgroup: every open's records are read, and the
#              scope is applied here, task by task, from the kernel's events
# Rounds interleave the modes (BENCH_SCOPE_ROUNDS, default 5). The table gives
# the medians of the outside load's rate (wall clock, and its own CPU time)
# as a ratio to untraced in the same round, the inside opens shown (of
# BENCH_SCOPE_IN) and the losses said; written to
# $BENCH_OUT/scope-DATE.md, the raw lines beside it (scope-DATE.raw).

set -u
NAME=scope
. "$(dirname "$0")/host.sh"
N=${BENCH_SCOPE_N:-200000}
IN=${BENCH_SCOPE_IN:-2000}
ROUNDS=${BENCH_SCOPE_ROUNDS:-5}
[ -x "$BINDIR/opensnoop" ] || die "no $BINDIR/opensnoop: make first"
CGM=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$CGM" ] || die "no cgroup v2 hierarchy mounted"

$CC -static -O2 -Wall -Wextra -o "$BB/opengen" bench/opengen.c 2>/dev/null ||
	$CC -O2 -Wall -Wextra -o "$BB/opengen" bench/opengen.c || die "cannot build bench/opengen.c"
WORK=$(mktemp -d /var/tmp/ftt-scope.XXXXXX) || die "mktemp"
REL=ftt_bench_scope_$$
CG=$CGM/$REL
mkdir "$CG" || die "cannot make the cgroup $CG"
STAMP=$(date +%Y%m%d-%H%M%S)
RAW=$OUT/scope-$STAMP.raw
MD=$OUT/scope-$STAMP.md
: > "$RAW"
TOOL_PID= IN_PID=
trap 'kill -INT $TOOL_PID 2>/dev/null; kill $IN_PID 2>/dev/null; wait; rmdir "$CG" 2>/dev/null; rm -rf "$WORK"' EXIT INT TERM

# one MODE ROUND - one run: the inside load held, the tool started (unless
# untraced), both loads let go together, the tool stopped once the inside
# load's opens are in (or 5 s after the loads end); a line to $RAW
one() {
	mode=$1 round=$2
	rm -f "$WORK/go" "$WORK/out" "$WORK/err"
	# shellcheck disable=SC2016
	sh -c 'echo $$ > "$1/cgroup.procs" && while [ ! -e "$2" ]; do sleep 0.01; done &&
		exec "$3" "$4" "$5"' sh "$CG" "$WORK/go" "$BB/opengen" "$IN" "$WORK/in.target" \
		> "$WORK/in.line" &
	IN_PID=$!
	TOOL_PID=
	case $mode in
	-p)		"$BINDIR/opensnoop" -p "$IN_PID" > "$WORK/out" 2> "$WORK/err" & TOOL_PID=$! ;;
	--cgroup)	"$BINDIR/opensnoop" --cgroup "$REL" > "$WORK/out" 2> "$WORK/err" & TOOL_PID=$! ;;
	esac
	if [ -n "$TOOL_PID" ]; then
		i=0
		until grep -q '^Tracing' "$WORK/out" 2>/dev/null || [ $i -ge 300 ]; do
			sleep 0.05
			i=$((i + 1))
		done
	fi
	touch "$WORK/go"
	out=$("$BB/opengen" "$N" "$WORK/out.target")
	wait "$IN_PID"
	IN_PID=
	seen=- lost=0
	if [ -n "$TOOL_PID" ]; then
		pid=$(cut -d' ' -f1 "$WORK/in.line")
		i=0
		while [ "$(awk -v p="$pid" '$2 == p' "$WORK/out" | wc -l)" -lt "$IN" ] && [ $i -lt 100 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		kill -INT "$TOOL_PID"
		wait "$TOOL_PID"
		TOOL_PID=
		seen=$(awk -v p="$pid" '$2 == p' "$WORK/out" | wc -l)
		lost=$(sed -n 's/.*WARNING: \([0-9]*\) events lost.*/\1/p' "$WORK/err" | head -1)
	fi
	echo "mode=$mode round=$round gen=$(echo "$out" | tr ' ' ,) in=$(tr ' ' , < "$WORK/in.line") seen=$seen lost=${lost:-0}" >> "$RAW"
}

# col MODE KEY - the KEY values of MODE's runs, one a line (round order)
col() { grep "^mode=$1 " "$RAW" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# med - the median of the numbers on stdin
med() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# rel MODE FIELD - the median over rounds of MODE's outside rate over untraced's
# in the same round (FIELD 4: wall clock, 5: its own CPU time)
rel() {
	col "$1" gen | cut -d, -f"$2" > "$WORK/a"
	col untraced gen | cut -d, -f"$2" > "$WORK/b"
	paste "$WORK/a" "$WORK/b" | awk '$2 > 0 { printf "%.3f\n", $1 / $2 }' | med
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
	for m in untraced -p --cgroup; do
		one "$m" "$r"
	done
	echo "$NAME: round $r of $ROUNDS" >&2
	r=$((r + 1))
done

{
	echo "# opensnoop --cgroup against -p on a busy host"
	echo
	echo "- When: $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git rev-parse --short HEAD 2>/dev/null || echo -); kernel $(uname -r); $(nproc) CPUs"
	echo "- Load outside the scope: $N opens a run (opengen, as fast as it can); inside: $IN opens (opengen, in the cgroup $REL); $ROUNDS rounds, modes interleaved; medians"
	echo
	echo "| mode | outside opens/s | of untraced (wall) | of untraced (its CPU) | inside opens shown | lost said |"
	echo "|---|---:|---:|---:|---:|---:|"
	for m in untraced -p --cgroup; do
		rate=$(col "$m" gen | cut -d, -f4 | med)
		seen=$(col "$m" seen | med)
		lost=$(col "$m" lost | awk '$1 > 0' | wc -l)
		[ "$m" = untraced ] && { w=1; c=1; } || { w=$(rel "$m" 4); c=$(rel "$m" 5); }
		printf '| %s | %.0f | %s | %s | %s | %s |\n' "$m" "$rate" "$w" "$c" \
			"$([ "$seen" = - ] && echo - || echo "$seen of $IN")" \
			"$([ "$m" = untraced ] && echo - || echo "in $lost of $ROUNDS runs")"
	done
} > "$MD"
cat "$MD"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench/rungs.sh - what each capture rung of opensnoop costs per open
#
# usage: sh bench/rungs.sh                   (as root: on this machine)
#        BENCH_VM=1 sh bench/rungs.sh        (in Debian kernels under qemu)
#
# opensnoop takes each open's path at the call by one rung of its capture
# ladder (common/ladder.h): syscall, eprobe, kprobe, uprobe or none. This
# measures each rung this kernel has against the floor, side by side, under
# one load: opengen built dynamic (opengen_libc), whose N open()+close() go
# through the C library's open64, so the uprobe rung sees them too. Each
# round runs, interleaved: the load untraced; the floor
# (syscalls:sys_enter_openat and sys_exit_openat enabled in a private
# instance, no reader); where the syscall events copy the path in (6.19+), the
# floor again with the instance's syscall_user_buf_size 0 (no copy);
# opensnoop with FTT_CAPTURE=RUNG for every rung that passed its try;
# perf-tools opensnoop (opensnoop-perf: a getname() return
# kprobe, bash, cat and gawk) where it runs. Every run goes through
# bench/harness.c as in bench/run.sh: the tool on a pipe, ready once its own
# open shows, then the load, then SIGINT once all N rows came or the output
# went quiet. One untraced and one floor run before the rounds do not count.
#
# Before the rounds each rung is tried once (one open, the rung forced): a
# rung that the kernel lacks or that fails the tool's startup check is left
# out, with the tool's own reason. The same try without FTT_CAPTURE shows the
# rung opensnoop picks by itself. The try's CPU time is the tool's fixed cost
# (start, the rung's proof, stop).
#
# Per run: the load's rate, of wall-clock time and of its own CPU time; the
# tool's CPU (user+system of its process group, with the children it reaped)
# per open; rows naming the load's path, and rows of the load's PID with any
# path (the dynamic loader's own opens of ld.so.cache and libc come before
# main: a few more rows, shown as [?] by the uprobe rung, which they bypass).
# The table gives medians over rounds; "vs floor" is the median of each
# round's ratio to that round's floor run, and "+us per open" the median of
# each round's difference of the two per-open times (1 / rate).
#
# Writes $BENCH_OUT/rungs-DATE.md (the table) and rungs-DATE.raw (one line per
# run). Settings (environment):
#   BINDIR, B, CC       as for make (defaults bin, build, cc)
#   BENCH_RUNGS_N       opens per run (default 200000; in the guests 50000)
#   BENCH_RUNGS_ROUNDS  rounds (default 5)
#   BENCH_RUNGS         rungs to try (default "syscall eprobe kprobe uprobe none")
#   BENCH_PERF          where opensnoop-perf is (default /usr/sbin)
#   BENCH_OUT           results dir (default bench/results)
#   BENCH_VM            1: run in qemu guests (tests/vm/run.sh) instead of here
#   BENCH_VM_KERNELS    the guests' kernels (default "6.1 7.3")

set -u
unset FTT_CAPTURE
T=/sys/kernel/tracing
EVS="syscalls/sys_enter_openat syscalls/sys_exit_openat"
RUNGS=${BENCH_RUNGS:-"syscall eprobe kprobe uprobe none"}

# ---------------------------------------------------------------------------
# helpers (dash and busybox alike: the guests have no GNU tools)

median() {
	sort -n | awk '{ a[NR] = $1 } END { if (!NR) { print "-"; exit }
		if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
minimum() { sort -n | head -n 1; }
# val MODE KEY - the KEY values of MODE's rounds (round 0, the try, left out)
val() {
	grep "^mode=$1 round=[1-9]" "$RAW" | tr ' ' '\n' | sed -n "s/^$2=//p"
}
# pround MODE BASE FIELD OP - per round, MODE's generator FIELD (4: ops/s of
# wall time, 5: ops per CPU second) against BASE's in that round: OP "ratio"
# (MODE / BASE) or "us" (1e6 / MODE - 1e6 / BASE: what MODE adds per open)
pround() {
	grep -E "^mode=($1|$2) round=[1-9]" "$RAW" | awk -v m="$1" -v b="$2" -v f="$3" -v op="$4" '
		{ mode = ""; round = ""; g = ""
		  for (i = 1; i <= NF; i++) {
			if ($i ~ /^mode=/) mode = substr($i, 6)
			if ($i ~ /^round=/) round = substr($i, 7)
			if ($i ~ /^gen=/) g = substr($i, 5) }
		  split(g, a, ","); v[mode, round] = a[f]; rounds[round] = 1 }
		END { for (r in rounds) if (v[m, r] > 0 && v[b, r] > 0) {
			if (op == "ratio") printf "%.4f\n", v[m, r] / v[b, r]
			else printf "%.4f\n", 1e6 / v[m, r] - 1e6 / v[b, r] } }' |
		median | awk -v op="$4" '{ if ($1 == "-") print "-"; else if (op == "ratio") printf "%.3f\n", $1; else printf "%+.2f\n", $1 }'
}

# ---------------------------------------------------------------------------
# measure: the rounds and the table, wherever this runs (host or guest).
# Needs H (harness), GEN (opengen_libc), OS (opensnoop), POS (opensnoop-perf
# or ""), W (scratch dir), RAW, N, ROUNDS, WHERE (a line for the heading).

# try NAME CMD... - one open under the tool: "" on stdout if it ran, else why;
# the harness line goes to $RAW as round 0
try() {
	name=$1
	shift
	"$H" -e "$W/try.err" -o "$W/try.out" -N 1 -q 500 -G "$GEN 1 $W/open.target" -- "$@" \
		> "$W/try.line" 2>&1
	line=$(tail -n 1 "$W/try.line")
	rung=$(sed -n 's/.*(capture rung \([a-z]*\).*/\1/p' "$W/try.err" | head -n 1)
	echo "mode=$name round=0 $line rung=${rung:--}" >> "$RAW"
	case $name in perf) perf_cleanup ;; esac
	if grep -q 'error=' "$W/try.line" || ! grep -q 'status=0' "$W/try.line"; then
		why=$(grep -v '^Tracing' "$W/try.err" | grep -v '^$' | head -n 1)
		echo "${why:-$line}"
	fi
}

# tool_run MODE ROUND CMD... - one measured run of a tool, a line in $RAW
tool_run() {
	mode=$1 round=$2
	shift 2
	line=$("$H" -e "$W/err" -o "$W/out" -q "$QUIET" -N "$N" -G "$GEN $N $W/open.target" -- "$@" 2>&1 |
		tail -n 1)
	gp=$(echo "$line" | sed -n 's/.*gen=\([0-9]*\),.*/\1/p')
	named=$(awk -v p="${gp:-x}" -v f="$W/open.target" '$2 == p && $NF == f { n++ } END { print n + 0 }' "$W/out")
	rung=$(sed -n 's/.*(capture rung \([a-z]*\).*/\1/p' "$W/err" | head -n 1)
	lost=$(sed -n 's/.*WARNING: \([0-9]*\) events lost.*/\1/p' "$W/err" | head -n 1)
	# opensnoop-perf passes ftrace's "[LOST N EVENTS]" marks on to stderr
	# ("WARNING: CPU:1 [LOST 672 EVENTS]"); the harness counts those on stdout
	case $mode in perf)
		lost=$(sed -n 's/.*LOST \([0-9][0-9]*\) EVENTS.*/\1/p' "$W/err" |
			awk -v o="$(echo "$line" | sed -n 's/.*lostsum=\([0-9]*\).*/\1/p')" '{ s += $1 } END { print s + o }')
		lost="$lost lostmarks_err=$(grep -c 'LOST.*EVENTS' "$W/err")" ;;
	esac
	echo "mode=$mode round=$round $line named=$named rung=${rung:--} lostmsg=${lost:-0}" >> "$RAW"
	rm -f "$W/out"
	case $mode in perf) perf_cleanup ;; esac
}

# floor_run MODE ROUND - the load with the events on in a private instance, no
# reader; MODE floor0: with the instance's syscall_user_buf_size 0, so that the
# entry event (6.19+) does not copy the path in
floor_run() {
	fi=$T/instances/benchfloor$$
	mkdir "$fi" || return
	[ "$1" = floor0 ] && echo 0 > "$fi/syscall_user_buf_size"
	for e in $EVS; do echo 1 > "$fi/events/$e/enable"; done
	line=$("$H" -G "$GEN $N $W/open.target" 2>&1 | tail -n 1)
	for e in $EVS; do echo 0 > "$fi/events/$e/enable"; done
	rmdir "$fi"
	echo "mode=$1 round=$2 $line" >> "$RAW"
}

# perf_cleanup - what opensnoop-perf may leave: its lock, if its PID is gone
perf_cleanup() {
	l=/var/tmp/.ftrace-lock
	if [ "$lock_before" = 0 ] && [ -e $l ] && ! kill -0 "$(cat $l 2>/dev/null)" 2>/dev/null; then
		rm -f $l
	fi
}

measure() {
	lock_before=0
	[ -e /var/tmp/.ftrace-lock ] && lock_before=1
	if [ -r /tests/lib.sh ]; then WORKLOADS=/tests/bin; . /tests/lib.sh
	elif [ -r "${TOP:-.}/tests/lib.sh" ]; then WORKLOADS=${TOP:-.}/tests/bin; . "$TOP/tests/lib.sh"; fi
	command -v tracefs_snapshot > /dev/null && tracefs_snapshot > "$W/state.before"
	load_start=$(cut -d' ' -f1-3 /proc/loadavg)

	# the tries: which rungs run here, and the one opensnoop picks itself
	own=$(try own "$OS" -v)
	own_rung=$(grep '^mode=own ' "$RAW" | sed -n 's/.* rung=\([a-z-]*\).*/\1/p')
	[ -n "$own" ] && own_rung="did not start: $own"
	modes=
	for r in $RUNGS; do
		why=$(try "$r" env FTT_CAPTURE=$r "$OS" -v)
		got=$(grep "^mode=$r round=0 " "$RAW" | sed -n 's/.* rung=\([a-z-]*\).*/\1/p')
		[ -z "$why" ] && [ "$got" != "$r" ] && why="ran, but its stderr names rung $got"
		eval "why_$r=\$why"
		[ -z "$why" ] && modes="$modes $r"
	done
	why_perf=
	if [ -z "$POS" ]; then
		why_perf="not installed (setup.sh installs perf-tools-unstable)"
	elif [ ! -e $T/kprobe_events ]; then
		why_perf="needs kprobes: this kernel has none"
	elif [ "$lock_before" = 1 ]; then
		why_perf="ftrace lock /var/tmp/.ftrace-lock held by another user"
	else
		why_perf=$(try perf bash "$POS")
	fi
	[ -z "$why_perf" ] && modes="$modes perf"

	# a warm-up, not counted: in the guests the first floor run after the
	# tries was much slower than the later ones
	"$H" -G "$GEN $N $W/open.target" > /dev/null 2>&1
	floor_run floor w
	r=1
	while [ $r -le "$ROUNDS" ]; do
		line=$("$H" -G "$GEN $N $W/open.target" 2>&1 | tail -n 1)
		echo "mode=plain round=$r $line" >> "$RAW"
		floor_run floor $r
		[ -e $T/syscall_user_buf_size ] && floor_run floor0 $r
		for m in $modes; do
			case $m in
			perf) tool_run perf $r bash "$POS" ;;
			*) tool_run $m $r env FTT_CAPTURE=$m "$OS" -v ;;
			esac
		done
		[ "${RUNGS_GUEST:-0}" = 1 ] || echo "rungs: round $r of $ROUNDS done" >&2
		r=$((r + 1))
	done
	load_end=$(cut -d' ' -f1-3 /proc/loadavg)
	state="not checked (no tests/lib.sh)"
	if command -v tracefs_snapshot > /dev/null; then
		tracefs_snapshot > "$W/state.after"
		if diff "$W/state.before" "$W/state.after" > "$W/state.diff" 2>&1; then
			state="restored exactly"
		else
			state="CHANGED: $(grep '^[-+<>][^-+]' "$W/state.diff" | head -n 3 | tr '\n' ' ')"
		fi
	fi

	# the table
	echo "### $WHERE: kernel $(uname -r)"
	echo
	echo "- Load: opengen_libc (dynamic), $N open()+close() of one path per run, $ROUNDS interleaved rounds; $(nproc) CPUs; load average $load_start at the start, $load_end at the end; tracefs after the run: $state"
	echo "- opensnoop on its own picks the rung: $own_rung"
	for r in $RUNGS; do
		eval "why=\$why_$r"
		[ -n "$why" ] && echo "- rung $r: not measured: $why"
	done
	[ -n "$why_perf" ] && echo "- opensnoop-perf: not measured: $why_perf"
	[ -e $T/syscall_user_buf_size ] &&
		echo "- The syscall entry events copy the path in (6.19+): syscall_user_buf_size is $(cat $T/syscall_user_buf_size) by default; the floor and every rung but syscall run with that, the second floor with 0"
	echo
	echo "| run | opens/s (median) | vs floor, wall | opens per CPU s (median) | vs floor, CPU | +us per open vs floor, wall / CPU | rows naming the path / N (median, worst) | rows of the load, any path (median) | lost reported (median) | tool CPU us per open | tool CPU s, 1-open try | tool CPU us per open, less the try's | ready s (median) |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	floors=floor
	[ -e $T/syscall_user_buf_size ] && floors="floor floor0"
	for m in plain $floors $modes; do
		case $m in
		plain) name="untraced" ;;
		floor0) name="floor, paths not copied (syscall_user_buf_size 0)" ;;
		floor) name="floor: enter+exit events on, no reader" ;;
		perf) name="opensnoop-perf (getname() kprobe, bash, gawk)" ;;
		*) name="opensnoop, rung $m" ;;
		esac
		o=$(val $m gen | cut -d, -f4 | median)
		co=$(val $m gen | cut -d, -f5 | median)
		if [ $m = floor ]; then
			echo "| $name | $o | 1.00 | $co | 1.00 | | | | | | | | |"
			continue
		fi
		rw=$(pround $m floor 4 ratio) rc=$(pround $m floor 5 ratio)
		uw=$(pround $m floor 4 us) uc=$(pround $m floor 5 us)
		if [ $m = plain ] || [ $m = floor0 ]; then
			echo "| $name | $o | $rw | $co | $rc | $uw / $uc | | | | | | | |"
			continue
		fi
		named=$(val $m named | median) worst=$(val $m named | minimum)
		rows=$(val $m seen | median)
		lost=$(val $m lostmsg | median)
		cpu=$(val $m cpu_s | median)
		per=$(awk -v c="$cpu" -v n="$N" 'BEGIN { if (c == "-") print "-"; else printf "%.2f", c / n * 1e6 }')
		fixed=$(grep "^mode=$m round=0 " "$RAW" | tr ' ' '\n' | sed -n 's/^cpu_s=//p')
		net=$(awk -v c="$cpu" -v f="${fixed:--}" -v n="$N" 'BEGIN { if (c == "-" || f == "-") print "-"; else printf "%.2f", (c - f) / n * 1e6 }')
		ready=$(val $m ready_s | median)
		echo "| $name | $o | $rw | $co | $rc | $uw / $uc | $named / $N ($worst) | $rows | $lost | $per | ${fixed:--} | $net | $ready |"
	done
	echo
	# a tool that did not exit 0 after SIGINT, or a rung other than the one forced
	bad=$(grep "^mode=[a-z0-9]* round=[1-9]" "$RAW" | grep -Ev '^mode=(plain|floor|floor0) ' | grep -v 'status=0' | head -n 3)
	[ -n "$bad" ] && { echo "Runs that did not end with status 0:"; echo; echo "$bad" | sed 's/^/    /'; echo; }
	return 0
}

# ---------------------------------------------------------------------------
# in a guest (tests/vm/run.sh runs this file with RUNGS_GUEST=1 set in front):
# the binaries are on PATH, bash, gawk and opensnoop-perf in /usr/local/bin

if [ "${RUNGS_GUEST:-0}" = 1 ]; then
	W=/tmp/rungs
	mkdir -p $W
	RAW=$W/raw
	: > "$RAW"
	H=$(command -v harness) GEN=$(command -v opengen_libc) OS=$(command -v opensnoop)
	POS=$(command -v opensnoop-perf)
	N=${RUNGS_N:-50000} ROUNDS=${RUNGS_ROUNDS:-5} QUIET=3000
	WHERE="a qemu guest (TCG)"
	# what the script expects of a Debian host: gawk in /usr/bin, debugfs, /var/tmp
	if [ -n "$POS" ] && command -v bash > /dev/null && command -v gawk > /dev/null; then
		[ -x /usr/bin/gawk ] || ln -s "$(command -v gawk)" /usr/bin/gawk 2> /dev/null
		mkdir -p /sys/kernel/debug /var/tmp
		[ -d /sys/kernel/debug/tracing ] || mount -t debugfs debugfs /sys/kernel/debug
	else
		POS=
	fi
	measure
	sed 's/^/raw: /' "$RAW"
	exit 0
fi

# ---------------------------------------------------------------------------
# on the host: build, then measure here or in the guests

NAME=rungs
. "$(dirname "$0")/host.sh"
# the load, dynamic: its opens go through the C library's open64
$CC -O2 -Wall -Wextra -o "$BB/opengen_libc" bench/opengen.c || die "cannot build bench/opengen.c"
$CC -O2 -Wall -Wextra -o "$BB/harness" bench/harness.c || die "cannot build bench/harness.c"
STAMP=$(date +%Y%m%d-%H%M%S)
MD=$OUT/rungs-$STAMP.md
RAWOUT=$OUT/rungs-$STAMP.raw
commit="$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"

if [ "${BENCH_VM:-0}" = 1 ]; then
	kernels=${BENCH_VM_KERNELS:-"6.1 7.3"}
	W=$(mktemp -d /var/tmp/ftt-rungs.XXXXXX) || die "mktemp"
	bins="ip pgrep pkill $BB/harness $BB/opengen_libc"
	for p in bash gawk "$PERF/opensnoop-perf"; do
		command -v "$p" > /dev/null && bins="$bins $p"
	done
	echo "rungs: booting $kernels under qemu; N=${BENCH_RUNGS_N:-50000} x ${BENCH_RUNGS_ROUNDS:-5} rounds per kernel" >&2
	VM_GUEST_CMD="RUNGS_GUEST=1 RUNGS_N=${BENCH_RUNGS_N:-50000} RUNGS_ROUNDS=${BENCH_RUNGS_ROUNDS:-5} BENCH_RUNGS=\"$RUNGS\"
$(cat bench/rungs.sh)" VM_HOST_BINS="$bins" VM_KERNELS="$kernels" sh tests/vm/run.sh > "$W/vm" 2>&1
	guest_report "opensnoop's capture rungs: cost per open against the floor" "opensnoop from $TOP/bin"
	rm -rf "$W"
else
	[ -x "$BINDIR/opensnoop" ] || die "$BINDIR/opensnoop is not built (make)"
	W=$(mktemp -d /var/tmp/ftt-rungs.XXXXXX) || die "mktemp"
	trap '[ -d "$T/instances/benchfloor$$" ] && rmdir "$T/instances/benchfloor$$"; rm -rf "$W"; exit 1' INT TERM HUP
	RAW=$W/raw
	: > "$RAW"
	H=$BB/harness GEN=$BB/opengen_libc OS=$BINDIR/opensnoop
	POS=
	[ -x "$PERF/opensnoop-perf" ] && command -v bash > /dev/null && POS=$PERF/opensnoop-perf
	N=${BENCH_RUNGS_N:-200000} ROUNDS=${BENCH_RUNGS_ROUNDS:-5} QUIET=1000
	WHERE="this machine"
	mounted_d=0
	if [ -n "$POS" ] && [ -e $T/kprobe_events ] && [ ! -e /sys/kernel/debug/tracing/trace ] &&
		mount -t debugfs none /sys/kernel/debug 2> /dev/null; then
		mounted_d=1
	fi
	{
		echo "# opensnoop's capture rungs: cost per open against the floor"
		echo
		echo "- When: $(date -u '+%Y-%m-%d %H:%M UTC'); commit $commit; opensnoop from $BINDIR"
		echo "- Machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
		echo
		measure
	} > "$MD"
	[ $mounted_d = 1 ] && umount /sys/kernel/debug
	cp "$RAW" "$RAWOUT"
	rm -rf "$W"
fi
cat "$MD"
echo
echo "rungs: table written to $MD, raw lines in $RAWOUT" >&2

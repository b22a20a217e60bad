# SPDX-License-Identifier: GPL-2.0-only
# bench/host.sh - what every bench script sets up on the host, sourced with
# NAME set to the script's name (for its messages): the top of the tree
# (TOP, the working directory from here on), our binaries (BINDIR), the
# build directory (B) and the load generators' one (BB, made), the compiler
# (CC), the results directory (OUT, made), perf-tools' (PERF), die, and root
# checked; guest_report for the scripts that measure in qemu guests.
# BINDIR, B, CC, BENCH_OUT and BENCH_PERF may be set before.

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
BINDIR=${BINDIR:-bin}
B=${B:-build}
case $BINDIR in /*) ;; *) BINDIR=$TOP/$BINDIR ;; esac
case $B in /*) ;; *) B=$TOP/$B ;; esac
CC=${CC:-cc}
OUT=${BENCH_OUT:-$TOP/bench/results}
PERF=${BENCH_PERF:-/usr/sbin}
die() { echo "$NAME: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root (tracefs)"
BB=$B/bench
mkdir -p "$BB" "$OUT" || die "cannot create $BB or $OUT"

# guest_report TITLE WHAT - a guest run's report: tests/vm/run.sh's output
# ($W/vm, for the kernels of $kernels) as markdown in $MD, with TITLE, when,
# the commit ($commit) and WHAT (which tools), then each guest's lines less
# the raw ones and the script's own progress lines ("NAME: ..."); the raw
# lines, each with its kernel, in $RAWOUT; the vm summary on stderr
guest_report() {
	{
		echo "# $1"
		echo
		echo "- When: $(date -u '+%Y-%m-%d %H:%M UTC'); commit $commit; $2"
		echo "- Host: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1); guests under qemu (TCG), so only the ratios inside one guest mean anything"
		echo
		sed -n 's/^\[\([0-9.a-z]*\)\] //p' "$W/vm" | grep -v "^raw: \|^PASS \|^FAIL vm/\|^$NAME: "
		grep '^\[[0-9.a-z]*\] FAIL vm/' "$W/vm"
		for k in $kernels; do
			grep -q "^\[$k\] ### " "$W/vm" || echo "No table from $k: see the log lines above (tests/vm/run.sh)."
		done
	} > "$MD"
	sed -n 's/^\[\([0-9.a-z]*\)\] raw: /kernel=\1 /p' "$W/vm" > "$RAWOUT"
	grep '^vm: ' "$W/vm" >&2
}

# SPDX-License-Identifier: GPL-2.0-only
# bench/host.sh - what every bench script sets up on the host, sourced with
# NAME set to the script's name (for its messages): the top of the tree
# (TOP, the working directory from here on), our binaries (BINDIR), the
# build directory (B) and the load generators' one (BB, made), the compiler
# (CC), the results directory (OUT, made), perf-tools' (PERF), die, and root
# checked. BINDIR, B, CC, BENCH_OUT and BENCH_PERF may be set before.

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

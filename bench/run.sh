#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench/run.sh - the suite against the bash perf-tools, side by side, one run
#
# usage: sh bench/run.sh        (or: make bench)
#
# Runs each measure for our tool and for the perf-tools script on the same
# event and the same load, interleaved (A B A B ...), and prints medians and
# ratios as a markdown table, also written to $BENCH_OUT/bench-DATE.md with the
# raw per-run lines beside it (bench-DATE.raw). A section whose tool is not in
# $BINDIR says "not built yet"; a perf-tools script that fails here says
# "cannot run here: <its error>". Needs root. See bench/README.md.
#
# Settings (environment):
#   BINDIR        our binaries (default bin)         B   build dir (default build)
#   BENCH_N       opens per run (default 500000)     BENCH_ROUNDS  rounds (default 7)
#   BENCH_IO_N    direct reads per run (100000 on the loop device, 20000 on disk)
#   BENCH_IO_ROUNDS  rounds of block I/O (default 5)
#   BENCH_IO_DISK 1: read a file on the disk, not a loop device in RAM
#   BENCH_PAIRS   paired runs per tool in section 2b (default 60)
#   BENCH_PAIR_N  opens per paired run (default 100000)
#   BENCH_SYS_N   getppid() calls per run in section 8 (default 200000)
#   BENCH_KILL_N  kill(pid, 0) calls per run in section 8 (default 50000)
#   BENCH_SYS_ROUNDS  rounds of section 8 (default 3)
#   BENCH_OUT     results dir (default bench/results)
#   BENCH_PERF    perf-tools dir (default /usr/sbin; scripts named X-perf)
#   BENCH_STATIC  0: skip `make static` for the footprint table (default 1)
#   BENCH_VM      1: also section 5, funccount in qemu guests
#   BENCH_VM_KERNELS  the guests' kernels (default "5.10 6.1 6.12")
#   BENCH_ONLY    the sections to run, e.g. "8" or "1 2b" (default all: 1 for
#                 1-3, 2b, 4, 5, 6, 7, 8); with 8 and BENCH_VM=1 but not 5, the
#                 guests measure only syscount
#   CC            compiler for the load generators (default cc)

set -u
NAME=bench
. "$(dirname "$0")/host.sh"
N=${BENCH_N:-500000}
ROUNDS=${BENCH_ROUNDS:-7}
PAIRS=${BENCH_PAIRS:-60}
PAIR_N=${BENCH_PAIR_N:-100000}
IOROUNDS=${BENCH_IO_ROUNDS:-5}
SN=${BENCH_SYS_N:-200000}
KN=${BENCH_KILL_N:-50000}
SROUNDS=${BENCH_SYS_ROUNDS:-3}
LOOPDEV= SHMF=
T=/sys/kernel/tracing
DBG=/sys/kernel/debug
LOCK=/var/tmp/.ftrace-lock
EV=syscalls/sys_enter_openat
# killsnoop's events: the six signal-sending calls' entries and exits, and
# signal_generate (killsnoop-perf enables sys_enter_kill and sys_exit_kill)
KILL_EVS=signal/signal_generate
for c in kill tkill tgkill rt_sigqueueinfo rt_tgsigqueueinfo pidfd_send_signal; do
	KILL_EVS="$KILL_EVS syscalls/sys_enter_$c syscalls/sys_exit_$c"
done

# ---------------------------------------------------------------------------
# build the load generators and the harness (into the build dir, not the tree)

for g in opengen iogen readgen sysgen; do
	$CC -static -O2 -Wall -Wextra -o "$BB/$g" bench/$g.c 2>/dev/null ||
		$CC -O2 -Wall -Wextra -o "$BB/$g" bench/$g.c || die "cannot build bench/$g.c"
done
$CC -O2 -Wall -Wextra -o "$BB/harness" bench/harness.c || die "cannot build bench/harness.c"
H=$BB/harness

WORK=$(mktemp -d /var/tmp/ftt-bench.XXXXXX) || die "mktemp"
STAMP=$(date +%Y%m%d-%H%M%S)
RAW=$OUT/bench-$STAMP.raw
MD=$OUT/bench-$STAMP.md
: > "$RAW"

# ---------------------------------------------------------------------------
# tracefs as we found it: mounts, the files the perf-tools change, a snapshot

WORKLOADS=$TOP/tests/bin
. "$TOP/tests/lib.sh"
mounted_t=0 mounted_d=0
[ -e $T/trace ] || { mount -t tracefs nodev $T && mounted_t=1; } || die "no tracefs"
if [ ! -e $DBG/tracing/trace ]; then
	if [ ! -e $DBG/tracing ] && mount -t debugfs none $DBG 2>/dev/null; then
		mounted_d=1
	fi
fi
saved_bufkb=$(cat $T/buffer_size_kb)
saved_tracer=$(cat $T/current_tracer)
tracefs_snapshot > "$WORK/state.before"
lock_before=0
[ -e $LOCK ] && lock_before=1

restore() {
	[ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV" 2>/dev/null
	[ -n "$SHMF" ] && rm -f "$SHMF"
	LOOPDEV= SHMF=
	echo "$saved_bufkb" > $T/buffer_size_kb 2>/dev/null
	echo "$saved_tracer" > $T/current_tracer 2>/dev/null
	[ -d "$T/instances/benchfloor$$" ] && rm_instance "$T/instances/benchfloor$$"
	[ -n "${PAIRED_PID:-}" ] && kill -INT "$PAIRED_PID" 2>/dev/null && sleep 1
	tracefs_snapshot > "$WORK/state.after"
	# what this run left behind or changed: lines only in one snapshot, except
	# other users' instances (ftt-TOOL-PID) that started or ended meanwhile
	diff "$WORK/state.before" "$WORK/state.after" | grep '^[<>]' |
		while IFS= read -r l; do
			case $l in
			"< ftt-"*) continue ;;
			"> ftt-"*-[0-9]*) kill -0 "${l##*-}" 2>/dev/null && continue ;;
			esac
			printf '%s\n' "$l"
		done > "$WORK/state.diff"
	if [ ! -s "$WORK/state.diff" ]; then
		state="restored exactly"
	else
		state="CHANGED: $(head -3 "$WORK/state.diff" | tr '\n' ' ')"
	fi
	[ $mounted_d = 1 ] && umount $DBG 2>/dev/null
	[ $mounted_t = 1 ] && umount $T 2>/dev/null
}
trap 'restore; rm -rf "$WORK"; exit 1' INT TERM HUP

# after a perf-tools run: undo what it left (lock of a dead PID, enabled events)
perf_cleanup() {
	if [ $lock_before = 0 ] && [ -e $LOCK ]; then
		p=$(cat $LOCK 2>/dev/null)
		kill -0 "$p" 2>/dev/null || rm -f $LOCK
	fi
	for e in $EV syscalls/sys_exit_openat block/block_rq_issue block/block_rq_insert \
		block/block_rq_complete $KILL_EVS; do
		[ "$(cat $T/events/$e/enable 2>/dev/null)" = 1 ] &&
			grep -qx "$e" "$WORK/enabled.before" 2>/dev/null || echo 0 > $T/events/$e/enable 2>/dev/null
	done
	echo "$saved_bufkb" > $T/buffer_size_kb 2>/dev/null
}
grep -l 1 $T/events/*/*/enable 2>/dev/null | sed "s|$T/events/||; s|/enable||" > "$WORK/enabled.before"

# ---------------------------------------------------------------------------
# helpers

# run SECTION MODE ROUND HARNESS-ARGS... - one measured run, appended to $RAW
run() {
	sec=$1 mode=$2 round=$3
	shift 3
	err=$WORK/err.$sec.$mode.$round
	line=$("$H" -e "$err" "$@" 2>&1 | tail -1)
	lost=$(sed -n 's/.*WARNING: \([0-9]*\) events lost.*/\1/p' "$err" 2>/dev/null | head -1)
	said=0
	[ "${lost:-0}" -gt 0 ] && said=1
	case $mode in bash*)
		# what the script passed on of ftrace's loss marks ("CPU:1 [LOST 672
		# EVENTS]", some kernels without the number): in its output, which
		# the harness counted, and on stderr
		said=$(($(echo "$line" | sed -n 's/.*lostmarks=\([0-9]*\).*/\1/p') +
			$(grep -c 'LOST.*EVENTS' "$err" 2>/dev/null)))
		lost=$(($(echo "$line" | sed -n 's/.*lostsum=\([0-9]*\).*/\1/p') +
			$(sed -n 's/.*LOST \([0-9][0-9]*\) EVENTS.*/\1/p' "$err" 2>/dev/null |
				awk '{ s += $1 } END { print s + 0 }')))
	esac
	echo "sec=$sec mode=$mode round=$round $line lostmsg=${lost:-0} lostsaid=$said" >> "$RAW"
	case $mode in bash*) perf_cleanup ;; esac
}

# rm_instance DIR - remove an instance of ours; while another program on the box
# has one of its files open (a snapshot of all of tracefs, say) the kernel says
# it is busy, so try again for up to 2 s before saying so
rm_instance() {
	i=0
	while ! rmdir "$1" 2>/dev/null && [ -d "$1" ] && [ $i -lt 20 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -d "$1" ] && rmdir "$1"
}

# floor - run the generator with EVENTS enabled in a private instance, no reader
floor() {
	sec=$1 round=$2 events=$3
	shift 3
	fi=$T/instances/benchfloor$$
	mkdir "$fi" || return
	for e in $events; do echo 1 > "$fi/events/$e/enable"; done
	line=$("$H" "$@" 2>&1 | tail -1)
	for e in $events; do echo 0 > "$fi/events/$e/enable"; done
	rm_instance "$fi"
	echo "sec=$sec mode=floor round=$round $line" >> "$RAW"
}

# paired SEC EVENTS TOOL ARGS... - 2b: the tool runs throughout; its instance and
# a floor instance with EVENTS (the same buffer size) take turns recording
# (tracing_on), $PAIRS pairs of $PAIR_N opens, the order alternating, the next
# run only once the tool's buffers are empty. Each pair runs within a second, so the host's swings, which take several seconds, hit
# both runs of a pair alike. Lines as run's, mode ours or floor; then one line
# with the tool's count of the generator's events and its exit status.
paired() {
	sec=$1 events=$2
	shift 2
	fi=$T/instances/benchfloor$$
	rm -f "$WORK/paired.pid"
	sh -c 'echo $$ > "$0"; exec "$@"' "$WORK/paired.pid" "$@" 2> "$WORK/paired.$sec.err" |
		grep -c opengen > "$WORK/paired.$sec.count" &
	i=0
	while [ $i -lt 100 ]; do
		PAIRED_PID=$(cat "$WORK/paired.pid" 2>/dev/null)
		# the run's instance, ftt-TOOL-PID-START (not its -WHAT helpers)
		ti=$(ls "$T/instances" 2>/dev/null | grep -E "^ftt-[a-z0-9]+-$PAIRED_PID(-[0-9]+)?\$" | head -1)
		[ -n "$ti" ] && ti=$T/instances/$ti
		[ -n "$PAIRED_PID" ] && [ -n "$ti" ] && [ "$(cat "$ti/tracing_on")" = 1 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	if [ $i = 100 ]; then
		echo "sec=$sec mode=pairs error=did-not-start" >> "$RAW"
		return
	fi
	echo 0 > "$ti/tracing_on"
	mkdir "$fi" || return
	cat "$ti/buffer_size_kb" > "$fi/buffer_size_kb"
	echo 0 > "$fi/tracing_on"
	for e in $events; do echo 1 > "$fi/events/$e/enable"; done
	p=1
	while [ $p -le $PAIRS ]; do
		if [ $((p % 2)) = 1 ]; then order="floor ours"; else order="ours floor"; fi
		for m in $order; do
			if [ $m = floor ]; then inst=$fi; else inst=$ti; fi
			echo 1 > "$inst/tracing_on"
			line=$($BB/opengen $PAIR_N "$WORK/open.target" | tr ' ' ,)
			echo 0 > "$inst/tracing_on"
			echo "sec=$sec mode=$m round=$p gen=$line" >> "$RAW"
			# the reader catches up before the next run: its buffers
			# empty (a reader still busy would slow the floor run after
			# it), then time to handle what it read last
			i=0
			while [ $m = ours ] && [ $i -lt 100 ] &&
				grep -q '^entries: [1-9]' "$ti"/per_cpu/cpu*/stats; do
				sleep 0.05
				i=$((i + 1))
			done
			sleep 0.3
		done
		p=$((p + 1))
	done
	for e in $events; do echo 0 > "$fi/events/$e/enable"; done
	rm_instance "$fi"
	kill -INT "$PAIRED_PID"
	wait
	PAIRED_PID=
	echo "sec=$sec mode=pairs seen=$(cat "$WORK/paired.$sec.count") want=$((PAIRS * PAIR_N))" >> "$RAW"
}

# val SEC MODE KEY - the KEY values of every run of SEC/MODE, one a line
val() {
	grep "^sec=$1 mode=$2 " "$RAW" | tr ' ' '\n' | sed -n "s/^$3=//p"
}
# ops SEC MODE - the generator's ops/s of every run (wall clock)
ops() { val "$1" "$2" gen | cut -d, -f4; }
# cops SEC MODE - the generator's ops per second of its own CPU time, every run
cops() { val "$1" "$2" gen | cut -d, -f5; }
# pratio SEC MODE BASE FIELD - median over rounds of MODE's generator rate
# (FIELD 4: wall, 5: CPU) over BASE's in the same round: each round's pair ran
# seconds apart, so a drift of the shared host between rounds cancels out
pratio() {
	pratios "$@" | median | awk '{ if ($1 == "-") print "-"; else printf "%.3f\n", $1 }'
}
# pratios SEC MODE BASE FIELD - the per-round ratios themselves, one a line
pratios() {
	grep "^sec=$1 mode=\($2\|$3\) " "$RAW" | awk -v m="$2" -v b="$3" -v f="$4" '
		{ mode = ""; round = ""; g = ""
		  for (i = 1; i <= NF; i++) {
			if ($i ~ /^mode=/) mode = substr($i, 6)
			if ($i ~ /^round=/) round = substr($i, 7)
			if ($i ~ /^gen=/) g = substr($i, 5) }
		  split(g, a, ","); v[mode, round] = a[f]; rounds[round] = 1 }
		END { for (r in rounds) if (v[m, r] > 0 && v[b, r] > 0) printf "%.4f\n", v[m, r] / v[b, r] }'
}
# pdiff SEC MODE BASE FIELD - median over rounds of the time MODE adds to each
# call of the generator against BASE in the same round, in ns: 1e9 / rate -
# 1e9 / BASE's rate (FIELD 4: wall, 5: CPU)
pdiff() {
	grep "^sec=$1 mode=\($2\|$3\) " "$RAW" | awk -v m="$2" -v b="$3" -v f="$4" '
		{ mode = ""; round = ""; g = ""
		  for (i = 1; i <= NF; i++) {
			if ($i ~ /^mode=/) mode = substr($i, 6)
			if ($i ~ /^round=/) round = substr($i, 7)
			if ($i ~ /^gen=/) g = substr($i, 5) }
		  split(g, a, ","); v[mode, round] = a[f]; rounds[round] = 1 }
		END { for (r in rounds) if (v[m, r] > 0 && v[b, r] > 0) printf "%.1f\n", 1e9 / v[m, r] - 1e9 / v[b, r] }' |
		median | awk '{ if ($1 == "-") print "-"; else printf "%.0f\n", $1 }'
}
# quantile Q - the Q-quantile (0-1) of numbers on stdin, nearest rank
quantile() {
	sort -n | awk -v q="$1" '{ a[NR] = $1 } END { if (!NR) { print "-"; exit }
		printf "%.3f\n", a[int(q * (NR - 1) + 0.5) + 1] }'
}
median() {
	sort -n | awk '{ a[NR] = $1 } END { if (!NR) { print "-"; exit }
		if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
minimum() { sort -n | head -1; }
# median_ci - a 95% confidence interval for the median of the numbers on stdin,
# "lo-hi": the k-th smallest and k-th largest, k the largest with P(Bin(n, 1/2)
# < k) <= 2.5% (order statistics: nothing assumed of the distribution); "-"
# below 6 numbers, too few for 95%
median_ci() {
	sort -n | awk '{ a[NR] = $1 } END { n = NR; p = 0.5 ^ n; cum = p; k = 0; j = 0
		while (n && cum <= 0.025) { k = j + 1; j++; p = p * (n - j + 1) / j; cum += p }
		if (!k) print "-"; else printf "%.3f-%.3f\n", a[k], a[n - k + 1] }'
}
# lost_said SEC MODE - the losses a tool reported: the median of what it said
# per run, and in how many runs it said any ("none said" if never)
lost_said() {
	runs=$(val "$1" "$2" lostsaid | wc -l)
	said=$(val "$1" "$2" lostsaid | awk '$1 > 0' | wc -l)
	if [ "$said" = 0 ]; then echo "none said"
	else echo "$(val "$1" "$2" lostmsg | median) (said in $said of $runs runs)"; fi
}
# verdict X TARGET OP - "meets target" if X OP TARGET, else **LOSES**
verdict() { awk -v x="$1" -v t="$2" -v op="$3" 'BEGIN { if (x == "-") print "-";
	else if ((op == ">=" && x >= t) || (op == "<=" && x <= t)) print "meets target";
	else print "**LOSES**" }'; }
maximum() { sort -n | tail -1; }
# verdict_ci X CI TARGET - verdict for "X >= TARGET", X a median and CI its
# interval: a median on one side of TARGET with its interval reaching the
# other is said to be not settled by the run
verdict_ci() {
	v=$(verdict "$1" "$3" '>=')
	echo "$2" | awk -F- -v v="$v" -v t="$3" '{ lo = $1; hi = $2 }
		END { if (NF < 2 || lo == "") print v
			else if (v == "meets target" && lo < t) print v " by the median; not settled (the interval reaches " lo ")"
			else if (v != "meets target" && hi >= t) print v " by the median; not settled (the interval reaches " hi ")"
			else print v }'
}
# ratio A B [digits] - A/B, or "-" if either is missing
ratio() {
	awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN {
		if (a == "-" || b == "-" || a == "" || b == "" || b + 0 == 0) print "-";
		else printf "%.*f\n", d, a / b }'
}
# per_m CPU LINES - CPU seconds per million events
per_m() {
	awk -v c="$1" -v l="$2" 'BEGIN { if (c == "-" || l == "-" || l + 0 == 0) print "-";
		else printf "%.2f\n", c / l * 1e6 }'
}
# can_run SEC NAME ARGS... - try a perf-tools script once; "" if it runs, else why not
can_run() {
	sec=$1
	shift
	[ -x "$1" ] || { echo "not installed ($1; setup.sh installs perf-tools-unstable)"; return; }
	if [ $lock_before = 1 ]; then
		echo "ftrace lock $LOCK held by another user"
		return
	fi
	"$H" -e "$WORK/try.$sec" -P "${PROBE:-open}" -N 1 -q 200 -G "$BB/opengen 1" -- "$@" \
		> "$WORK/try.$sec.out" 2>&1
	perf_cleanup
	if grep -q 'error=' "$WORK/try.$sec.out" || ! grep -q 'status=0' "$WORK/try.$sec.out"; then
		why=$(grep -v '^Tracing' "$WORK/try.$sec" | grep -v '^$' | head -1)
		echo "cannot run here: ${why:-$(cat "$WORK/try.$sec.out")}"
	fi
}
have() { [ -x "$BINDIR/$1" ]; }
# want SECTION - is SECTION (1 for 1-3, 2b, 4, 5, 6, 7, 8) to run: all of them
# unless BENCH_ONLY names some. Each section's code is inside "if want X".
want() { [ -z "${BENCH_ONLY:-}" ] || case " $BENCH_ONLY " in *" $1 "*) true ;; *) false ;; esac; }

echo "bench: $(uname -sr), $(nproc) CPUs, N=$N opens x $ROUNDS rounds, $IOROUNDS rounds of direct reads"
echo "bench: ours from $BINDIR, perf-tools from $PERF, raw results in $RAW"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

if want 1; then
# ---------------------------------------------------------------------------
# 1-3, 6, 7: tpoint vs tpoint-perf on syscalls:sys_enter_openat

GEN_OPEN="$BB/opengen $N $WORK/open.target"
tp_bash_why=$(can_run tp "$PERF/tpoint-perf" syscalls:sys_enter_openat)
have tpoint || tp_ours_why="not built yet"
echo "bench: openat load: untraced / floor / tpoint / tpoint-perf, interleaved"
r=1
while [ $r -le $ROUNDS ]; do
	run tp none $r -G "$GEN_OPEN"
	floor tp $r "$EV" -G "$GEN_OPEN"
	have tpoint && run tp ours $r -N $N -G "$GEN_OPEN" -- "$BINDIR/tpoint" syscalls:sys_enter_openat
	[ -z "$tp_bash_why" ] &&
		run tp bash $r -N $N -G "$GEN_OPEN" -- "$PERF/tpoint-perf" syscalls:sys_enter_openat
	printf '.'
	r=$((r + 1))
done
echo

# opensnoop vs opensnoop-perf (kprobes: the bash tool may not run here)
os_bash_why=$(can_run os "$PERF/opensnoop-perf")
os_ours_why=
have opensnoop || os_ours_why="not built yet"
if [ -z "$os_ours_why" ] || [ -z "$os_bash_why" ]; then
	echo "bench: openat load: untraced / opensnoop / opensnoop-perf, interleaved"
	r=1
	while [ $r -le $ROUNDS ]; do
		run os none $r -G "$GEN_OPEN"
		floor os $r "$EV syscalls/sys_exit_openat" -G "$GEN_OPEN"
		[ -z "$os_ours_why" ] && run os ours $r -N $N -G "$GEN_OPEN" -- "$BINDIR/opensnoop"
		[ -z "$os_bash_why" ] && run os bash $r -N $N -G "$GEN_OPEN" -- "$PERF/opensnoop-perf"
		printf '.'
		r=$((r + 1))
	done
	echo
fi

fi
if want 2b; then
# ---------------------------------------------------------------------------
# 2b: paired short runs, the tool running throughout

echo "bench: paired runs, floor and tool taking turns: $PAIRS pairs of $PAIR_N opens each"
have tpoint && paired tpp "$EV" "$BINDIR/tpoint" syscalls:sys_enter_openat
have opensnoop && paired osp "$EV syscalls/sys_exit_openat" "$BINDIR/opensnoop"

fi
if want 4; then
# ---------------------------------------------------------------------------
# 4 (host): iosnoop and iolatency vs the perf-tools, direct 4 KiB reads

# the device: a loop device over a file in RAM (tmpfs) gives the highest and
# steadiest IOPS this machine makes (a shared virtual disk's rate swings by 2x
# from one run to the next); BENCH_IO_DISK=1, or no loop device, reads a file
# on the disk under /var/tmp instead
IOF=$WORK/io.dat IODESC="a file on the disk under /var/tmp"
if [ "${BENCH_IO_DISK:-0}" != 1 ] && command -v losetup > /dev/null && [ -d /dev/shm ] &&
	SHMF=$(mktemp /dev/shm/ftt-bench.XXXXXX) &&
	dd if=/dev/zero of="$SHMF" bs=1M count=64 2> /dev/null &&
	LOOPDEV=$(losetup -f --show "$SHMF"); then
	IOF=$LOOPDEV IODESC="$LOOPDEV, a loop device over a 64 MiB file in RAM (tmpfs)"
	sleep 1		# the new device's partition scan
fi
ION=${BENCH_IO_N:-$(case $IOF in /dev/*) echo 100000 ;; *) echo 20000 ;; esac)}
"$BB/iogen" 1 "$IOF" > /dev/null || die "cannot create $IOF"
GEN_IO="$BB/iogen $ION $IOF"
PROBE=io:$IOF
is_bash_why=$(can_run is "$PERF/iosnoop-perf")
PROBE=banner:1000
il_bash_why=$(can_run il "$PERF/iolatency-perf")
is_ours_why= il_ours_why=
have iosnoop || is_ours_why="not built yet"
have iolatency || il_ours_why="not built yet"
echo "bench: direct-read load: untraced / iosnoop / iosnoop-perf / iolatency / iolatency-perf"
r=1
while [ $r -le $IOROUNDS ]; do
	run io none $r -G "$GEN_IO"
	floor io $r "block/block_rq_issue block/block_rq_complete" -G "$GEN_IO"
	[ -z "$is_ours_why" ] &&
		run io ours $r -P "io:$IOF" -N $ION -o "$WORK/is.ours.$r" -G "$GEN_IO" -- "$BINDIR/iosnoop"
	[ -z "$is_bash_why" ] &&
		run io bash $r -P "io:$IOF" -N $ION -o "$WORK/is.bash.$r" -G "$GEN_IO" -- "$PERF/iosnoop-perf"
	[ -z "$il_ours_why" ] &&
		run io oursl $r -P banner:1000 -q 2500 -o "$WORK/il.ours.$r" -G "$GEN_IO" -- "$BINDIR/iolatency"
	[ -z "$il_bash_why" ] &&
		run io bashl $r -P banner:1000 -q 2500 -o "$WORK/il.bash.$r" -G "$GEN_IO" -- "$PERF/iolatency-perf"
	printf '.'
	r=$((r + 1))
done
echo

fi
if want 8; then
# ---------------------------------------------------------------------------
# 8: syscount and killsnoop, what each way of counting adds to every call

# the events of killsnoop this kernel has (the floor enables those)
kev=
for e in $KILL_EVS; do [ -e "$T/events/$e/enable" ] && kev="$kev $e"; done
GEN_PPID="$BB/sysgen getppid $SN"
GEN_KILL="$BB/sysgen kill $KN"
# syscount-perf's default mode runs perf record, which writes its data to
# stdout when that is a pipe: its stdout is a file, and the pipe the harness
# reads stays open on fd 3 until the script and its children end; it runs
# in a directory of its own for perf.data. The script prints its banner
# before perf starts either way, so a "Tracing" line of the wrapper's, then
# 1.5 s, stands for it.
mkdir -p "$WORK/sp"
sc_why= kn_why= scp_why= knp_why=
have syscount || sc_why="not built yet"
have killsnoop || kn_why="not built yet"
if [ ! -x "$PERF/syscount-perf" ]; then
	scp_why="not installed ($PERF/syscount-perf; setup.sh installs perf-tools-unstable)"
elif ! command -v perf > /dev/null; then
	scp_why="cannot run here: no perf (Debian's linux-perf)"
fi
knp_why=$(PROBE=banner:500 can_run kn "$PERF/killsnoop-perf")
sc_path=$([ -e $T/events/raw_syscalls/sys_enter/hist ] && echo "in the kernel (hist trigger)" || echo "in user space")
echo "bench: $SN getppid: untraced / floor / syscount -c / syscount / syscount-perf -c / syscount-perf; $KN kill(0): untraced / floor / killsnoop / killsnoop-perf"
r=1
while [ $r -le $SROUNDS ]; do
	run sc none $r -G "$GEN_PPID"
	floor sc $r raw_syscalls/sys_enter -G "$GEN_PPID"
	if [ -z "$sc_why" ]; then
		run sc oursc $r -P banner:300 -q 300 -o "$WORK/sc.oursc.$r" -G "$GEN_PPID" -- "$BINDIR/syscount" -c
		run sc oursn $r -P banner:300 -q 300 -o "$WORK/sc.oursn.$r" -G "$GEN_PPID" -- "$BINDIR/syscount"
	fi
	if [ -z "$scp_why" ]; then
		# perf stat takes many seconds to close its hundreds of syscall counters
		run sc bashc $r -P banner:1500 -q 300 -k 90 -o "$WORK/sc.bashc.$r" -G "$GEN_PPID" -- "$PERF/syscount-perf" -c
		run sc bashn $r -P banner:1500 -q 300 -k 90 -G "$GEN_PPID" -- \
			sh -c 'cd "$1" && echo Tracing && exec "$2" 3>&1 > "$3"' sh "$WORK/sp" \
			"$PERF/syscount-perf" "$WORK/sc.bashn.$r"
		rm -f "$WORK/sp/perf.data" "$WORK/sp/perf.data.old"
	fi
	run kn none $r -G "$GEN_KILL"
	floor kn $r "$kev" -G "$GEN_KILL"
	[ -z "$kn_why" ] &&
		run kn ours $r -P kill -N $KN -G "$GEN_KILL" -- "$BINDIR/killsnoop"
	[ -z "$knp_why" ] &&
		run kn bash $r -P kill -N $KN -G "$GEN_KILL" -- "$PERF/killsnoop-perf"
	printf '.'
	r=$((r + 1))
done
echo
# the first error line of a perf-tools run that ended badly, if every run did
for m in bashc bashn; do
	[ -n "$scp_why" ] && break
	grep -q "^sec=sc mode=$m " "$RAW" || continue
	grep "^sec=sc mode=$m " "$RAW" | grep -q 'status=0' && continue
	e=$(cat "$WORK"/err.sc.$m.* 2>/dev/null | grep -v -e '^Tracing' -e 'ulimit' -e '^$' | head -1)
	case $m in
	bashc) scp_bashc_why="cannot run here: ${e:-no summary}" ;;
	bashn) scp_bashn_why="cannot run here: ${e:-no summary}" ;;
	esac
done

fi
if want 6; then
# ---------------------------------------------------------------------------
# 6: startup of the tools not measured above (banner only: no load)

for t in execsnoop tcpretrans; do
	have $t && run st-$t ours 1 -P banner:300 -q 100 -G "$BB/opengen 1" -- "$BINDIR/$t"
done

fi
# ---------------------------------------------------------------------------
# 7: static binaries

static_why=
if [ "${BENCH_STATIC:-1}" = 1 ] && want 7; then
	make -s B="$B" BINDIR="$BINDIR" static > "$WORK/static.log" 2>&1 ||
		static_why="make static failed: $(grep -m1 -i error "$WORK/static.log")"
fi

restore
rm -rf "$WORK.keep" 2>/dev/null
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# ---------------------------------------------------------------------------
# the table

{
echo "# Benchmark: ours vs the bash perf-tools"
echo
echo "- When: $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
echo "- Machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "- Kernel: $(uname -r); lockdown $(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/security/lockdown 2>/dev/null || echo 'unknown (no securityfs)'); kprobes $([ -e $T/kprobe_events ] && echo yes || echo no); hist triggers $([ -e $T/events/block/block_rq_issue/hist ] && echo yes || echo no)"
echo "- perf-tools: $(dpkg-query -W -f '${Package} ${Version}' perf-tools-unstable 2>/dev/null || echo 'not installed'); libtracefs $(pkg-config --modversion libtracefs 2>/dev/null)"
echo "- Load average (1/5/15 min) at start: $load_start; at end: $load_end"
runs=
want 1 && runs="$runs$ROUNDS interleaved rounds of $N opens; "
want 4 && runs="$runs$IOROUNDS rounds of $ION direct 4 KiB reads; "
want 8 && runs="$runs$SROUNDS rounds of $SN getppid() and $KN kill(0) calls; "
echo "- Runs: ${BENCH_ONLY:+BENCH_ONLY=$BENCH_ONLY: }${runs}medians; tracefs after the run: $state"
echo

if want 1; then
# --- openat: loss, slowdown, CPU
none=$(ops tp none | median); cnone=$(cops tp none | median)
fl=$(ops tp floor | median); cfl=$(cops tp floor | median)
echo "## 1-3. syscalls:sys_enter_openat under a $N-open load (tpoint vs tpoint-perf)"
echo
echo "Two rates of the load: ops/s of wall-clock time, and ops per second of its own"
echo "CPU time (what each open costs the process that makes it; time spent waiting"
echo "for a CPU, here or on the shared host, does not count). \"vs floor\" is the"
echo "median over rounds of each round's ratio to the floor run next to it."
echo
echo "| run | ops/s (median) | vs floor, wall | ops per CPU s (median) | vs floor, CPU | events seen / N (median, worst) | lost reported | tool CPU s per 1M events | peak RSS (group) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
echo "| untraced | $none | $(pratio tp none floor 4) | $cnone | $(pratio tp none floor 5) | | | | |"
echo "| floor: event on, no reader | $fl | 1.00 | $cfl | 1.00 | | | | |"
for m in ours bash; do
	if [ $m = ours ]; then name=tpoint why=${tp_ours_why:-}; else name=tpoint-perf why=$tp_bash_why; fi
	if [ -n "$why" ]; then
		echo "| $name | $why | | | | | | | |"
		continue
	fi
	o=$(ops tp $m | median); co=$(cops tp $m | median)
	seen=$(val tp $m seen | median); worst=$(val tp $m seen | minimum)
	lost=$(lost_said tp $m)
	cpu=$(val tp $m cpu_s | median); lines=$(val tp $m lines | median)
	rss=$(val tp $m rss_sum_kb | median)
	echo "| $name | $o | $(pratio tp $m floor 4) | $co | $(pratio tp $m floor 5) | $seen / $N ($worst) | $lost | $(per_m "$cpu" "$lines") | $rss KiB |"
	eval "tp_${m}_seen=\$seen tp_${m}_cpu=\$(per_m \"\$cpu\" \"\$lines\")"
done
echo
if [ -z "${tp_ours_why:-}" ] && [ -z "$tp_bash_why" ]; then
	v1=$(pratio tp ours bash 4)
	v2=$(pratio tp ours floor 4); v2i=$(pratios tp ours floor 4 | median_ci)
	v2c=$(pratio tp ours floor 5); v2ci=$(pratios tp ours floor 5 | median_ci)
	v3=$(ratio "$tp_ours_cpu" "$tp_bash_cpu")
	echo "| target | measured | verdict |"
	echo "|---|---:|---|"
	echo "| 0 events lost (tpoint) | $((N - tp_ours_seen)) lost (median run) | $([ "$tp_ours_seen" = "$N" ] && echo 'meets target' || echo '**LOSES**') |"
	echo "| workload ops/s under tpoint >= 1.0x under tpoint-perf | ${v1}x | $(verdict "$v1" 1.0 '>=') |"
	echo "| workload ops/s (wall) under tpoint within 5% of the floor | ${v2}x of floor (95% interval $v2i) | $(verdict_ci "$v2" "$v2i" 0.95) |"
	echo "| workload ops per CPU s under tpoint within 5% of the floor | ${v2c}x of floor (95% interval $v2ci) | $(verdict_ci "$v2c" "$v2ci" 0.95) |"
	echo "| reader CPU per event, tpoint / tpoint-perf (cat + bash) | ${v3}x | $(verdict "$v3" 1.0 '<=') |"
	echo
fi

# --- opensnoop
echo "## 1-3. opensnoop vs opensnoop-perf (same load)"
echo
if [ -n "$os_ours_why" ] && [ -n "$os_bash_why" ]; then
	echo "| tool | result |"
	echo "|---|---|"
	echo "| opensnoop | $os_ours_why |"
	echo "| opensnoop-perf | $os_bash_why |"
else
	none=$(ops os none | median); fl=$(ops os floor | median)
	cnone=$(cops os none | median); cfl=$(cops os floor | median)
	echo "| run | ops/s (median) | vs floor, wall | ops per CPU s (median) | vs floor, CPU | events seen / N (median, worst) | lost reported | tool CPU s per 1M events | peak RSS (group) |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	echo "| untraced | $none | $(pratio os none floor 4) | $cnone | $(pratio os none floor 5) | | | | |"
	echo "| floor: enter+exit events on, no reader | $fl | 1.00 | $cfl | 1.00 | | | | |"
	for m in ours bash; do
		if [ $m = ours ]; then name=opensnoop why=$os_ours_why; else name=opensnoop-perf why=$os_bash_why; fi
		if [ -n "$why" ]; then echo "| $name | $why | | | | | | | |"; continue; fi
		o=$(ops os $m | median); cpu=$(val os $m cpu_s | median); lines=$(val os $m lines | median)
		echo "| $name | $o | $(pratio os $m floor 4) | $(cops os $m | median) | $(pratio os $m floor 5) | $(val os $m seen | median) / $N ($(val os $m seen | minimum)) | $(lost_said os $m) | $(per_m "$cpu" "$lines") | $(val os $m rss_sum_kb | median) KiB |"
	done
	if [ -z "$os_ours_why" ]; then
		w=$(pratio os ours floor 4); wi=$(pratios os ours floor 4 | median_ci)
		c=$(pratio os ours floor 5); ci=$(pratios os ours floor 5 | median_ci)
		echo
		echo "| target | measured | verdict |"
		echo "|---|---:|---|"
		echo "| 0 events lost (opensnoop) | $((N - $(val os ours seen | median))) lost (median run) | $([ "$(val os ours seen | median)" = "$N" ] && echo 'meets target' || echo '**LOSES**') |"
		echo "| workload ops/s (wall) under opensnoop within 5% of the floor | ${w}x of floor (95% interval $wi) | $(verdict_ci "$w" "$wi" 0.95) |"
		echo "| workload ops per CPU s under opensnoop within 5% of the floor | ${c}x of floor (95% interval $ci) | $(verdict_ci "$c" "$ci" 0.95) |"
	fi
fi
echo

fi
if want 2b; then
# --- 2b: paired runs
echo "## 2b. Paired short runs: the load under the tool, against the floor"
echo
echo "The tool runs throughout. Its instance and a floor instance (the same events"
echo "and buffer size, no reader) take turns recording, switched with tracing_on:"
echo "$PAIRS pairs of $PAIR_N opens, the order alternating, each pair within a second."
echo "The host's swings take seconds, so both runs of a pair see the same host. Each"
echo "figure is the median of the $PAIRS per-pair ratios, then the middle half of them"
echo "(their spread) and a 95% interval for the median (from order statistics)."
echo
echo "| tool | vs floor, wall (median) | middle half | 95% interval | vs floor, CPU (median) | middle half | 95% interval | the generator's events seen / sent |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for sec in tpp osp; do
	case $sec in tpp) name=tpoint ;; osp) name=opensnoop ;; esac
	if ! grep -q "^sec=$sec mode=pairs " "$RAW"; then
		echo "| $name | not built yet | | | | |"
		continue
	fi
	if grep -q "^sec=$sec mode=pairs error=" "$RAW"; then
		echo "| $name | did not start | | | | |"
		continue
	fi
	w=$(pratio $sec ours floor 4); c=$(pratio $sec ours floor 5)
	wi=$(pratios $sec ours floor 4 | median_ci); ci=$(pratios $sec ours floor 5 | median_ci)
	eval "${sec}_w=\$w ${sec}_c=\$c ${sec}_wi=\$wi ${sec}_ci=\$ci"
	echo "| $name | $w | $(pratios $sec ours floor 4 | quantile 0.25)-$(pratios $sec ours floor 4 | quantile 0.75) | $wi | $c | $(pratios $sec ours floor 5 | quantile 0.25)-$(pratios $sec ours floor 5 | quantile 0.75) | $ci | $(val $sec pairs seen) / $(val $sec pairs want) |"
done
echo
echo "| target (paired runs) | measured | verdict |"
echo "|---|---:|---|"
for sec in tpp osp; do
	case $sec in tpp) name=tpoint ;; osp) name=opensnoop ;; esac
	eval "w=\${${sec}_w:--} c=\${${sec}_c:--} wi=\${${sec}_wi:--} ci=\${${sec}_ci:--}"
	[ "$w" = - ] && continue
	echo "| workload ops/s (wall) under $name within 5% of the floor | ${w}x of floor (95% interval $wi) | $(verdict_ci "$w" "$wi" 0.95) |"
	echo "| workload ops per CPU s under $name within 5% of the floor | ${c}x of floor (95% interval $ci) | $(verdict_ci "$c" "$ci" 0.95) |"
done
echo

fi
if want 4; then
# --- block I/O
none=$(ops io none | median); fl=$(ops io floor | median)
echo "## 4. Block I/O on the host: $ION direct 4 KiB reads (QD1) per run"
echo
echo "Device: $IODESC."
echo
echo "| run | IOPS (median) | vs untraced | I/Os seen / N (median, worst) | lost reported | tool CPU us per I/O | peak RSS (group) | notes |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
echo "| untraced | $none | 1.00 | | | | | |"
echo "| floor: issue+complete on, no reader | $fl | $(ratio "$fl" "$none") | | | | | |"
for m in ours bash oursl bashl; do
	case $m in
	ours) name=iosnoop why=$is_ours_why ;;
	bash) name=iosnoop-perf why=$is_bash_why ;;
	oursl) name=iolatency why=$il_ours_why ;;
	bashl) name=iolatency-perf why=$il_bash_why ;;
	esac
	if [ -n "$why" ]; then echo "| $name | $why | | | | | | |"; continue; fi
	o=$(ops io $m | median); cpu=$(val io $m cpu_s | median)
	note=
	case $m in
	ours|bash)
		seen=$(val io $m seen | median); worst=$(val io $m seen | minimum)
		# are the fields right? every generator row must say 4096 bytes
		gp=$(val io $m gen | head -1 | cut -d, -f1)
		note=$(awk -v p="$gp" '$2 == p { n++; if ($6 == 4096) ok++ }
			END { if (n && ok < 0.99 * n) printf "fields wrong on this kernel: %d of %d rows of the load show BYTES != 4096 (e.g. BLOCK \"%s\")", n - ok, n, blk
				else if (n) printf "fields right: %d of %d rows of the load show BYTES 4096", ok, n }
			$2 == p && $6 != 4096 && !blk { blk = $5 }' "$WORK/is.$m.1")
		;;
	*)	# histograms: sum the counts of every interval printed
		seen= worst=
		for r in $(seq 1 $IOROUNDS); do
			f=$WORK/il.${m%l}.$r
			seen="$seen $(awk -F: '/->/ { split($2, a, " "); s += a[1] } END { print s + 0 }' "$f" 2>/dev/null)"
		done
		worst=$(echo $seen | tr ' ' '\n' | minimum)
		seen=$(echo $seen | tr ' ' '\n' | median)
		note="counts summed over the intervals printed (includes other I/O on the box)"
		;;
	esac
	lost=$(lost_said io $m)
	echo "| $name | $o | $(ratio "$o" "$none") | $seen / $ION ($worst) | $lost | $(awk -v c="$cpu" -v n="$ION" 'BEGIN { printf "%.1f", c / n * 1e6 }') | $(val io $m rss_sum_kb | median) KiB | $note |"
done
echo
echo "iolatency pairs and counts in user space; with -K in the kernel where hist triggers exist (section 5: the guests); hist triggers on this kernel: $([ -e $T/events/block/block_rq_issue/hist ] && echo yes || echo no)."
echo

fi
if want 8; then
# --- syscount and killsnoop
echo "## 8. syscount and killsnoop: what each way of counting adds to every call"
echo
echo "The load makes one call as fast as it can: $SN getppid() per run for syscount,"
echo "$KN kill(own PID, 0) per run for killsnoop (signal 0 sends nothing, but it is a"
echo "kill(2) call, and traced as one). $SROUNDS interleaved rounds; medians. \"vs untraced\""
echo "and \"added per call\" are the medians over rounds of each round's ratio to, and"
echo "difference of 1 / rate from, the untraced run of the same round: the nanoseconds"
echo "the tracing adds to each call, of wall-clock time and of the load's own CPU time."
echo "syscount counts $sc_path on this kernel (hist triggers: $([ -e $T/events/raw_syscalls/sys_enter/hist ] && echo yes || echo no));"
echo "the in-kernel path is measured in the guests (section 5, BENCH_VM=1)."
echo
echo "| run | calls/s (median) | vs untraced | added per call, wall | calls per CPU s (median) | added per call, CPU | counted / N (median, worst) | lost reported | tool CPU s (median) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for m in none floor oursc oursn bashc bashn kn:none kn:floor kn:ours kn:bash; do
	sec=sc
	case $m in kn:*) sec=kn m=${m#kn:} ;; esac
	n=$SN; why= cnt=
	case $sec.$m in
	sc.none) name="getppid untraced" ;;
	sc.floor) name="getppid, floor: raw_syscalls:sys_enter on, no reader" ;;
	sc.oursc) name="syscount -c ($sc_path)"; why=$sc_why; cnt=getppid ;;
	sc.oursn) name="syscount, by process name ($sc_path)"; why=$sc_why; cnt=sysgen ;;
	sc.bashc) name="syscount-perf -c (perf stat, in-kernel counters)"; why=${scp_why:-${scp_bashc_why:-}}; cnt=getppid ;;
	sc.bashn) name="syscount-perf, by process name (perf record, perf script, awk)"; why=${scp_why:-${scp_bashn_why:-}}; cnt=sysgen ;;
	kn.none) name="kill(0) untraced"; n=$KN ;;
	kn.floor) name="kill(0), floor: killsnoop's events on, no reader"; n=$KN ;;
	kn.ours) name="killsnoop"; why=$kn_why; n=$KN ;;
	kn.bash) name="killsnoop-perf"; why=$knp_why; n=$KN ;;
	esac
	if [ -n "$why" ]; then echo "| $name | $why | | | | | | | |"; continue; fi
	o=$(ops $sec $m | median); co=$(cops $sec $m | median)
	if [ $m = none ]; then
		echo "| $name | $o | 1.00 | 0 | $co | 0 | | | |"
		continue
	fi
	counted=
	if [ -n "$cnt" ]; then
		# the row of the call (-c) or of the load's name, in each run's summary
		for f in "$WORK"/sc.$m.*; do
			[ -e "$f" ] || continue
			awk -v k="$cnt" '$1 == k { c = $2 } END { print c + 0 }' "$f"
		done > "$WORK/counted"
		counted="$(median < "$WORK/counted") / $n ($(minimum < "$WORK/counted"))"
	elif [ $m != floor ]; then
		counted="$(val $sec $m seen | median) / $n ($(val $sec $m seen | minimum))"
	fi
	cpu= lost=
	[ $m != floor ] && cpu=$(val $sec $m cpu_s | median) lost=$(lost_said $sec $m)
	if [ $m = bashn ]; then
		# perf script's own words: "Processed N events and lost M chunks!"
		for f in "$WORK"/err.sc.bashn.*; do
			[ -e "$f" ] || continue
			sed -n 's/.*and lost \([0-9]*\) chunks.*/\1/p' "$f" | head -1
		done > "$WORK/chunks"
		k=$(wc -l < "$WORK/chunks")
		[ "$k" -gt 0 ] && lost="$(median < "$WORK/chunks") chunks (perf script; said in $k of $SROUNDS runs)"
	fi
	echo "| $name | $o | $(pratio $sec $m none 4) | $(pdiff $sec $m none 4) ns | $co | $(pdiff $sec $m none 5) ns | $counted | $lost | $cpu |"
done
echo
echo "Counted: syscount -c's getppid row, syscount's sysgen row (the load's own few"
echo "other calls, from exec to exit, count too), killsnoop's rows with the load's PID."
echo "Both syscounts count the whole system, so another process's getppid() adds to the"
echo "row. The tool's CPU includes the children it reaped (perf, perf script, awk) and"
echo "its start and end."
echo

fi
if want 6; then
# --- startup
echo "## 6. Startup: exec to the \"Tracing\" banner, and to the first event seen (ready)"
echo
echo "| tool | banner s (median) | ready s (median) | target <= 0.2 s (tracepoint tools) |"
echo "|---|---:|---:|---|"
for pair in "tp ours tpoint" "tp bash tpoint-perf" "os ours opensnoop" "os bash opensnoop-perf" \
	"io ours iosnoop" "io bash iosnoop-perf" "io oursl iolatency" "io bashl iolatency-perf" \
	"st-execsnoop ours execsnoop" "st-tcpretrans ours tcpretrans"; do
	set -- $pair
	b=$(val $1 $2 banner_s | median); rd=$(val $1 $2 ready_s | median)
	if [ "$b" = "-" ]; then
		case $3 in *-perf) echo "| $3 | not measured (cannot run here) | | |" ;;
		*) echo "| $3 | not built yet | | |" ;; esac
		continue
	fi
	case $2 in bashl|oursl) rd="(no per-event output)" ;; esac
	case $3 in *-perf) v="(banner printed before setup)" ;;
	*) v=$(awk -v r="$rd" -v b="$b" 'BEGIN { x = (r ~ /^[0-9.]+$/) ? r : b;
		print (x <= 0.2) ? "meets target" : "**LOSES**" }') ;; esac
	echo "| $3 | $b | $rd | $v |"
done
echo

fi
if want 7; then
# --- footprint
echo "## 7. Footprint: peak RSS while tracing (above) and binary sizes"
echo
echo "| tool | dynamic binary | static binary | perf-tools script |"
echo "|---|---:|---:|---|"
for t in tpoint opensnoop execsnoop iosnoop iolatency tcpretrans funccount funcgraph kprobe; do
	d="not built yet"; s="not built yet"; p="-"
	[ -f "$BINDIR/$t" ] && d="$(wc -c < "$BINDIR/$t") B"
	if [ -n "$static_why" ]; then s=$static_why
	elif [ -f "$BINDIR/static/$t" ]; then s="$(wc -c < "$BINDIR/static/$t") B"
	fi
	[ -f "$PERF/$t-perf" ] && p="$(wc -c < "$PERF/$t-perf") B (+ bash, awk, cat)"
	echo "| $t | $d | $s | $p |"
done
echo
fi
# perf_bins - what perf-tools iolatency and opensnoop need in a guest: bash,
# mawk, gawk and the scripts
perf_bins() {
	for p in bash mawk gawk "$PERF/iolatency-perf" "$PERF/opensnoop-perf"; do
		command -v "$p" > /dev/null && printf '%s ' "$p"
	done
}
if [ "${BENCH_VM:-0}" = 1 ] && { want 5 || want 8; }; then
	# with 8 and not 5, the guests measure syscount only
	gonly=
	want 5 || gonly="GUEST_ONLY=syscount
"
	echo "## 5. funccount, iolatency and syscount in qemu guests (kprobes, hist triggers)"
	echo
	echo "This host has no kprobes; these figures come from Debian kernels booted"
	echo "under qemu (TCG) by tests/vm/run.sh, running bench/guest.sh. TCG is slow"
	echo "and uneven: read the ratios inside one guest, not the absolute numbers."
	echo
	VM_GUEST_CMD="$gonly$(cat bench/guest.sh)" VM_HOST_BINS="ip pgrep pkill $BB/readgen $BB/sysgen $BB/opengen $BB/iogen $(perf_bins)" \
		VM_KERNELS=${BENCH_VM_KERNELS:-"5.10 6.1 6.12"} sh tests/vm/run.sh > "$WORK/vm" 2>&1
	sed -n 's/^\[[0-9.]*\] //p' "$WORK/vm" | grep -v '^PASS \|^FAIL vm/'
	grep '^\[[0-9.]*\] FAIL vm/' "$WORK/vm"
	echo
elif want 5; then
	echo "Section 5 (funccount, in qemu guests): not run (BENCH_VM=1 runs it)."
fi
} > "$MD"

cat "$MD"
echo
echo "bench: table written to $MD"
rm -rf "$WORK"

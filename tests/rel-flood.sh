# SPDX-License-Identifier: GPL-2.0-only
# tests/rel-flood.sh - floods the reader cannot keep up with, and an
# allocation refused under load, for tests/live/reliability.sh

# rel_flood TOOL [OVERFLOW [-d]] - a flood the reader cannot keep up with:
# two openers on every CPU and execs beside them, for FLOOD_S seconds, with
# the tool pinned to CPU 0 (which two openers share) at nice 5 once its
# banner is out, and its instance's buffer cut to 2 MB a CPU, so that it
# overflows within the seconds the test lasts (the tool sizes it for bursts,
# up to 32 MB). The tool's peak memory stays under FLOOD_KB; SIGINT to its
# process group ends it within 2 s (with -d, SIGINT to the tool alone: its
# pipe's reader must stay for the output it kept, then printed); and what
# the kernel dropped (the instance's own overrun count, read just before the
# stop) is reported, at least that many. With a second argument the flood
# must have overflowed the buffer, or the test proved nothing (opens do;
# execs are too slow to, even starved like this). With "-d" as the third,
# the tool runs with -d (its output kept until the end), at full speed and
# full buffer, to print as much as it can: the output must not be what
# fills its memory.
FLOOD_S=8
FLOOD_KB=65536
rel_flood() {
	rel_cmd "$1" || { skip "$REL_WHY"; return 0; }
	[ -n "${REL_FLOOD_ARGS:-}" ] && REL_LIVE=$REL_FLOOD_ARGS
	[ -x "$WORKLOADS/pgrun" ] && [ -x "$WORKLOADS/fcalls" ] ||
		{ fail "no $WORKLOADS/pgrun or fcalls (make workloads)"; return 1; }
	dur=
	[ "${3:-}" = -d ] && dur="-d 600"
	rel_flood_start "$1" || return 1
	rel_flood_load
	sleep $FLOOD_S
	rel_flood_measure "$1"
	rel_flood_stop || return 1
	rel_clean_end "$1" "$pid" "$(cat "$TMP/rc")"
	rel_flood_check "$2"
	echo "peak ${hwm} kB, stop ${ms} ms, overrun $over, reported lost ${lost:-0}, $rows lines" > "$TMP/.info"
}

# rel_flood_start TOOL - run TOOL (with $dur, and rel_cmd's $REL_LIVE) under tests/bin/pgrun, pinned
# to CPU 0, until its banner; without -d, at nice 5 from then on, with its
# instance's buffer cut to 2 MB a CPU. Sets runner, pid and pgid; fails if
# it did not start
rel_flood_start() {
	# shellcheck disable=SC2086
	"$WORKLOADS/pgrun" "$TMP" taskset -c 0 "$BIN/$1" $dur $REL_LIVE &
	runner=$!
	if ! wait_for_line "$TMP/out" 'Tracing' 150; then
		kill -KILL "$(cat "$TMP/pid" 2>/dev/null)" 2>/dev/null
		wait $runner
		fail "did not start: $(head -c 300 "$TMP/err" 2>/dev/null)"
		return 1
	fi
	rel_baseline
	pid=$(cat "$TMP/pid") pgid=$(cat "$TMP/pgid")
	if [ -z "$dur" ]; then
		renice -n 5 -p "$pid" > /dev/null
		echo 2048 > "$(run_inst "$1" "$pid")/buffer_size_kb" ||
			{ kill -INT -"$pgid"; wait $runner; fail "cannot resize the tool's buffer"; return 1; }
	fi
}

# rel_flood_load - the flood: two openers on every CPU (or makers of
# $REL_FLOOD_LOAD, an action of fcalls), and execs on the last one; sets load
# (their PIDs)
rel_flood_load() {
	load=
	cpus=$(nproc)
	c=0
	while [ $c -lt "$cpus" ]; do
		for k in 1 2; do
			taskset -c $c "$WORKLOADS/fcalls" "${REL_FLOOD_LOAD:-opens}" 1000000000 \
				> /dev/null 2>&1 &
			load="$load $!"
		done
		c=$((c + 1))
	done
	taskset -c $((cpus - 1)) "$WORKLOADS/fcalls" execs 1000000000 > /dev/null 2>&1 &
	load="$load $!"
}

# rel_flood_measure TOOL - the run's figures, read just before the stop: its
# peak memory (hwm, kB), its instance (inst) and the instance's own overrun
# count, what the kernel dropped (over)
rel_flood_measure() {
	hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
	inst=$(run_inst "$1" "$pid")
	over=$(cat "$inst"/per_cpu/cpu*/stats 2>/dev/null |
		awk '/^overrun:/ { n += $2 } END { print n + 0 }')
}

# rel_flood_stop - SIGINT to the run's process group (with -d, to the tool
# alone), and the flood ended; sets ms, the time the run took to end. Fails
# if it did not end within 15 s (it is then killed and reaped)
rel_flood_stop() {
	t0=$(date +%s%N)
	if [ -n "$dur" ]; then
		kill -INT "$pid"	# the tool alone: cat must stay to take what it kept
	else
		kill -INT -"$pgid"
	fi
	wait_gone "$pid" 150
	ms=$((($(date +%s%N) - t0) / 1000000))
	# shellcheck disable=SC2086
	kill $load 2>/dev/null
	# shellcheck disable=SC2086
	wait $load 2>/dev/null
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid" 2>/dev/null
		wait $runner
		rel_reap
		fail "did not end within $((15 * SLOW)) s of SIGINT in a flood"
		return 1
	fi
	wait $runner
}

# rel_flood_check OVERFLOW - after the run: its peak memory and the time it
# took to end within bounds; the buffer overflowed (OVERFLOW not empty); at
# least what the kernel dropped reported; with -d, its lines printed at the
# end. Sets lost (the events the tool reported lost) and rows (its lines)
rel_flood_check() {
	# a sanitizer build has shadow memory and a quarantine of its own, and
	# runs several times slower: the bounds are for the tools as shipped
	if [ -z "${ASAN_OPTIONS:-}" ]; then
		[ "${hwm:-0}" -gt 0 ] && [ "$hwm" -le $FLOOD_KB ] ||
			fail "peak memory ${hwm:-?} kB after ${FLOOD_S} s of flood, wanted at most $FLOOD_KB kB"
		[ $ms -le $((2000 * SLOW)) ] ||
			fail "SIGINT in a flood took $ms ms to end the run, wanted 2 s at most"
	fi
	[ "$over" -gt 0 ] || [ -z "$1" ] ||
		fail "the flood never filled the buffer (overrun 0 in ${inst:-no instance}, peak $hwm kB, stop $ms ms): nothing was tested; stderr: $(tail -c 300 "$TMP/err")"
	lost=$(sed -n 's/.*WARNING: \([0-9]*\) events lost.*/\1/p' "$TMP/err")
	[ "${lost:-0}" -ge "$over" ] ||
		fail "the kernel dropped $over events, the tool reported ${lost:-none}: $(head -c 300 "$TMP/err")"
	rows=$(grep -c . "$TMP/out")
	[ -z "$dur" ] || [ "$rows" -gt 100000 ] ||
		fail "only $rows lines printed at the end of -d in a flood: $(head -c 300 "$TMP/err")"
}

# rel_oom_run - opensnoop under a load of opens, with the third 1 MiB
# allocation refused (tests/bin/faultinj.so, its log in $TMP/flog), for up to
# 30 s; the load is then stopped. Sets pid (opensnoop, which may still run)
rel_oom_run() {
	"$WORKLOADS/fcalls" opens 1000000000 > /dev/null 2>&1 &
	load=$!
	FTT_FAULT="malloc:1048576:3" FTT_FAULT_LOG="$TMP/flog" LD_PRELOAD="$WORKLOADS/faultinj.so" \
		"$BIN/opensnoop" > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	wait_gone $pid 300
	kill $load 2>/dev/null
	wait $load 2>/dev/null
}

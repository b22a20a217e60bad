# SPDX-License-Identifier: GPL-2.0-only
# tests/live/reliability.sh - what no one tool's file can test: dead runs
# reaped, the user's own tracing left alone, tools side by side, the bad-input
# table, non-root, read-only and missing tracefs, floods
#
# Table-driven over the tools built in $BIN: a tool not built yet, or one the
# kernel cannot run (no kprobes, no function_graph), is a SKIP with the reason,
# so the tables grow by themselves as tools land. After every test the runner
# checks that tracefs is exactly as before (tests/lib.sh tracefs_snapshot).
# Each tool's exit paths are in its own file (tests/exits.sh), with the rel_
# helpers both share (rel_cmd, rel_present, rel_clean_end...). The helpers
# of these tests alone are in tests/rel-*.sh, a file per concern; the tests
# themselves (t_*) stay here, where the runner looks for them.

# the helpers (HERE, set by tests/live/run.sh, is tests/live)
. "$HERE/../rel-runs.sh"
. "$HERE/../rel-input.sh"
. "$HERE/../rel-flood.sh"

# t_journal_reaped - a run killed with SIGKILL leaves the top-level settings
# it changed noted in /run/ftt/TOOL-PID-START, with the values it wrote: the
# next run of any tool puts them back (where the file still holds such a
# value) and removes the journal; a live run's journal is left alone, and
# so is an older one (TOOL-PID) whose PID lives; a journal with a live PID but
# another start time is a dead run's
t_journal_reaped() {
	[ -x "$BIN/tpoint" ] || { skip "tpoint not built"; return 0; }
	on=$T/tracing_on
	orig=$(cat "$on") flip=$((1 - $(cat "$on")))
	rel_dead_pid
	sleep 30 &
	live=$!
	st=$(proc_start $live)
	mkdir -p -m 0700 /run/ftt || { kill $live; fail "cannot create /run/ftt"; return 1; }
	echo $flip > "$on"
	rel_journals_reaped
	rel_reaper_run
	rel_journals_reaped_check
	kill $live
	wait $live 2>/dev/null
	rm -f "/run/ftt/sleep-$live" "/run/ftt/sleep-$live-$st"
	echo "$orig" > "$on"
	return 0
}

# t_journal_refused - what the reaper does not write back: a journal that
# names a file no run journals, or puts a second line into a file of one
# value, is kept as NAME.bad and named on stderr; journals in a /run/ftt that
# is open to others (0755) or a symbolic link are not read at all
t_journal_refused() {
	[ -x "$BIN/tpoint" ] || { skip "tpoint not built"; return 0; }
	on=$T/tracing_on
	orig=$(cat "$on") flip=$((1 - $(cat "$on")))
	rel_dead_pid
	kb=$(cat "$T/buffer_size_kb")
	mkdir -p -m 0700 /run/ftt || { fail "cannot create /run/ftt"; return 1; }
	# buffer_size_kb: a file no journal may name
	printf 'buffer_size_kb\n1\n7\n' > "/run/ftt/tpoint-$dead-1"
	printf 'tracing_on\n3\n%s\n1\n' "$flip" > "/run/ftt/tpoint-$dead-2"
	rel_reaper_run
	rel_journals_bad_check
	rm -f "/run/ftt/tpoint-$dead-1.bad" "/run/ftt/tpoint-$dead-2.bad"
	# the real directory aside while /run/ftt is a bad one (the live-test lock is held)
	aside=/run/ftt.aside.$$
	mv /run/ftt "$aside" || { fail "cannot move /run/ftt aside"; return 1; }
	mkdir -m 0700 "$TMP/jdir"
	for how in mode link; do
		rel_journal_bad_dir $how
	done
	mv "$aside" /run/ftt
	echo "$orig" > "$on"
	return 0
}

# t_renamed_run_not_reaped - a run whose executable has another name (a copy,
# a wrapper, bin/static/...) is not taken for dead and reaped by the next run
t_renamed_run_not_reaped() {
	[ -x "$BIN/tpoint" ] || { skip "tpoint not built"; return 0; }
	cp "$BIN/tpoint" "$TMP/tpoint.copy"
	start_tool "$TMP/tpoint.copy" sched:sched_process_exec || { fail "did not start: $(cat "$TMP/err")"; return 1; }
	first=$TOOL_PID
	"$BIN/tpoint" -d 0.2 sched:sched_process_exec > "$TMP/out2" 2> "$TMP/err2" || fail "second run failed: $(cat "$TMP/err2")"
	run_inst tpoint $first > /dev/null || fail "the live run's instance ftt-tpoint-$first-* was reaped by another run"
	mkprog_rel "rel_ren_$$"
	"$TMP/rel_ren_$$"
	wait_for_line "$TMP/out" "rel_ren_$$" 50 || fail "the first run stopped seeing events"
	stop_tool || return 1
	[ "$TOOL_RC" = 0 ] || fail "first run: exit $TOOL_RC: $(cat "$TMP/err")"
}

# t_dead_run_pid_taken - a process that has a dead run's PID and the tool's
# name (anyone can name a process "tpoint") is not taken for the run: the
# dead run's instance (ftt-tpoint-PID-START, another start time) is reaped by
# the next run; one with the process's own start time stays
t_dead_run_pid_taken() {
	[ -x "$BIN/tpoint" ] || { skip "tpoint not built"; return 0; }
	printf '#!/bin/sh\nwhile :; do sleep 1; done\n' > "$TMP/tpoint"
	chmod +x "$TMP/tpoint"
	"$TMP/tpoint" &
	sq=$!
	n=0
	while [ "$(cat /proc/$sq/comm 2>/dev/null)" != tpoint ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
	st=$(proc_start $sq)
	dead=$T/instances/ftt-tpoint-$sq-$((st - 1))
	own=$T/instances/ftt-tpoint-$sq-$st
	mkdir "$dead" "$own" || { kill $sq; fail "cannot make the test instances"; return 1; }
	"$BIN/tpoint" -d 0.2 sched:sched_process_exec > "$TMP/out2" 2> "$TMP/err2" || fail "the run failed: $(cat "$TMP/err2")"
	[ ! -d "$dead" ] || fail "$dead (a dead run's, its PID now a process named tpoint) not reaped"
	[ -d "$own" ] || fail "$own (the live process's own start time) reaped"
	rmdir "$dead" "$own" 2>/dev/null
	kill $sq
	wait $sq 2>/dev/null
	return 0
}

# t_user_session - the user's own tracing (a top-level event with a filter
# being read from trace_pipe, an instance of their own, a kprobe where the
# kernel has them) is untouched while every tool runs and after
t_user_session() {
	tools=$(rel_present)
	[ -n "$tools" ] || { skip "no tool can run here"; return 0; }
	ev=$T/events/sched/sched_process_exec
	[ "$(cat "$ev/enable")" = 0 ] || { skip "sched_process_exec is already enabled at top level"; return 0; }
	[ "$(cat "$T/tracing_on")" = 1 ] || { skip "tracing_on is 0 at top level"; return 0; }
	rel_user_begin || return 1
	mkprog_rel "rel_user_$$"
	# shellcheck disable=SC2086
	rel_start_all $tools
	rel_wait_banners
	"$TMP/rel_user_$$"
	sleep 1.5
	rel_stop_all
	for r in $runs; do
		wait "${r#*:}" 2>/dev/null
		rel_user_tool_check "${r%:*}" $?
	done
	# the user's session still works: an exec after the tools are gone
	"$TMP/rel_user_$$"
	sleep 0.5
	rel_user_intact
	rel_user_end
	return 0
}

t_side_by_side_two() {
	set -- $(rel_pick 2)
	[ $# -eq 2 ] || { skip "not enough tools built"; return 0; }
	rel_side "$@"
}

t_side_by_side_three() {
	set -- $(rel_pick 3)
	[ $# -eq 3 ] || { skip "not enough tools built"; return 0; }
	rel_side "$@"
}

t_side_by_side_same_event() {
	[ -x "$BIN/tpoint" ] || { skip "tpoint not built"; return 0; }
	rel_side tpoint tpoint tpoint
}

# t_bad_input - the rows any kernel runs (at least 30 of them)
t_bad_input() {
	rel_bad_rows plain
	[ $rows -ge 30 ] || fail "the table has only $rows rows that need nothing"
	return 0
}

# t_bad_input_kernel - the rows that need kprobes or function_graph
t_bad_input_kernel() {
	rel_bad_rows kernel
	[ $ran -gt 0 ] || skip "no row can run here:$skipped_rows"
	return 0
}

# t_non_root - as an ordinary user each tool says it needs root (exit 1), -h
# still works (exit 0), and a usage error is still a usage error (exit 2)
t_non_root() {
	tools=$(rel_present)
	[ -n "$tools" ] || { skip "no tool can run here"; return 0; }
	d=$(mktemp -d /tmp/ftt-nobody.XXXXXX) || return 1
	chmod 755 "$d"
	for t in $tools; do
		cp "$BIN/$t" "$d/$t"
		rel_cmd "$t"
		# shellcheck disable=SC2086
		rel_as_nobody "$d/$t" $REL_LIVE > "$TMP/eout" 2> "$TMP/eerr" < /dev/null
		rc=$?
		if [ $rc = 127 ] && [ -n "$REL_WHY" ]; then
			rm -rf "$d"
			skip "$REL_WHY"
			return 0
		fi
		rel_exit1_line "$t as nobody" $rc
		grep -q 'root' "$TMP/eerr" || fail "$t as nobody: '$(cat "$TMP/eerr")' does not say it needs root"
		rel_as_nobody "$d/$t" -h > "$TMP/eout" 2> "$TMP/eerr" < /dev/null ||
			fail "$t -h as nobody: exit $?"
		grep -q '^USAGE' "$TMP/eout" || fail "$t -h as nobody: no usage on stdout"
		rel_as_nobody "$d/$t" -Z > "$TMP/eout" 2> "$TMP/eerr" < /dev/null
		rc=$?
		[ $rc = 2 ] || fail "$t -Z as nobody: exit $rc, wanted 2"
	done
	rm -rf "$d"
}

# t_tracefs_read_only - every tool on a read-only tracefs: exit 1, one line
t_tracefs_read_only() {
	rel_lib_leak && { skip "sanitizer build: libtracefs leaks when the instance mkdir is refused (normal build tests this)"; return 0; }
	tools=$(rel_present)
	[ -n "$tools" ] || { skip "no tool can run here"; return 0; }
	for t in $tools; do
		rel_cmd "$t"
		# shellcheck disable=SC2086
		rel_in_ns "for m in $REL_MOUNTS; do mount -o remount,bind,ro \"\$m\" || exit 1; done" \
			"$BIN/$t" $REL_LIVE > "$TMP/eout" 2> "$TMP/eerr" < /dev/null
		rc=$?
		[ $rc = 127 ] && [ -n "$REL_WHY" ] && { skip "$REL_WHY"; return 0; }
		[ $rc = 125 ] && { skip "cannot remount tracefs read-only in a namespace"; return 0; }
		[ $rc = 126 ] && { fail "$BIN/$t could not be executed"; return 1; }
		rel_exit1_line "$t on read-only tracefs" $rc
	done
	rel_ro_check
}

# t_tracefs_missing - no tracefs at all (and none mountable): exit 1, one line
t_tracefs_missing() {
	tools=$(rel_present)
	[ -n "$tools" ] || { skip "no tool can run here"; return 0; }
	for t in $tools; do
		rel_cmd "$t"
		# shellcheck disable=SC2086
		rel_in_ns "for m in $REL_MOUNTS; do umount -l \"\$m\" || exit 1; done; mount -t tmpfs -o ro,size=4k none /sys/kernel || exit 1" \
			"$BIN/$t" $REL_LIVE > "$TMP/eout" 2> "$TMP/eerr" < /dev/null
		rc=$?
		[ $rc = 127 ] && [ -n "$REL_WHY" ] && { skip "$REL_WHY"; return 0; }
		[ $rc = 125 ] && { skip "cannot hide tracefs in a namespace"; return 0; }
		[ $rc = 126 ] && { fail "$BIN/$t could not be executed"; return 1; }
		rel_exit1_line "$t without tracefs" $rc
		grep -q 'tracefs' "$TMP/eerr" || fail "$t without tracefs: '$(cat "$TMP/eerr")' does not name tracefs"
	done
	rel_ro_check
}

# the tools that pair records from different CPUs (a call and its return, an
# I/O's issue and completion) stamp them with a clock every CPU shares: the
# instance's trace_clock is mono while they run (the default local clock is
# per CPU, and a 6.1 guest marks its TSCs unsynchronized)
t_shared_clock() {
	for t in opensnoop execsnoop iosnoop iolatency; do
		start_tool "$BIN/$t" ||
			{ stop_tool; fail "$t did not start: $(head -c 200 "$TMP/err")"; return 1; }
		clock=$(cat "$(run_inst $t $TOOL_PID)/trace_clock" 2>&1)
		stop_tool || return 1
		case $clock in
		*"[mono]"*) ;;
		*) fail "$t: instance trace_clock '$clock', wanted [mono]"; return 1 ;;
		esac
	done
}

# t_command_end_reads_all - a command's end is not a stop signal: every event
# recorded before it is read, however long the reader takes. Here the reader
# takes 4 kB every 20 ms, so the tool is seconds behind when the command ends
# (20000 opens in well under a second), and every one of them must be shown
t_command_end_reads_all() {
	[ -x "$BIN/opensnoop" ] || { skip "no opensnoop built"; return 0; }
	[ -x "$WORKLOADS/fcalls" ] || { fail "no $WORKLOADS/fcalls (make workloads)"; return 1; }
	{
		timeout -k 10 $((120 * SLOW)) "$BIN/opensnoop" --exec "$WORKLOADS/fcalls opens 20000" \
			2> "$TMP/err"
		echo $? > "$TMP/rc"
	} | while dd bs=4096 count=1 2> /dev/null > "$TMP/chunk" && [ -s "$TMP/chunk" ]; do
		cat "$TMP/chunk"
		sleep 0.02
	done > "$TMP/out"
	[ "$(cat "$TMP/rc")" = 0 ] || { fail "exit status $(cat "$TMP/rc"): $(head -c 300 "$TMP/err")"; return 1; }
	! grep -q WARNING "$TMP/err" || fail "a warning: $(grep WARNING "$TMP/err")"
	n=$(grep -c '^fcalls ' "$TMP/out")
	[ "$n" = 20000 ] || fail "fcalls' opens shown: $n, made 20000"
}

# t_flood_* - a flood the reader cannot keep up with (rel-flood.sh rel_flood):
# opensnoop's must overflow the buffer; with -d, opensnoop keeps its output
# until the end
t_flood_opensnoop() { rel_flood opensnoop overflow; }
t_flood_execsnoop() { rel_flood execsnoop; }
t_flood_buffered_opensnoop() { rel_flood opensnoop "" -d; }
# the counting tools under the same flood, counting in user space (where the
# kernel counts, nothing is copied: no flood to test): every call a record
# (perf-stat-hist keeps up with this flood on the 6.18 host: its buffer need not overflow)
t_flood_syscount() { rel_flood_user syscount overflow; }
t_flood_perf_stat_hist() { rel_flood_user perf-stat-hist; }
# killsnoop and uprobe under floods of their own: kill(self, 0) calls (two
# records each), and the C library's access() in the static fcalls with a
# uprobe on it
t_flood_killsnoop() { rel_flood_of kills "" killsnoop; }
t_flood_uprobe() { rel_flood_of access "p:$WORKLOADS/fcalls:access" uprobe; }
rel_flood_of() {
	REL_FLOOD_LOAD=$1 REL_FLOOD_ARGS=$2
	rel_flood "$3"
	r=$?
	REL_FLOOD_LOAD= REL_FLOOD_ARGS=
	return $r
}
rel_flood_user() {
	export FTT_COUNT=user
	rel_flood "$1" "${2:-}"
	r=$?
	unset FTT_COUNT
	return $r
}

# t_oom_in_drain - an allocation refused while events are read (the third
# 1 MiB chunk of the queue records wait in, refused by tests/bin/faultinj.so)
# ends opensnoop with exit 1 and "out of memory", and that exit path still
# removes its instance and probes: the per-CPU readers' descriptors are closed
# before the instance goes (an instance with a reader open cannot be removed)
t_oom_in_drain() {
	[ -x "$BIN/opensnoop" ] || { skip "opensnoop not built"; return 0; }
	# the sanitizer's malloc is the executable's own: an injector's comes after it
	[ -z "${ASAN_OPTIONS:-}" ] ||
		{ skip "sanitizer build: LD_PRELOAD cannot refuse its allocations (the normal build tests this)"; return 0; }
	[ -f "$WORKLOADS/faultinj.so" ] && [ -x "$WORKLOADS/fcalls" ] ||
		{ fail "no $WORKLOADS/faultinj.so or fcalls (make workloads)"; return 1; }
	rel_oom_run
	if kill -0 $pid 2>/dev/null; then
		kill -INT $pid
		wait $pid
		grep -q '^loaded' "$TMP/flog" 2>/dev/null ||
			{ skip "static build: LD_PRELOAD cannot refuse its allocations"; return 0; }
		fail "still running 30 s after the start: no 1 MiB allocation was refused ($(cat "$TMP/flog"))"
		return 1
	fi
	wait $pid
	rc=$?
	grep -q '^malloc' "$TMP/flog" ||
		{ fail "it ended (exit $rc) without a refused allocation: $(tail -c 300 "$TMP/err")"; return 1; }
	[ $rc = 1 ] || fail "exit status $rc after a refused allocation, wanted 1: $(tail -c 300 "$TMP/err")"
	tail -n 1 "$TMP/err" | grep -q 'out of memory' ||
		fail "last stderr line '$(tail -n 1 "$TMP/err")', wanted the out of memory error"
	left=$(rel_leftover opensnoop $pid)
	[ -z "$left" ] || { fail "left behind: $left"; rel_reap; }
}

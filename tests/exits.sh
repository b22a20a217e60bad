# SPDX-License-Identifier: GPL-2.0-only
# tests/exits.sh - every exit path of a tool, for the tool's own test file
#
# A live test file (tests/live/TOOL.sh) that says "exit_paths TOOL" gets one
# test per path, TOOL/exit_PATH, run after its own tests (tests/live/run.sh):
#   sigint   SIGINT to the process group of "tool | cat", as Ctrl-C sends it
#   sigterm, sighup   the signal to the tool alone
#   sigpipe  "tool | head -1" while events flow
#   dur      the tool's own duration (-d, or its positional duration) expires
#   setup    a tracefs write refused in the middle of setup (LD_PRELOAD
#            tests/bin/faultinj.so; SKIP for static binaries)
#   sigkill  kill -9; the instance (and probes) stay until the next run of
#            any tool reaps them
# Each runs under a background load of execs, opens and block reads, ends
# with the checks every clean end shares (rel_clean_end), and the runner
# checks that tracefs is exactly as before. A tool the kernel cannot run (no
# kprobes, no function_graph) is a SKIP with the reason. The rel_ helpers
# are shared with tests/live/reliability.sh.
#
# In the qemu guests (tests/vm/run.sh) these tests run in one guest only
# (VM_SKIP, VM_ONCE_ONLY in the Makefile): under TCG they take about ten
# minutes a guest, and the paths do not change with the kernel version.

# the exit-path tests exit_paths defines, in the order they run
EXIT_TESTS="t_exit_sigint t_exit_sigterm t_exit_sighup t_exit_sigpipe t_exit_dur t_exit_setup t_exit_sigkill"

# exit_paths TOOL - define this file's exit-path tests, for TOOL
exit_paths() {
	EXIT_TOOL=$1
}
t_exit_sigint() { rel_sigint "$EXIT_TOOL"; }
t_exit_sigterm() { rel_signal "$EXIT_TOOL" TERM; }
t_exit_sighup() { rel_signal "$EXIT_TOOL" HUP; }
t_exit_sigpipe() { rel_sigpipe "$EXIT_TOOL"; }
t_exit_dur() { rel_dur "$EXIT_TOOL"; }
t_exit_setup() { rel_setup "$EXIT_TOOL"; }
t_exit_sigkill() { rel_sigkill "$EXIT_TOOL"; }

REL_TOOLS="tpoint execsnoop opensnoop iosnoop iolatency tcpretrans killsnoop syscount perf-stat-hist bitesize funccount funcgraph functrace funcslower funclatency cachestat kprobe uprobe"
NL='
'

# rel_present - the tools of REL_TOOLS that can run here
rel_present() {
	for t in $REL_TOOLS; do
		rel_cmd "$t" && echo "$t"
	done
	return 0
}

# rel_lib_leak - true under the sanitizer build (make check-asan). libtracefs
# 1.6.4's tracefs_instance_create leaks the path it built when the instance's
# mkdir fails, so LeakSanitizer would report the library, not the tool, on the
# paths where that mkdir is refused; those paths run in the normal build only.
rel_lib_leak() {
	case ${ASAN_OPTIONS:-} in *detect_leaks=1*) return 0 ;; esac
	return 1
}

# rel_has_tracer - is tracer $1 listed in available_tracers
rel_has_tracer() { grep -qw "$1" "$T/available_tracers" 2>/dev/null; }

# rel_cmd TOOL - set REL_LIVE (runs until stopped) and REL_DUR (ends by itself
# in about a second; empty if the tool has no duration) for TOOL; on failure
# REL_WHY says why the tool cannot run here
rel_cmd() {
	REL_WHY= REL_LIVE= REL_DUR=
	[ -x "$BIN/$1" ] || { REL_WHY="$1 not built (no $BIN/$1)"; return 1; }
	case $1 in
	tpoint) REL_LIVE="sched:sched_process_exec" REL_DUR="-d 1 sched:sched_process_exec" ;;
	execsnoop) REL_LIVE="" REL_DUR="-d 1" ;;
	opensnoop) REL_LIVE="" REL_DUR="-d 1" ;;
	iosnoop) REL_LIVE="" REL_DUR="1" ;;
	iolatency) REL_LIVE="1" REL_DUR="1 1" ;;
	tcpretrans) REL_LIVE="" REL_DUR= ;;
	killsnoop) REL_LIVE="" REL_DUR="-d 1" ;;
	syscount) REL_LIVE="" REL_DUR="-d 1" ;;
	perf-stat-hist) REL_LIVE="raw_syscalls:sys_exit ret" REL_DUR="raw_syscalls:sys_exit ret 1" ;;
	bitesize) REL_LIVE="" REL_DUR="1" ;;
	funccount)
		kernel_has kprobe_events && rel_has_tracer function ||
			{ REL_WHY="funccount needs kprobe_events and the function tracer"; return 1; }
		REL_LIVE="vfs_read" REL_DUR="-d 1 vfs_read" ;;
	cachestat)
		kernel_has kprobe_events && head -1 "$T/available_filter_functions" > /dev/null 2>&1 ||
			{ REL_WHY="cachestat needs kprobe_events, and function tracing allowed"; return 1; }
		case $(stat -f -c %T "${TMPDIR:-/var/tmp}" 2>/dev/null) in
		tmpfs|ramfs|"") REL_WHY="cachestat needs ${TMPDIR:-/var/tmp} on a disk (its proof file)"; return 1 ;;
		esac
		REL_LIVE="1" REL_DUR="1 1" ;;
	funcgraph)
		rel_has_tracer function_graph ||
			{ REL_WHY="funcgraph needs the function_graph tracer"; return 1; }
		# (-m 1 hooks the function alone: switched on and off in seconds
		# under TCG, not the quarter of a minute every function takes)
		REL_LIVE="-m 1 do_sys_openat2" REL_DUR="-m 1 -d 1 do_sys_openat2" ;;
	functrace)
		rel_has_tracer function && head -1 "$T/set_ftrace_filter" > /dev/null 2>&1 ||
			{ REL_WHY="functrace needs the function tracer, and function tracing allowed"; return 1; }
		REL_LIVE="do_sys_openat2" REL_DUR="-d 1 do_sys_openat2" ;;
	funclatency)
		rel_has_tracer function_graph ||
			{ REL_WHY="funclatency needs the function_graph tracer"; return 1; }
		REL_LIVE="do_sys_openat2" REL_DUR="-d 1 do_sys_openat2" ;;
	funcslower)
		rel_has_tracer function_graph ||
			{ REL_WHY="funcslower needs the function_graph tracer"; return 1; }
		REL_LIVE="do_sys_openat2 1" REL_DUR="-d 1 do_sys_openat2 1" ;;
	kprobe)
		kernel_has kprobe_events ||
			{ REL_WHY="kprobe needs kprobe_events (CONFIG_KPROBE_EVENTS)"; return 1; }
		REL_LIVE="p:do_sys_openat2" REL_DUR="-d 1 p:do_sys_openat2" ;;
	uprobe)
		kernel_has uprobe_events ||
			{ REL_WHY="uprobe needs uprobe_events (CONFIG_UPROBE_EVENTS)"; return 1; }
		REL_LIVE="p:$WORKLOADS/ftt_ucall:ftt_ufunc"
		REL_DUR="-d 1 p:$WORKLOADS/ftt_ucall:ftt_ufunc" ;;
	*) REL_WHY="no command line known for $1"; return 1 ;;
	esac
}

# rel_disk - a block device to read with O_DIRECT (null_blk if loaded or
# loadable in a guest, else the first real disk); empty if none
rel_disk() {
	[ -b /dev/nullb0 ] && { echo /dev/nullb0; return; }
	for d in /sys/block/*; do
		n=${d##*/}
		case $n in loop*|ram*|zram*|nullb*|sr*|fd*|md*|dm-*) continue ;; esac
		[ "$(cat "$d/size" 2>/dev/null)" -gt 0 ] 2>/dev/null && [ -b "/dev/$n" ] &&
			{ echo "/dev/$n"; return; }
	done
	# two devices, as blk_setup (tests/lib.sh) loads it; the nodes come shortly after
	[ -e /ftt ] && modprobe null_blk nr_devices=2 2>/dev/null || return 0
	n=0
	while [ $n -lt 50 ] && [ ! -b /dev/nullb0 ]; do sleep 0.1; n=$((n + 1)); done
	[ -b /dev/nullb0 ] && echo /dev/nullb0
}

# rel_load_start - background workload: execs, opens, direct block reads,
# and for tcpretrans a SYN flood; sets LOAD_PID
rel_load_start() {
	disk=$(rel_disk)
	REL_DISK=$disk sh -c '
		while :; do
			/bin/true
			cat /etc/passwd > /dev/null
			[ -n "$REL_DISK" ] && dd if="$REL_DISK" of=/dev/null bs=4096 count=1 iflag=direct 2>/dev/null
			sleep 0.1
		done' > /dev/null 2>&1 &
	LOAD_PID=$!
	LOAD_SYN=
	if [ "$1" = tcpretrans ] && [ -x "$WORKLOADS/synflood" ]; then
		"$WORKLOADS/synflood" -n 4 -t 30 > /dev/null 2>&1 &
		LOAD_SYN=$!
	fi
}

# rel_load_stop - end the workload
rel_load_stop() {
	kill $LOAD_PID $LOAD_SYN 2>/dev/null
	wait $LOAD_PID $LOAD_SYN 2>/dev/null
}

# rel_leftover TOOL PID - print what run PID of TOOL left in tracefs
rel_leftover() {
	run_inst "$1" "$2" > /dev/null && echo "instance $(run_inst "$1" "$2")"
	for f in kprobe_events uprobe_events synthetic_events dynamic_events; do
		grep -q "ftt_$1_$2_" "$T/$f" 2>/dev/null && echo "$f entries of ftt_$1_$2"
	done
	return 0
}

# rel_reap - after a test had to SIGKILL a tool: let a short run reap it, so
# the next test does not inherit the leftovers
rel_reap() {
	[ -x "$BIN/tpoint" ] && "$BIN/tpoint" -d 0.1 sched:sched_process_exec > /dev/null 2>&1
	return 0
}

# rel_clean_end TOOL PID RC - the checks every clean end shares
rel_clean_end() {
	[ "$3" = 0 ] || fail "exit status $3, wanted 0; stderr: $(head -c 300 "$TMP/err")"
	left=$(rel_leftover "$1" "$2")
	[ -z "$left" ] || fail "left behind: $left"
	# what the tool said before its banner (a notice of what the kernel
	# lacks) is its business; on the way out only counts may come: events
	# lost, ends whose start was not traced (in flight when tracing began),
	# or rows whose string was not taken at the call
	base=0
	[ -f "$TMP/err.base" ] && base=$(wc -l < "$TMP/err.base")
	if tail -n +$((base + 1)) "$TMP/err" |
		grep -Ev 'WARNING: [0-9]* events (lost|recorded before the stop were not read)|^[a-z]+: [0-9]+ [a-z]+ (returned )?without a traced (call|start|entry)|^[a-z]+: [0-9]+ (opens?|execs?) shown with \[\?\]: no (path|arguments) taken at the call$' |
		grep -q .; then
		fail "stderr after the start: $(tail -n +$((base + 1)) "$TMP/err" | head -c 300)"
	fi
	return 0
}

# rel_baseline - once the banner is in $TMP/out (or $1), keep what stderr holds
rel_baseline() {
	wait_for_line "${1:-$TMP/out}" 'Tracing|Counting' 150
	cp "$TMP/err" "$TMP/err.base" 2>/dev/null || : > "$TMP/err.base"
}

# rel_ended TOOL PID TENTHS LATE - run PID of TOOL (a child of this shell)
# ends within TENTHS tenths of a second (x SLOW), cleanly (rel_clean_end) and
# with its "Ending tracing..." line; else it is killed and reaped, and the
# test fails with LATE and what the process was doing
rel_ended() {
	if ! wait_gone $2 $3; then
		why=$(stuck_why $2)
		kill -KILL $2 2>/dev/null
		rel_load_stop
		rel_reap
		fail "$4 ($why)"
		return 1
	fi
	wait $2
	rc=$?
	rel_load_stop
	rel_clean_end "$1" $2 $rc
	grep -qx 'Ending tracing\.\.\.' "$TMP/out" || fail "no 'Ending tracing...' line"
}

# rel_signal TOOL SIG - SIG to the running tool alone ends it cleanly
rel_signal() {
	rel_cmd "$1" || { skip "$REL_WHY"; return 0; }
	rel_load_start "$1"
	# shellcheck disable=SC2086
	if ! start_tool "$BIN/$1" $REL_LIVE; then
		rel_load_stop
		kill -KILL $TOOL_PID 2>/dev/null
		fail "did not start: $(head -c 300 "$TMP/err")"
		return 1
	fi
	rel_baseline
	sleep 0.5
	kill -"$2" $TOOL_PID
	rel_ended "$1" $TOOL_PID 150 "did not end within $((15 * SLOW)) s of SIG$2"
}

# rel_sigint TOOL - Ctrl-C: SIGINT to the group of "tool | cat" (tests/bin/pgrun)
rel_sigint() {
	rel_cmd "$1" || { skip "$REL_WHY"; return 0; }
	[ -x "$WORKLOADS/pgrun" ] || { skip "no $WORKLOADS/pgrun (make workloads)"; return 0; }
	rel_load_start "$1"
	# shellcheck disable=SC2086
	"$WORKLOADS/pgrun" "$TMP" "$BIN/$1" $REL_LIVE &
	runner=$!
	if ! wait_for_line "$TMP/out" 'Tracing|Counting' 150; then
		rel_load_stop
		kill -KILL "$(cat "$TMP/pid" 2>/dev/null)" 2>/dev/null
		wait $runner
		fail "did not start: $(head -c 300 "$TMP/err" 2>/dev/null)"
		return 1
	fi
	rel_baseline
	sleep 0.5
	pid=$(cat "$TMP/pid") pgid=$(cat "$TMP/pgid")
	kill -INT -"$pgid"
	if ! wait_gone "$pid" 150; then
		why=$(stuck_why "$pid")
		kill -KILL "$pid" 2>/dev/null
		wait $runner
		rel_load_stop
		rel_reap
		fail "did not end within $((15 * SLOW)) s of SIGINT to its process group ($why)"
		return 1
	fi
	wait $runner
	rel_load_stop
	rel_clean_end "$1" "$pid" "$(cat "$TMP/rc")"
}

# rel_sigpipe TOOL - "tool | head -1" ends promptly while events flow
rel_sigpipe() {
	rel_cmd "$1" || { skip "$REL_WHY"; return 0; }
	rel_load_start "$1"
	# shellcheck disable=SC2016,SC2086
	(sh -c 'echo $$ > "$0/pid"; exec "$@" 2> "$0/err"; ' "$TMP" "$BIN/$1" $REL_LIVE
	 echo $? > "$TMP/rc") | head -1 > "$TMP/out" &
	pipe=$!
	rel_baseline
	if ! wait_gone $pipe 150; then
		kill -KILL "$(cat "$TMP/pid")" 2>/dev/null
		rel_load_stop
		rel_reap
		fail "'| head -1' did not end within 15 s"
		return 1
	fi
	wait $pipe
	rel_load_stop
	[ "$(wc -l < "$TMP/out")" -eq 1 ] || fail "head got $(wc -l < "$TMP/out") lines"
	rel_clean_end "$1" "$(cat "$TMP/pid")" "$(cat "$TMP/rc")"
}

# rel_dur TOOL - the tool's duration expires: it ends by itself, cleanly
rel_dur() {
	rel_cmd "$1" || { skip "$REL_WHY"; return 0; }
	[ -n "$REL_DUR" ] || { skip "$1 has no duration option"; return 0; }
	rel_load_start "$1"
	# shellcheck disable=SC2086
	rm -f "$TMP/out" "$TMP/err"
	"$BIN/$1" $REL_DUR > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	rel_baseline
	rel_ended "$1" $pid 300 "'$1 $REL_DUR' did not end by itself within $((30 * SLOW)) s"
}

# rel_setup TOOL - a tracefs write refused in the middle of setup: the tool
# stops with one line and exit 1 (or carries on and ends cleanly), and leaves
# nothing behind. Tries several injection points; SKIP if none was reached.
rel_setup() {
	rel_cmd "$1" || { skip "$REL_WHY"; return 0; }
	so=$WORKLOADS/faultinj.so
	[ -f "$so" ] || { skip "no $so (make workloads)"; return 0; }
	fired=0 loaded=0
	for spec in write:/enable:2 write:/enable:1 write:/filter:1 write:/trigger:1 \
		write:kprobe_events:1 write:current_tracer:1 write:buffer_size_kb:1 \
		write:set_ftrace_filter:1 mkdir:instances/:1; do
		# a refused instance mkdir: see rel_lib_leak
		[ "$spec" = mkdir:instances/:1 ] && rel_lib_leak && continue
		rel_setup_try "$1" "$spec"
	done
	if [ $loaded = 0 ]; then
		# a dynamic binary (one that names its loader) must load the injector
		grep -q 'ld-linux\|ld-musl' "$BIN/$1" &&
			{ fail "the fault injector never loaded into the dynamic $BIN/$1"; return 1; }
		skip "LD_PRELOAD has no effect on $BIN/$1 (static binary)"
		return 0
	fi
	[ $fired -gt 0 ] || skip "$1 made none of the tracefs calls the injector knows"
	return 0
}

# rel_setup_run TOOL SPEC - run TOOL with the injector ($so) refusing SPEC
# until its banner or its end, then SIGINT it if it still runs, and wait for
# it: sets pid, rc, started (1: it carried on past the refusal) and loaded
# (1: the injector loaded, in this run or an earlier one)
rel_setup_run() {
	# the previous spec's banner must not pass for this run's: the
	# shell truncates out only once the child runs, and a SIGINT sent
	# before the tool sets its handlers is ignored (a background job)
	rm -f "$TMP/faultlog" "$TMP/out" "$TMP/err"
	# shellcheck disable=SC2086
	FTT_FAULT=$2 FTT_FAULT_LOG=$TMP/faultlog LD_PRELOAD=$so \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$BIN/$1" $REL_LIVE > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	n=0
	while [ $n -lt $((150 * SLOW)) ] && kill -0 $pid 2>/dev/null &&
	      ! grep -q 'Tracing\|Counting' "$TMP/out" 2>/dev/null; do
		sleep 0.1
		n=$((n + 1))
	done
	grep -q '^loaded' "$TMP/faultlog" 2>/dev/null && loaded=1
	started=0
	if kill -0 $pid 2>/dev/null; then
		started=1
		kill -INT $pid
		# function_graph is switched off again on the way out: slow under TCG
		wait_gone $pid 300 || { why=$(stuck_why $pid); kill -KILL $pid; rel_reap
			fail "$2: did not end after SIGINT ($why)"; }
	fi
	wait $pid
	rc=$?
}

# rel_setup_try TOOL SPEC - one injection point: nothing left behind; where
# the refusal came (counted in fired), exit 1 and one line, or carried on,
# exit 0 after SIGINT and the refusal said
rel_setup_try() {
	rel_setup_run "$1" "$2"
	left=$(rel_leftover "$1" $pid)
	[ -z "$left" ] || fail "$2: left behind: $left"
	grep -q '^write \|^mkdir ' "$TMP/faultlog" 2>/dev/null || return 0
	fired=$((fired + 1))
	[ $rc -lt 128 ] || fail "$2: killed by signal $((rc - 128))"
	if [ $started = 0 ]; then
		[ $rc = 1 ] || fail "$2: exit $rc, wanted 1; stderr: $(head -c 200 "$TMP/err")"
		[ "$(wc -l < "$TMP/err")" -eq 1 ] ||
			fail "$2: $(wc -l < "$TMP/err") lines on stderr: $(head -c 300 "$TMP/err")"
		return 0
	fi
	[ $rc = 0 ] || fail "$2: carried on, then exit $rc; stderr: $(head -c 300 "$TMP/err")"
	rel_setup_said "$2"
}

# rel_setup_said SPEC - the tool carried on past SPEC's refusal: stderr says
# what was refused: the file, in one line, or (the enable in the instance
# where the capture is proven) that a better capture failed its check
rel_setup_said() {
	file=$(sed -n 's/^write //p' "$TMP/faultlog" | head -1)
	case $file in
	*-proof/*/enable)
		grep -q "a better way failed its check; -v says which" "$TMP/err" ||
			fail "$1: the capture proof's enable refused, and not said: $(head -c 400 "$TMP/err")" ;;
	*-proof/*)
		# another write of the check (its filter, its buffer): the
		# check still judges the rung by the child's own events, and
		# a rung it turns away is said as for the enable
		;;
	*/enable)
		# an enable refused while it carried on is the disable on
		# the way out: removing the instance disables it anyway
		;;
	?*)
		[ "$(grep -c "${file##*/}" "$TMP/err")" = 1 ] ||
			fail "$1: carried on without one line naming ${file##*/}: $(head -c 300 "$TMP/err")" ;;
	esac
}

# rel_sigkill TOOL - kill -9 leaves the run's instance; the next run of any
# tool (a short tpoint) reaps it
rel_sigkill() {
	rel_cmd "$1" || { skip "$REL_WHY"; return 0; }
	# shellcheck disable=SC2086
	start_tool "$BIN/$1" $REL_LIVE || { kill -KILL $TOOL_PID 2>/dev/null; fail "did not start: $(head -c 300 "$TMP/err")"; return 1; }
	kill -KILL $TOOL_PID
	wait $TOOL_PID 2>/dev/null
	run_inst "$1" $TOOL_PID > /dev/null || fail "instance ftt-$1-$TOOL_PID-* not there after SIGKILL (where did the run trace?)"
	if [ -x "$BIN/tpoint" ]; then
		"$BIN/tpoint" -d 0.2 sched:sched_process_exec > "$TMP/out2" 2> "$TMP/err2" ||
			fail "the reaping run failed: $(cat "$TMP/err2")"
		# it says so: which run, and what it removed (its instance at least)
		grep -q "^tpoint: removed what a run that ended without cleaning up ($1, PID $TOOL_PID) left: .*instance ftt-$1-$TOOL_PID-" "$TMP/err2" ||
			fail "the reaping run did not say what it removed: $(head -c 300 "$TMP/err2")"
	else
		# shellcheck disable=SC2086
		[ -n "$REL_DUR" ] && "$BIN/$1" $REL_DUR > "$TMP/out2" 2> "$TMP/err2"
	fi
	left=$(rel_leftover "$1" $TOOL_PID)
	[ -z "$left" ] || fail "not reaped by the next run: $left"
}


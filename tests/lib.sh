# tests/lib.sh - shared helpers for the live tests (POSIX sh, busybox ash and dash)
#
# A test file tests/live/<tool>.sh defines functions named t_<name>; the runner calls
# each one with a fresh tracefs snapshot and compares the state afterwards.
# Inside a test: T (tracefs dir), BIN (the suite's binaries), TMP (a private scratch dir).
# A test returns 0 to pass; it calls fail "why" / skip "why" to say otherwise.

T=${T:-/sys/kernel/tracing}

# fail - record why the current test failed (the test should then return 1)
fail() { echo "$*" >> "$TMP/.why"; return 1; }

# skip - mark the current test skipped with a reason
skip() { echo "$*" > "$TMP/.skip"; return 0; }

# tracefs_snapshot - print the tracefs state a tool must leave as it found it
tracefs_snapshot() {
	for f in current_tracer tracing_on set_event kprobe_events uprobe_events \
		dynamic_events trace_options buffer_size_kb set_ftrace_filter \
		set_ftrace_notrace set_graph_function set_ftrace_pid set_event_pid \
		max_graph_depth tracing_thresh function_profile_enabled trace_clock; do
		[ -r "$T/$f" ] || continue
		echo "== $f"
		cat "$T/$f" 2>/dev/null | grep -v '^#' | sort
	done
	echo "== instances"
	ls "$T/instances" 2>/dev/null
	echo "== filters"
	grep -v '^none' "$T"/events/*/*/filter 2>/dev/null
	echo "== triggers"
	grep -v '^#' "$T"/events/*/*/trigger 2>/dev/null
	echo "== enabled systems"
	grep -l '[1X]' "$T"/events/*/enable 2>/dev/null
}

# kernel_has - true if tracefs has the given file (a feature check)
kernel_has() { [ -e "$T/$1" ]; }

# wait_for_line - wait up to $3 tenths of a second for file $1 to match ERE $2
wait_for_line() {
	n=0
	while [ $n -lt "${3:-50}" ]; do
		grep -Eq "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# wait_gone - wait up to $2 tenths of a second for PID $1 to exit
wait_gone() {
	n=0
	while [ $n -lt "${2:-50}" ]; do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# start_tool - run a tool in the background, output in $TMP/out and $TMP/err;
# waits until it prints its "Tracing" banner (or exits). Sets TOOL_PID.
start_tool() {
	"$@" > "$TMP/out" 2> "$TMP/err" &
	TOOL_PID=$!
	n=0
	while [ $n -lt 100 ]; do
		grep -q 'Tracing\|Counting' "$TMP/out" "$TMP/err" 2>/dev/null && return 0
		kill -0 $TOOL_PID 2>/dev/null || return 1
		sleep 0.05
		n=$((n + 1))
	done
	return 1
}

# stop_tool - SIGINT the background tool and wait for it; sets TOOL_RC
stop_tool() {
	kill -INT $TOOL_PID 2>/dev/null
	if ! wait_gone $TOOL_PID 100; then
		kill -KILL $TOOL_PID 2>/dev/null
		wait $TOOL_PID 2>/dev/null
		TOOL_RC=137
		fail "tool did not end within 10 s of SIGINT"
		return 1
	fi
	wait $TOOL_PID
	TOOL_RC=$?
}

# expect_usage_error - the command must exit with status $1, print exactly one
# line on stderr matching ERE $2, and change nothing in tracefs
expect_error() {
	want=$1 re=$2
	shift 2
	"$@" > "$TMP/eout" 2> "$TMP/eerr"
	rc=$?
	[ "$rc" = "$want" ] || { fail "'$*': exit $rc, wanted $want; stderr: $(head -c 300 "$TMP/eerr")"; return 1; }
	lines=$(wc -l < "$TMP/eerr")
	[ "$lines" -eq 1 ] || { fail "'$*': $lines lines on stderr, wanted 1: $(head -c 300 "$TMP/eerr")"; return 1; }
	grep -Eq -- "$re" "$TMP/eerr" || { fail "'$*': stderr '$(cat "$TMP/eerr")' does not match /$re/"; return 1; }
}

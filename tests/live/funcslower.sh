# SPDX-License-Identifier: GPL-2.0-only
# tests/live/funcslower.sh - funcslower on sleeps of known lengths the tests
# make themselves
#
# Needs the function_graph tracer and function tracing allowed; on a kernel
# without them (this host: none, lockdown) only the refusal and the argument
# checks run. Where the kernel graphs only at the top level, the graph and
# tracing_thresh are set there: the runner's snapshot checks every setting
# came back.

# fs_able - can this kernel run the tool? (else the reason, for skip)
fs_able() { ftrace_able function_graph; }

# FS_SLEEPS - what fcalls does: five sleeps, three over the threshold the
# tests give (200 ms), two well under it
FS_SLEEPS="sleep 0.05 sleep 0.3 sleep 0.05 sleep 0.3 sleep 0.3"

# fs_run ARGS... - funcslower -d 8 ARGS while fcalls (PID in FC, stopped
# until the banner) sleeps FS_SLEEPS; a decoy (PID in DC) sleeps 0.3 s three
# times beside it
fs_run() {
	# shellcheck disable=SC2086
	fcalls_stopped $FS_SLEEPS || return 1
	traced_run "sleep 0.3 sleep 0.3 sleep 0.3" "$BIN/funcslower" -d 8 "$@" || return 1
}

# fs_pids FILE - the PID of each row of funcslower -P's text
fs_pids() {
	sed -n 's/^ *[0-9][0-9]*) *[^ |]*-\([0-9][0-9]*\) *|.*/\1/p' "$1"
}

# fs_slow PID - the return lines of task PID in $TMP/out whose duration is
# 300 to 400 ms, as the kernel prints them with -P. The task is told by its
# PID: the name beside it is the kernel's text, which can be "<...>" or the
# name from before an exec
fs_slow() {
	grep -Ec "^ +[0-9]+\) +[^ ]+-$1 +\| @ 3[0-9]{5}\.[0-9] us +\|  \} /\* do_nanosleep( ret=[-x0-9a-f]+)? \*/\$" "$TMP/out"
}

t_refusal() {
	if fs_able > /dev/null; then
		skip "kernel allows function graphs; refusal not applicable"
		return 0
	fi
	expect_error 1 '^funcslower: this kernel (does not allow function graph tracing|refuses function tracing)' \
		"$BIN/funcslower" -d 1 vfs_read 100
}

# t_slow - the three 300 ms sleeps of fcalls, and of the decoy, each once,
# as the kernel prints a return whose entry it did not record; the 50 ms
# ones not at all, and no task-switch banner (-P names the task)
t_slow() {
	why=$(fs_able) || { skip "$why"; return 0; }
	fs_run -P do_nanosleep 200000 || return 1
	head -1 "$TMP/out" | grep -qx 'Tracing "do_nanosleep" slower than 200000 us for 8 seconds...' ||
		fail "banner: $(head -1 "$TMP/out")"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
	n=$(fs_slow "$FC")
	[ "$n" -eq 3 ] || fail "fcalls: $n slow sleeps shown, made 3 (and 2 fast ones): $(grep -- "-$FC " "$TMP/out" | head -5)"
	n=$(fs_slow "$DC")
	[ "$n" -eq 3 ] || fail "the other process: $n slow sleeps shown, made 3: $(grep -- "-$DC " "$TMP/out" | head -5)"
	n=$(grep -Ec -- "-$FC +\|" "$TMP/out")
	[ "$n" -eq 3 ] || fail "fcalls: $n lines, 3 slow sleeps made (the fast ones are not shown): $(grep -- "-$FC " "$TMP/out" | head -5)"
	! grep -Eq '^ -----|=>' "$TMP/out" || fail "-P: a task-switch banner: $(grep -E '^ -----|=>' "$TMP/out" | head -2)"
	[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
}

# t_on_cpu - -C: the same sleeps spend no time on the CPU, so none is slow
t_on_cpu() {
	why=$(fs_able) || { skip "$why"; return 0; }
	fs_run -C -P do_nanosleep 200000 || return 1
	n=$(grep -c "fcalls-" "$TMP/out")
	[ "$n" -eq 0 ] || fail "-C: $n sleeps shown, none is 200 ms on-CPU: $(grep fcalls- "$TMP/out" | head -3)"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
}

# t_pid - -p: fcalls's three slow sleeps, none of the decoy's
t_pid() {
	why=$(fs_able) || { skip "$why"; return 0; }
	# the PID is the workload's, which exists before the run: the shell stopped
	# shellcheck disable=SC2086
	fcalls_stopped $FS_SLEEPS || return 1
	traced_run "sleep 0.3 sleep 0.3" "$BIN/funcslower" -P -d 8 -p $FC do_nanosleep 200000 || return 1
	head -1 "$TMP/out" | grep -qx "Tracing \"do_nanosleep\" for PID $FC slower than 200000 us for 8 seconds..." ||
		fail "banner: $(head -1 "$TMP/out")"
	n=$(fs_slow "$FC")
	[ "$n" -eq 3 ] || fail "-p: $n slow sleeps of PID $FC, made 3: $(head -5 "$TMP/out")"
	! grep -q -- "-$DC " "$TMP/out" || fail "-p: a sleep of another process: $(grep -- "-$DC " "$TMP/out" | head -2)"
}

# t_json - -j: one exit object per slow sleep, with its duration; no entries
t_json() {
	why=$(fs_able) || { skip "$why"; return 0; }
	fs_run -j do_nanosleep 200000 || return 1
	json_check "$TMP/out" || return 1
	n=$(jq -c --argjson p "$FC" 'select(.pid == $p and .tool == "funcslower" and .type == "exit"
		and .func == "do_nanosleep" and .duration_ns >= 300000000 and .duration_ns < 400000000)' \
		"$TMP/out" | wc -l)
	[ "$n" -eq 3 ] || fail "-j: $n slow sleeps of fcalls, made 3: $(grep "\"pid\":$FC" "$TMP/out" | head -3)"
	n=$(jq -c 'select(.type != "exit" or .duration_ns < 200000000)' "$TMP/out" | wc -l)
	[ "$n" -eq 0 ] || fail "-j: $n objects that are not a slow return: $(jq -c 'select(.type != "exit" or .duration_ns < 200000000)' "$TMP/out" | head -2)"
}

# t_thresh_taken - a tracing_thresh someone else set is left alone, and the
# run refused in one line (funcgraph too: its graph would lose the fast calls)
t_thresh_taken() {
	why=$(fs_able) || { skip "$why"; return 0; }
	[ "$(cat "$T/tracing_thresh")" = 0 ] || { fail "tracing_thresh is not 0 before the test"; return 1; }
	echo 5 > "$T/tracing_thresh" || { fail "cannot set tracing_thresh"; return 1; }
	expect_error 1 'tracing_thresh is 5 us, set by another user' "$BIN/funcslower" -d 1 vfs_read 100
	expect_error 1 'tracing_thresh is 5 us, set by another user' "$BIN/funcgraph" -d 1 vfs_read
	[ "$(cat "$T/tracing_thresh")" = 5 ] || fail "tracing_thresh changed: $(cat "$T/tracing_thresh")"
	echo 0 > "$T/tracing_thresh"
}

# t_headers - -H: the tracer's own header first
t_headers() {
	why=$(fs_able) || { skip "$why"; return 0; }
	"$BIN/funcslower" -H -d 0.5 do_nanosleep 200000 > "$TMP/out" 2> "$TMP/err" ||
		{ fail "exit $?: $(cat "$TMP/err")"; return 1; }
	sed -n 2p "$TMP/out" | grep -qx '# tracer: function_graph' || fail "-H: $(sed -n 2,4p "$TMP/out")"
	grep -q '^#.*DURATION.*FUNCTION CALLS' "$TMP/out" || fail "-H: no column names: $(head -6 "$TMP/out")"
}

t_bad_input() {
	expect_error 2 'missing funcstring and latency_us' "$BIN/funcslower" || return 1
	expect_error 2 'missing funcstring and latency_us' "$BIN/funcslower" vfs_read || return 1
	expect_error 2 'latency_us: 0 is out of range' "$BIN/funcslower" vfs_read 0 || return 1
	expect_error 2 'latency_us' "$BIN/funcslower" vfs_read 1.5 || return 1
	expect_error 2 'latency_us' "$BIN/funcslower" vfs_read 10ms || return 1
	expect_error 2 'too many arguments' "$BIN/funcslower" vfs_read 10 extra || return 1
	expect_error 2 'either -p or -L' "$BIN/funcslower" -p 1 -L 1 vfs_read 10 || return 1
	expect_error 2 'unknown option -T' "$BIN/funcslower" -T vfs_read 10 || return 1
	fs_able > /dev/null || return 0
	expect_error 1 'no traceable kernel function matches "ftt_no_such_fn"' \
		"$BIN/funcslower" -d 1 ftt_no_such_fn 10
}

t_exec_cmd() {
	why=$(fs_able) || { skip "$why"; return 0; }
	# the task column is the kernel's text, which can still name a task as
	# it was before its exec: the rows are told apart by PID
	EXEC_PIDS=1 exec_run "$WORKLOADS/fcalls" "sleep 0.3" "$BIN/funcslower" -P do_nanosleep 200000 || return 1
	exec_rows_pid fs_pids 1
}

# every exit path (tests/exits.sh)
exit_paths funcslower

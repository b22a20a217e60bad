# SPDX-License-Identifier: GPL-2.0-only
# tests/live/perf-stat-hist.sh - perf-stat-hist against calls whose return values are known
#
# Workload: tests/bin/fcalls, copied under a name of the test's own, waiting
# on a FIFO ($TMP/go) until the test opens it; then one read of the FIFO
# (0: end of file), reads of /dev/zero of known sizes, each returning its
# size, and faccessat() calls failing with ENOENT (-2) and ENOTDIR (-20).
# Every run is filtered on the workload's PID (-f), so each bucket's count is
# known exactly. Each test counts the way perf-stat-hist chooses here (in the
# kernel where it has hist triggers); the *_user tests run the same checks
# with FTT_COUNT=user where the kernel counts by default.

PS_R1=40 PS_R2=25 PS_R3=7 PS_F1=9 PS_F2=4

# ps_hist - the kernel has hist triggers (its tracing README documents them)
ps_hist() { grep -q 'hist:keys=' "$T/README" 2>/dev/null; }

# ps_user - skip unless the kernel counts by default (then FTT_COUNT=user is another way)
ps_user() {
	ps_hist && return 0
	skip "no hist triggers in this kernel: every other test counts in user space already"
	return 1
}

# ps_run ARGS... - perf-stat-hist ARGS (with -f on the workload) while the
# workload acts, stopped by SIGINT; output in $TMP/out, $TMP/err
ps_run() {
	if [ -n "${PS_COUNT:-}" ]; then export FTT_COUNT="$PS_COUNT"; else unset FTT_COUNT; fi
	start_tool "$BIN/perf-stat-hist" -f "common_pid == $W" "$@"
	rc=$?
	unset FTT_COUNT
	[ $rc = 0 ] || { stop_tool_rc; fail "did not start: $(head -c 300 "$TMP/err")"; return 1; }
	fcalls_go
	stop_tool || return 1
	ps_path_said
}

# ps_path_said - stderr says "counting in user space" (once) exactly when it did
ps_path_said() {
	n=$(grep -c 'counting in user space' "$TMP/err")
	if [ "${PS_COUNT:-}" = user ] || ! ps_hist; then
		[ "$n" = 1 ] || fail "stderr does not say once that it counts in user space: $(head -c 300 "$TMP/err")"
	else
		[ "$n" = 0 ] || fail "counted in user space on a kernel with hist triggers: $(head -c 300 "$TMP/err")"
	fi
}

# ps_rows - the table's rows as "LO..HI=COUNT" on one line (LO, HI empty at the open ends)
ps_rows() {
	sed -n 's/^ *\([-0-9.]*\) -> \([-0-9.]*\) *: \([0-9]*\) *|.*|$/\1..\2=\3/p' "$TMP/out" | tr '\n' ' '
}

# ps_check WANT - the rows are exactly WANT, the largest count has the full bar
ps_check() {
	got=$(ps_rows)
	[ "$got" = "$1" ] || { fail "rows: got '$got', wanted '$1'"; return 1; }
	grep -q '|######################################|$' "$TMP/out" || fail "no full bar: $(cat "$TMP/out")"
	grep -qx '            Range          : Count    Distribution' "$TMP/out" ||
		fail "header: $(sed -n 3p "$TMP/out")"
}

# t_power - the default power-of-4 buckets: the reads' returns, each exact
t_power() { ps_power; }
t_power_user() { ps_user || return 0; PS_COUNT=user; ps_power; r=$?; PS_COUNT=; return $r; }
ps_power() {
	fcalls_start "psh$$" reads $PS_R1 1 reads $PS_R2 4096 reads $PS_R3 100 || return 1
	ps_run syscalls:sys_exit_read ret || return 1
	[ "$(head -n 1 "$TMP/out")" = "Tracing syscalls:sys_exit_read (Filter: common_pid == $W), power-of-4, max 1048576, until Ctrl-C..." ] ||
		fail "banner: $(head -n 1 "$TMP/out")"
	ps_check "..-1=0 0..0=1 1..3=$PS_R1 4..15=0 16..63=0 64..255=$PS_R3 256..1023=0 1024..4095=0 4096..16383=$PS_R2 16384..65535=0 65536..262143=0 262144..1048575=0 1048576..=0 "
}

# t_power2 - -P 2 -m 4096: power-of-2 buckets up to 4096
t_power2() {
	fcalls_start "psh$$" reads $PS_R1 1 reads $PS_R2 4096 reads $PS_R3 100 || return 1
	ps_run -P 2 -m 4096 syscalls:sys_exit_read ret || return 1
	grep -q ', power-of-2, max 4096, until Ctrl-C\.\.\.$' "$TMP/out" || fail "banner: $(head -n 1 "$TMP/out")"
	ps_check "..-1=0 0..0=1 1..1=$PS_R1 2..3=0 4..7=0 8..15=0 16..31=0 32..63=0 64..127=$PS_R3 128..255=0 256..511=0 512..1023=0 1024..2047=0 2048..4095=0 4096..=$PS_R2 "
}

# t_given - -b with negative points: faccessat's errors, a signed long field
t_given() { ps_given; }
t_given_user() { ps_user || return 0; PS_COUNT=user; ps_given; r=$?; PS_COUNT=; return $r; }
ps_given() {
	fcalls_start "psh$$" fail $PS_F1 notdir $PS_F2 || return 1
	ps_run -b "-19 -1 0" syscalls:sys_exit_faccessat ret || return 1
	grep -q ', specified buckets, until Ctrl-C\.\.\.$' "$TMP/out" || fail "banner: $(head -n 1 "$TMP/out")"
	ps_check "..-20=$PS_F2 -19..-2=$PS_F1 -1..-1=0 0..=0 "
}

# t_json - -j: one object, the buckets with their bounds and exact counts
t_json() {
	fcalls_start "psh$$" reads $PS_R1 1 reads $PS_R2 4096 || return 1
	ps_run -j -b "1 4096" syscalls:sys_exit_read ret || return 1
	[ "$(grep -c . "$TMP/out")" = 1 ] || { fail "not one line: $(head -c 300 "$TMP/out")"; return 1; }
	json_check "$TMP/out" || return 1
	grep -qF "\"tracepoint\":\"syscalls:sys_exit_read\",\"variable\":\"ret\",\"buckets\":[{\"min\":null,\"max\":0,\"count\":1},{\"min\":1,\"max\":4095,\"count\":$PS_R1},{\"min\":4096,\"max\":null,\"count\":$PS_R2}]}" "$TMP/out" ||
		fail "buckets: $(cat "$TMP/out")"
	grep -q '^Tracing syscalls:sys_exit_read' "$TMP/err" || fail "no banner on stderr: $(head -c 300 "$TMP/err")"
}

# t_duration - the seconds operand ends the run by itself, with the table
t_duration() {
	timeout -k 5 $((30 * SLOW)) "$BIN/perf-stat-hist" raw_syscalls:sys_exit ret 1 > "$TMP/out" 2> "$TMP/err" ||
		{ fail "exit $?: $(head -c 300 "$TMP/err")"; return 1; }
	[ "$(head -n 1 "$TMP/out")" = "Tracing raw_syscalls:sys_exit, power-of-4, max 1048576, for 1 seconds..." ] ||
		fail "banner: $(head -n 1 "$TMP/out")"
	[ "$(ps_rows | wc -w)" = 13 ] || fail "rows: $(ps_rows)"
}

# t_kernel_path - where the kernel counts: a hist trigger, paused with the
# run's filter, and the event not enabled (nothing copied)
t_kernel_path() {
	ps_hist || { skip "no hist triggers in this kernel"; return 0; }
	start_tool "$BIN/perf-stat-hist" -f 'ret > 0' syscalls:sys_exit_read ret ||
		{ stop_tool_rc; fail "did not start: $(head -c 300 "$TMP/err")"; return 1; }
	I=$(run_inst perf-stat-hist "$TOOL_PID")
	grep -q '^hist:keys=ret:vals=hitcount.*if (ret > 0) && common_pid != ' "$I/events/syscalls/sys_exit_read/trigger" 2>/dev/null ||
		fail "trigger: $(cat "$I/events/syscalls/sys_exit_read/trigger" 2>&1)"
	[ "$(cat "$I/events/syscalls/sys_exit_read/enable")" != 1 ] || fail "the event is enabled: copied"
	stop_tool
}

# t_kernel_refused - FTT_COUNT=kernel where the kernel cannot: one line, exit 1
t_kernel_refused() {
	ps_hist && { skip "this kernel has hist triggers"; return 0; }
	expect_error 1 '^perf-stat-hist: FTT_COUNT=kernel: no hist triggers' env FTT_COUNT=kernel \
		"$BIN/perf-stat-hist" syscalls:sys_exit_read ret 1
}

t_bad_input() {
	expect_error 2 "missing variable" "$BIN/perf-stat-hist" syscalls:sys_exit_read || return 1
	expect_error 2 "missing tracepoint and variable" "$BIN/perf-stat-hist" || return 1
	expect_error 2 "tracepoint syscalls:no_such_event not found" "$BIN/perf-stat-hist" syscalls:no_such_event ret || return 1
	expect_error 2 "not SYSTEM:EVENT" "$BIN/perf-stat-hist" sys_exit_read ret || return 1
	expect_error 2 "has no field 'nosuch'" "$BIN/perf-stat-hist" syscalls:sys_exit_read nosuch || return 1
	expect_error 2 "field 'parent_comm' of sched:sched_process_fork is not a number" "$BIN/perf-stat-hist" sched:sched_process_fork parent_comm || return 1
	expect_error 2 "filter 'nosuch == 1' refused for syscalls:sys_exit_read" "$BIN/perf-stat-hist" -f 'nosuch == 1' syscalls:sys_exit_read ret 1 || return 1
	expect_error 2 "control character" "$BIN/perf-stat-hist" -f "ret == 1$NL" syscalls:sys_exit_read ret 1 || return 1
	expect_error 2 "unbalanced|refused" "$BIN/perf-stat-hist" -f 'ret == 1) || (1' syscalls:sys_exit_read ret 1 || return 1
	expect_error 2 "bucket list must increase" "$BIN/perf-stat-hist" -b "10 5" syscalls:sys_exit_read ret 1 || return 1
	expect_error 2 "not a list of integers" "$BIN/perf-stat-hist" -b "1 x" syscalls:sys_exit_read ret 1 || return 1
	expect_error 2 "-P: .*out of range" "$BIN/perf-stat-hist" -P 1 syscalls:sys_exit_read ret 1 || return 1
	expect_error 2 "either -b or -P" "$BIN/perf-stat-hist" -b 1 -P 2 syscalls:sys_exit_read ret 1 || return 1
	expect_error 2 "seconds: .*not a number" "$BIN/perf-stat-hist" syscalls:sys_exit_read ret x || return 1
	expect_error 2 "FTT_COUNT must be user or kernel" env FTT_COUNT=both "$BIN/perf-stat-hist" syscalls:sys_exit_read ret 1 || return 1
}

exit_paths perf-stat-hist

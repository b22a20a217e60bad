# SPDX-License-Identifier: GPL-2.0-only
# tests/live/funccount.sh - funccount against calls the tests make themselves
#
# Needs kprobes (or the function profiler) and a readable function list; on a
# kernel without them (this host: no kprobes, lockdown) only the refusal runs.

# fc_able - can this kernel count functions? (else the reason, for skip)
fc_able() { kcount_able; }

# fc_start - start funccount in the background and wait (long: probes are
# slow to set up under emulation) for its banner (on stderr with -j)
fc_start() {
	rm -f "$TMP/out" "$TMP/err"	# no earlier banner (start_tool)
	"$@" > "$TMP/out" 2> "$TMP/err" &
	TOOL_PID=$!
	n=0
	while [ $n -lt 600 ]; do
		grep -q '^Tracing' "$TMP/out" "$TMP/err" 2>/dev/null && return 0
		kill -0 $TOOL_PID 2>/dev/null || return 1
		sleep 0.1
		n=$((n + 1))
	done
	kill -INT $TOOL_PID 2>/dev/null
	return 1
}

# fc_count FUNC - the COUNT printed for FUNC (empty if absent)
fc_count() { awk -v f="$1" '$1 == f { print $2 }' "$TMP/out"; }

t_refusal() {
	if why=$(fc_able); then
		skip "kernel allows counting; refusal not applicable"
		return 0
	fi
	expect_error 1 '^funccount: this kernel does not allow counting functions: ' \
		"$BIN/funccount" -d 1 'vfs_read'
}

t_exact_count() {
	why=$(fc_able) || { skip "$why"; return 0; }
	# do_faccessat: access(2) and faccessat(2), which little else calls
	fc_start "$BIN/funccount" -d 4 do_faccessat ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" access 1234
	wait_gone $TOOL_PID 300 || { kill -KILL $TOOL_PID; fail "-d 4 did not end"; return 1; }
	wait $TOOL_PID || fail "exit status $?"
	n=$(fc_count do_faccessat)
	[ -n "$n" ] && [ "$n" -ge 1234 ] || fail "counted '${n}' calls, made 1234: $(cat "$TMP/out")"
	[ "$n" -lt 1400 ] || fail "counted $n calls, made 1234 (and little else calls access)"
	head -1 "$TMP/out" | grep -qx 'Tracing "do_faccessat" for 4 seconds...' ||
		fail "banner: $(head -1 "$TMP/out")"
	grep -Eq '^FUNC +COUNT$' "$TMP/out" || fail "no FUNC COUNT header"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
	! grep -v 'took' "$TMP/err" | grep -q . || fail "stderr: $(cat "$TMP/err")"
}

t_glob_sorted_top() {
	why=$(fc_able) || { skip "$why"; return 0; }
	# a glob with several matches (do_sys_open, do_sys_openat2) and a name
	fc_start "$BIN/funccount" -d 5 'do_sys_open* do_faccessat' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" opens 700 access 300
	wait_gone $TOOL_PID 300 || { kill -KILL $TOOL_PID; fail "-d 5 did not end"; return 1; }
	wait $TOOL_PID || fail "exit status $?"
	a=$(fc_count do_sys_openat2) b=$(fc_count do_faccessat)
	# the upper bounds leave room for what else opens and calls access(2)
	# meanwhile, and fail a count taken twice
	[ -n "$a" ] && [ "$a" -ge 700 ] && [ "$a" -lt 1300 ] ||
		fail "do_sys_openat2 counted '$a', made 700: $(cat "$TMP/out")"
	[ -n "$b" ] && [ "$b" -ge 300 ] && [ "$b" -lt 550 ] ||
		fail "do_faccessat counted '$b', made 300: $(cat "$TMP/out")"
	[ "$(awk '/^FUNC/ { on = 1; next } on && NF == 2 && $2 ~ /^[0-9]+$/' "$TMP/out" | wc -l)" -ge 2 ] ||
		fail "fewer than 2 functions: $(cat "$TMP/out")"
	# ascending by count: do_faccessat (300+) before do_sys_openat2 (700+)
	awk '/^FUNC/ { on = 1; next } on && NF == 2 && $2 ~ /^[0-9]+$/ { if ($2 + 0 < last) bad = 1; last = $2 + 0 }
		END { exit bad }' "$TMP/out" || fail "not sorted by count: $(cat "$TMP/out")"
	grep -n -E '^(do_faccessat|do_sys_openat2) ' "$TMP/out" | head -1 | grep -q do_faccessat ||
		fail "order: $(cat "$TMP/out")"
	# -t 1 keeps only the largest
	fc_start "$BIN/funccount" -t 1 -d 4 'do_sys_openat2 do_faccessat' ||
		{ fail "-t 1 did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" opens 900 access 100
	wait_gone $TOOL_PID 300 || { kill -KILL $TOOL_PID; fail "-t 1 -d 4 did not end"; return 1; }
	wait $TOOL_PID || fail "-t 1: exit status $?: $(cat "$TMP/err")"
	head -1 "$TMP/out" | grep -qx 'Tracing "do_sys_openat2 do_faccessat" for 4 seconds. Top 1 only...' ||
		fail "banner: $(head -1 "$TMP/out")"
	[ "$(awk '/^FUNC/ { on = 1; next } on && NF == 2 && $2 ~ /^[0-9]+$/' "$TMP/out" | wc -l)" -eq 1 ] ||
		fail "-t 1 printed: $(cat "$TMP/out")"
	a=$(fc_count do_sys_openat2)
	[ -n "$a" ] && [ "$a" -ge 900 ] && [ "$a" -lt 1500 ] ||
		fail "-t 1: do_sys_openat2 counted '$a', made 900: $(cat "$TMP/out")"
}

t_interval_sigint() {
	why=$(fc_able) || { skip "$why"; return 0; }
	fc_start "$BIN/funccount" -T -i 1 do_faccessat ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	# two bursts in different intervals: each interval counts its own calls,
	# so the sum is what was made (and what else called access meanwhile); a
	# running total, or a count taken twice, sums to 1300 or more
	"$WORKLOADS/fcalls" access 500
	wait_for_line "$TMP/out" '^FUNC' 30
	sleep 1.2
	"$WORKLOADS/fcalls" access 300
	sleep 2.5
	stop_tool || return 1
	[ "$(grep -c '^FUNC' "$TMP/out")" -ge 3 ] || fail "fewer than 3 interval summaries: $(cat "$TMP/out")"
	grep -Eq '^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} ' "$TMP/out" || fail "-T: no date line"
	tot=$(awk '$1 == "do_faccessat" { s += $2 } END { print s + 0 }' "$TMP/out")
	[ "$tot" -ge 800 ] && [ "$tot" -lt 1100 ] || fail "intervals sum to $tot, made 800: $(cat "$TMP/out")"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
}

t_no_match() {
	why=$(fc_able) || { skip "$why"; return 0; }
	expect_error 1 'no traceable kernel function matches' "$BIN/funccount" -d 1 'ftt_no_such_fn_*'
}

t_bad_input() {
	expect_error 2 'missing funcstring' "$BIN/funccount" || return 1
	expect_error 2 "'!' not allowed" "$BIN/funccount" '!vfs_read' || return 1
	expect_error 2 'control character' "$BIN/funccount" "$(printf 'vfs_read\nx')" || return 1
	expect_error 2 '^funccount: -t: ' "$BIN/funccount" -t 0 vfs_read || return 1
	expect_error 2 '^funccount: -i: ' "$BIN/funccount" -i x vfs_read
}

# t_profiler_in_use - a function profiler someone else turned on is left
# alone: one line, exit 1, and it is still on, for the same function
t_profiler_in_use() {
	why=$(fc_able) || { skip "$why"; return 0; }
	kernel_has function_profile_enabled || { skip "no function profiler: funccount counts in an instance"; return 0; }
	echo vfs_write > "$T/set_ftrace_filter" && echo 1 > "$T/function_profile_enabled" ||
		{ echo 0 > "$T/function_profile_enabled"; echo > "$T/set_ftrace_filter"; fail "cannot turn the profiler on"; return 1; }
	expect_error 1 '^funccount: the function profiler is on already \(function_profile_enabled=1\): ' \
		"$BIN/funccount" -d 1 vfs_read
	on=$(cat "$T/function_profile_enabled") filt=$(cat "$T/set_ftrace_filter")
	echo 0 > "$T/function_profile_enabled"
	echo > "$T/set_ftrace_filter"
	[ "$on" = 1 ] && [ "$filt" = vfs_write ] || fail "the user's profiler was changed: enabled $on, filter '$filt'"
}

# t_json - -j: one object at the end, whose count of do_faccessat is the
# calls the workload made (as t_exact_count), sorted as the text, in time
t_json() {
	why=$(fc_able) || { skip "$why"; return 0; }
	t0=$(date +%s)
	fc_start "$BIN/funccount" -j -d 4 'do_faccessat do_sys_openat2' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	grep -qx 'Tracing "do_faccessat do_sys_openat2" for 4 seconds...' "$TMP/err" ||
		fail "-j: banner not on stderr: $(head -c 300 "$TMP/err")"
	"$WORKLOADS/fcalls" access 1234 opens 2345
	wait_gone $TOOL_PID 300 || { kill -KILL $TOOL_PID; fail "-j -d 4 did not end"; return 1; }
	wait $TOOL_PID || fail "exit status $?"
	t1=$(date +%s)
	json_check "$TMP/out" || return 1
	[ "$(wc -l < "$TMP/out")" = 1 ] || { fail "-j -d: $(wc -l < "$TMP/out") objects, wanted 1"; return 1; }
	jq -e --arg host "$(uname -n)" '.tool == "funccount" and .host == $host and
		(.counts | type) == "array" and all(.counts[]; (.func | type) == "string" and
		(.count | type) == "number" and .count > 0)' "$TMP/out" > /dev/null ||
		{ fail "-j: wrong members: $(cat "$TMP/out")"; return 1; }
	n=$(jq '[.counts[] | select(.func == "do_faccessat") | .count] | if length == 1 then .[0] else empty end' "$TMP/out")
	[ -n "$n" ] && [ "$n" -ge 1234 ] && [ "$n" -lt 1400 ] ||
		fail "-j: do_faccessat counted '$n', made 1234: $(cat "$TMP/out")"
	n=$(jq '[.counts[] | select(.func == "do_sys_openat2") | .count] | if length == 1 then .[0] else empty end' "$TMP/out")
	[ -n "$n" ] && [ "$n" -ge 2345 ] && [ "$n" -lt 3000 ] ||
		fail "-j: do_sys_openat2 counted '$n', made 2345: $(cat "$TMP/out")"
	# least called first, as the text
	jq -e '.counts | map(.func) == ["do_faccessat", "do_sys_openat2"]' "$TMP/out" > /dev/null ||
		fail "-j: order: $(cat "$TMP/out")"
	json_time_ok "$(jq -r .time "$TMP/out")" "$t0" "$t1"
	grep -q '^Ending tracing' "$TMP/err" || fail "-j: no 'Ending tracing...' on stderr"
	! grep -q 'Tracing\|Ending\|FUNC' "$TMP/out" || fail "-j: text on stdout"
}

# t_json_head - -j -i 1 | head -n 1: one whole object, and funccount ends (0)
t_json_head() {
	why=$(fc_able) || { skip "$why"; return 0; }
	json_head_run 60 "$BIN/funccount" -j -i 1 do_faccessat
	json_head_ok '.tool == "funccount" and (.counts | type) == "array"'
}

# fc_profiler - does this kernel count with the function profiler? (else why)
fc_profiler() {
	why=$(fc_able) || { echo "$why"; return 1; }
	kernel_has function_profile_enabled || { echo "no function profiler (CONFIG_FUNCTION_PROFILER)"; return 1; }
}

# t_profiler_two_globs - two globs in one argument, counted with the
# profiler: each function's calls, none left out
t_profiler_two_globs() {
	why=$(fc_profiler) || { skip "$why"; return 0; }
	fc_start "$BIN/funccount" -d 4 'do_sys_openat* do_faccessat' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" opens 700 access 300
	wait_gone $TOOL_PID 300 || { kill -KILL $TOOL_PID; fail "-d 4 did not end"; return 1; }
	wait $TOOL_PID || fail "exit status $?: $(cat "$TMP/err")"
	a=$(fc_count do_sys_openat2) b=$(fc_count do_faccessat)
	[ -n "$a" ] && [ "$a" -ge 700 ] && [ "$a" -lt 1300 ] ||
		fail "do_sys_openat2 counted '$a', made 700: $(cat "$TMP/out")"
	[ -n "$b" ] && [ "$b" -ge 300 ] && [ "$b" -lt 550 ] ||
		fail "do_faccessat counted '$b', made 300: $(cat "$TMP/out")"
}

# t_profiler_long_names - the profiler cuts names to 30 bytes:
# __x64_sys_sched_rr_get_interval (31 bytes) is counted under its full name
# where it is the one traced function with its cut, else (a kernel with
# __x64_sys_sched_rr_get_interval_time32) together with the functions that
# share it, as the cut followed by '*'; __x64_sys_sched_get_priority_max and
# _min share theirs, and their calls are counted together that way (nothing
# else calls any of them)
t_profiler_long_names() {
	why=$(fc_profiler) || { skip "$why"; return 0; }
	grep -qx '__x64_sys_sched_rr_get_interval' "$T/available_filter_functions" ||
		{ skip "no __x64_sys_sched_rr_get_interval (not x86-64?)"; return 0; }
	fc_start "$BIN/funccount" -d 4 '__x64_sys_sched_[gr]*' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" prio 321 rrint 123
	wait_gone $TOOL_PID 300 || { kill -KILL $TOOL_PID; fail "-d 4 did not end"; return 1; }
	wait $TOOL_PID || fail "exit status $?: $(cat "$TMP/err")"
	rr=__x64_sys_sched_rr_get_interval
	cut=$(printf %.30s "$rr")
	[ "$(sed 's/ .*//' "$T/available_filter_functions" | grep "^$cut" | sort -u | wc -l)" = 1 ] ||
		rr="$cut*"
	a=$(fc_count "$rr") b=$(fc_count '__x64_sys_sched_get_priority_m*')
	[ "$a" = 123 ] || fail "$rr counted '$a', made 123: $(cat "$TMP/out")"
	[ "$b" = 321 ] || fail "__x64_sys_sched_get_priority_m* counted '$b', made 321: $(cat "$TMP/out")"
}

# t_own_reads - funccount's reads of the counts are not counted: it switches
# counting off (one write) before it reads them. seq_read_iter runs for every
# read of a seq file, the counts files (kprobe_profile, trace_stat) among
# them; in the guest nothing else reads one while the test waits, and the
# test reads /proc/self/stat 5 times itself, one read() each (dd count=1):
# exactly 5 calls (before the switches: 10 with the profiler, 7 with kprobes)
t_own_reads() {
	why=$(fc_able) || { skip "$why"; return 0; }
	grep -qx seq_read_iter "$T/available_filter_functions" ||
		{ skip "seq_read_iter is not a traceable function on this kernel"; return 0; }
	fc_start "$BIN/funccount" -d 4 seq_read_iter ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	for i in 1 2 3 4 5; do
		dd if=/proc/self/stat of=/dev/null bs=4096 count=1 2> /dev/null
	done
	wait_gone $TOOL_PID 300 || { kill -KILL $TOOL_PID; fail "-d 4 did not end"; return 1; }
	wait $TOOL_PID || fail "exit status $?: $(cat "$TMP/err")"
	n=$(fc_count seq_read_iter)
	[ "$n" = 5 ] || fail "seq_read_iter counted '$n', the test's reads made 5: $(cat "$TMP/out")"
}

# every exit path (tests/exits.sh)
exit_paths funccount

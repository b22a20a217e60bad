# SPDX-License-Identifier: GPL-2.0-only
# tests/live/functrace.sh - functrace on calls the tests make themselves
#
# Needs the function tracer and function tracing allowed; on a kernel without
# them (this host: lockdown) only the refusal and the argument checks run.

# ft_able - can this kernel run the tool? (else the reason, for skip)
ft_able() { ftrace_able function; }

# ft_rows FILE - the thread ID of each do_sys_openat2 call in functrace's text
ft_rows() {
	sed -n 's/^.*-\([0-9][0-9]*\) *\[[0-9]*\] .* do_sys_openat2 <-.*$/\1/p' "$1"
}

# ft_run ARGS... - functrace -d 4 ARGS while fcalls (PID in FC) makes 20 opens
ft_run() {
	fcalls_stopped opens 20 || return 1
	traced_run "" "$BIN/functrace" -d 4 "$@" || return 1
}

# ft_callers - the functions that call do_sys_openat2 for openat(2) on the
# kernels of the test bed (5.10 calls it from do_sys_open, later ones from
# the system call's own entry)
FT_CALLERS='(do_sys_open|__x64_sys_openat|__do_sys_openat|__se_sys_openat|__arm64_sys_openat)'

t_refusal() {
	if ft_able > /dev/null; then
		skip "kernel allows function tracing; refusal not applicable"
		return 0
	fi
	expect_error 1 '^functrace: this kernel (does not allow function tracing|refuses function tracing)' \
		"$BIN/functrace" -d 1 vfs_read
}

# t_calls - every one of fcalls' 20 opens once, under its task's name, with
# the caller, as the kernel's own text line; the banner and the end as
# perf-tools prints them
t_calls() {
	why=$(ft_able) || { skip "$why"; return 0; }
	ft_run do_sys_openat2 || return 1
	head -1 "$TMP/out" | grep -qx 'Tracing "do_sys_openat2" for 4 seconds...' ||
		fail "banner: $(head -1 "$TMP/out")"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
	n=$(grep -Ec "^ +fcalls-$FC +\[[0-9]{3}\] [.a-zA-Z0-9]{4,5} +[0-9]+\.[0-9]{6}: do_sys_openat2 <-$FT_CALLERS\$" "$TMP/out")
	[ "$n" -eq 20 ] || fail "fcalls (PID $FC): $n calls shown as the kernel shows them, made 20: $(grep -- "-$FC " "$TMP/out" | head -3)"
	# nothing but do_sys_openat2 (the filter holds it alone)
	! grep -E '^ +.*-[0-9]+ +\[' "$TMP/out" | grep -v ': do_sys_openat2 <-' | grep -q . ||
		fail "a line of another function: $(grep -E '^ +.*-[0-9]+ +\[' "$TMP/out" | grep -v ': do_sys_openat2 <-' | head -2)"
	[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
}

# t_cgroup - --cgroup, relative to the cgroup2 mount (cg_scene: a member
# and its child, a leaver, a joiner, a busy outsider, each opening a file
# under its role's name): exactly the do_sys_openat2 calls of the member,
# its child, the leaver before it left and the joiner after it joined
t_cgroup() {
	why=$(ft_able) || { skip "$why"; return 0; }
	cg_scene_start || return $?
	cg_scene_trace start_tool "Tracing \"do_sys_openat2\" in cgroup $CG_REL... Ctrl-C to end." \
		"^ *cg_joiner_in-" "$BIN/functrace" --cgroup "$CG_REL" do_sys_openat2 || return 1
	cg_scene_check "$(cg_task_comms)"
	expect_error 2 'use either -p or --cgroup' "$BIN/functrace" -p 1 --cgroup / vfs_read
}

# t_two_globs - a quoted list of two patterns traces the functions of both
t_two_globs() {
	why=$(ft_able) || { skip "$why"; return 0; }
	fcalls_stopped opens 5 access 7 || return 1
	traced_run "" "$BIN/functrace" -d 4 'do_sys_openat2 do_faccessat' || return 1
	a=$(grep -c -- "-$FC .*: do_sys_openat2 <-" "$TMP/out")
	b=$(grep -c -- "-$FC .*: do_faccessat <-" "$TMP/out")
	[ "$a:$b" = 5:7 ] || fail "opens:accesses $a:$b, made 5:7: $(grep -- "-$FC " "$TMP/out" | head -4)"
}

# t_pid_threads - -p: each of 1000 threads, the threads started after
# functrace was, a child and its thread: every open once, under its own
# task, none of a process that does the same at the same time
t_pid_threads() {
	why=$(ft_able) || { skip "$why"; return 0; }
	thr_start 1000 20 || return 1
	start_tool "$BIN/functrace" -p $THR_PID do_sys_openat2 || {
		kill -KILL $THR_PID $DEC_PID; wait $THR_PID $DEC_PID
		stop_tool; fail "did not start: $(cat "$TMP/err")"; return 1; }
	thr_trace ft_rows || return 1
	n=$(wc -l < "$TMP/got")
	[ "$n" -eq $THR_N ] || fail "functrace -p: $n calls, $THR_N made"
	thr_compare "$TMP/got" "$TMP/thr.tids" "functrace -p"
}

# t_json - -j: one object per call, with the task, the function and its caller
t_json() {
	why=$(ft_able) || { skip "$why"; return 0; }
	fcalls_stopped opens 20 || return 1
	traced_run "" "$BIN/functrace" -j -d 4 do_sys_openat2 || return 1
	json_check "$TMP/out" || return 1
	grep -qx 'Tracing "do_sys_openat2" for 4 seconds...' "$TMP/err" ||
		fail "-j: banner not on stderr: $(head -c 300 "$TMP/err")"
	n=$(jq -c --argjson p "$FC" --arg c "^$FT_CALLERS\$" 'select(.pid == $p and .tool == "functrace"
		and .comm == "fcalls" and .func == "do_sys_openat2" and (.caller | test($c))
		and (.time | type) == "string" and (.cpu | type) == "number")' "$TMP/out" | wc -l)
	[ "$n" -eq 20 ] || fail "-j: $n objects of fcalls' opens, made 20: $(grep "\"pid\":$FC" "$TMP/out" | head -2)"
}

# t_headers - -H: the kernel's column legend, byte for byte
t_headers() {
	why=$(ft_able) || { skip "$why"; return 0; }
	"$BIN/functrace" -H -d 0.2 do_sys_openat2 > "$TMP/out" 2>&1 || { fail "exit $?: $(cat "$TMP/out")"; return 1; }
	grep -qx '# tracer: function (instance, do_sys_openat2)' "$TMP/out" || fail "no tracer line: $(sed -n 2p "$TMP/out")"
	legend_same
}

t_bad_input() {
	expect_error 2 'missing funcstring' "$BIN/functrace" || return 1
	expect_error 2 'unknown option -z' "$BIN/functrace" -z vfs_read || return 1
	expect_error 2 'either -p or -L' "$BIN/functrace" -p 1 -L 1 vfs_read || return 1
	expect_error 2 "-d: 'abc' is not a number" "$BIN/functrace" -d abc vfs_read || return 1
	expect_error 2 'too many arguments' "$BIN/functrace" vfs_read extra || return 1
	ft_able > /dev/null || return 0
	expect_error 1 'no traceable kernel function matches "ftt_no_such_fn\*"' \
		"$BIN/functrace" -d 1 'ftt_no_such_fn*' || return 1
	expect_error 1 'no traceable kernel function matches "ftt_no_such_fn" of "vfs_read ftt_no_such_fn"' \
		"$BIN/functrace" -d 1 'vfs_read ftt_no_such_fn'
}

t_exec_cmd() {
	why=$(ft_able) || { skip "$why"; return 0; }
	: > "$TMP/xe_file"
	exec_run "$WORKLOADS/ftt_open" "$TMP/xe_file" "$BIN/functrace" do_sys_openat2 || return 1
	exec_rows '' +
}

# every exit path (tests/exits.sh)
exit_paths functrace

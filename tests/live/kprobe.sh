# SPDX-License-Identifier: GPL-2.0-only
# tests/live/kprobe.sh - kprobe against opens and calls the tests make themselves
#
# Needs kprobe_events; on a kernel without it (this host) only the refusal
# and the argument checks (which come first) run.

# kp_able - does the kernel have kprobes? (else the reason, for skip)
kp_able() {
	kernel_has kprobe_events && return 0
	echo "kernel has no kprobes: no kprobe_events (refusal tested in t_refusal)"
	return 1
}

# kp_start - start kprobe in the background, wait for its banner (on stderr
# with -j)
kp_start() {
	rm -f "$TMP/out" "$TMP/err"	# no earlier banner (start_tool)
	"$@" > "$TMP/out" 2> "$TMP/err" &
	TOOL_PID=$!
	case " $* " in
	*" -j "*) banner=err ;;
	*) banner=out ;;
	esac
	wait_for_line "$TMP/$banner" '^Tracing' 300 && return 0
	kill -INT $TOOL_PID 2>/dev/null
	return 1
}

t_refusal() {
	if kp_able > /dev/null; then
		skip "kernel has kprobes; refusal not applicable"
		return 0
	fi
	expect_error 1 '^kprobe: this kernel does not allow kprobes: ' \
		"$BIN/kprobe" p:do_sys_openat2
}

t_string_filter() {
	why=$(kp_able) || { skip "$why"; return 0; }
	: > "$TMP/kp_keep_$$"
	: > "$TMP/kp_drop_$$"
	kp_start "$BIN/kprobe" 'p:do_sys_openat2 file=+0(%si):ustring' 'file ~ "*kp_keep_*"' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" open "$TMP/kp_drop_$$" open "$TMP/kp_keep_$$" > /dev/null
	wait_for_line "$TMP/out" "kp_keep_$$" 100 || fail "open of kp_keep not seen"
	stop_tool || return 1
	[ "$TOOL_RC" = 0 ] || fail "exit status $TOOL_RC after SIGINT"
	! grep -q "kp_drop_$$" "$TMP/out" || fail "filtered open printed"
	head -1 "$TMP/out" | grep -qx 'Tracing kprobe do_sys_openat2. Ctrl-C to end.' ||
		fail "banner: $(head -1 "$TMP/out")"
	grep "kp_keep_$$" "$TMP/out" | grep -Eq "^ *fcalls-[0-9]+ +\[[0-9]{3}\] .* [0-9]+\.[0-9]{6}: do_sys_openat2: \(do_sys_openat2\) file=\"$TMP/kp_keep_$$\"\$" ||
		fail "line: $(grep kp_keep "$TMP/out")"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
	[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
}

t_retval_named() {
	why=$(kp_able) || { skip "$why"; return 0; }
	: > "$TMP/kp_ret_$$"
	# r16: a maxactive, which libtracefs 1.6.4 alone would write as "r16::"
	"$BIN/kprobe" -d 4 'r16:kpret do_sys_openat2 rv=$retval' 'comm == "fcalls"' > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	wait_for_line "$TMP/out" '^Tracing' 300 || { kill $pid; fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" open "$TMP/kp_ret_$$" open "$TMP/kp_missing_$$" > "$TMP/fc"
	wait_gone $pid 300 || { kill -KILL $pid; fail "-d 4 did not end by itself"; return 1; }
	wait $pid || fail "exit status $?"
	head -1 "$TMP/out" | grep -qx 'Tracing kprobe kpret for 4 seconds (buffered)...' ||
		fail "banner: $(head -1 "$TMP/out")"
	fd=$(awk '{ print $2 }' "$TMP/fc" | head -1)
	# s64 on 6.x prints decimal, x64 on 5.10/6.1 hex
	grep -Eq "fcalls-[0-9]+ .* kpret: \(.* <- do_sys_openat2\) rv=(${fd}|0x${fd})\$" "$TMP/out" ||
		fail "return value $fd not seen: $(cat "$TMP/out")"
	grep -Eq "kpret: .* rv=(-2|0xfffffffffffffffe)\$" "$TMP/out" || fail "ENOENT return not seen"
	[ "$(grep -c 'kpret: ' "$TMP/out")" -ge 2 ] || fail "return lines: $(cat "$TMP/out")"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
}

# kp_rows FILE - "TID PATH" for each do_sys_openat2 hit in kprobe's output
kp_rows() {
	sed -n 's#^ *.*-\([0-9][0-9]*\) *\[[0-9][0-9]*\] .*: do_sys_openat2: ([^)]*) file="\(.*\)"$#\1 \2#p' "$1"
}

# t_pid_threads - -p: each of 1000 threads, the threads started after kprobe
# was, a child and its thread: every open seen, with its path; none of a
# process that does the same at the same time
t_pid_threads() {
	why=$(kp_able) || { skip "$why"; return 0; }
	thr_start 1000 20 || return 1
	kp_start "$BIN/kprobe" -p $THR_PID 'p:do_sys_openat2 file=+0(%si):ustring' || {
		kill -KILL $THR_PID $DEC_PID; wait $THR_PID $DEC_PID
		fail "did not start: $(cat "$TMP/err")"; return 1; }
	thr_trace kp_rows || return 1
	while read -r t; do echo "$t $TMP/thr/t$t"; done < "$TMP/thr.tids" > "$TMP/want"
	thr_compare "$TMP/got" "$TMP/want" "kprobe -p"
	grep -q "$TMP/dec/" "$TMP/out" && fail "the other process's opens shown"
	[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
}

t_argn() {
	why=$(kp_able) || { skip "$why"; return 0; }
	grep -q 'arg<N>' "$T/README" || { skip "kernel has no \$argN (README)"; return 0; }
	: > "$TMP/kp_arg_$$"
	kp_start "$BIN/kprobe" 'p:kparg do_sys_openat2 f=+0($arg2):ustring' 'f ~ "*kp_arg_*"' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" open "$TMP/kp_arg_$$" > /dev/null &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "f=\"$TMP/kp_arg_$$\"" 100 || fail "\$arg2 string not seen: $(cat "$TMP/out" "$TMP/err")"
	stop_tool || return 1
	# the one open, in full: its PID, the probe and the string fetched from $arg2
	[ "$(grep -Ec "^ *fcalls-$h +\[[0-9]{3}\] .* [0-9]+\.[0-9]{6}: kparg: \(do_sys_openat2\) f=\"$TMP/kp_arg_$$\"\$" "$TMP/out")" = 1 ] ||
		fail "wanted one line of PID $h with f=\"$TMP/kp_arg_$$\": $(grep -F "kp_arg_$$" "$TMP/out")"
}

t_view() {
	why=$(kp_able) || { skip "$why"; return 0; }
	"$BIN/kprobe" -v 'p:kpview do_sys_openat2 fd=%di:s32' > "$TMP/out" 2> "$TMP/err" || fail "-v: exit $?: $(cat "$TMP/err")"
	grep -q '^name: kpview$' "$TMP/out" || fail "-v: no format: $(cat "$TMP/out")"
	grep -q 'field:s32 fd;' "$TMP/out" || fail "-v: no fd field"
}

# t_kernel_error_user_log - a probe the kernel refuses is logged in the
# top-level error_log, which is the user's: kprobe gives that refusal's reason,
# and the entry the user had there (one the test makes with a bad filter of
# its own) stays
t_kernel_error_user_log() {
	why=$(kp_able) || { skip "$why"; return 0; }
	log=$T/error_log
	[ -f "$log" ] || { skip "no error_log in this kernel"; return 0; }
	before=$(cat "$log")
	ev=$T/events/sched/sched_process_exec/filter
	echo "ftt_user_mark_$$ == 1" > "$ev" 2> /dev/null
	echo 0 > "$ev"
	grep -q "ftt_user_mark_$$" "$log" || { skip "a refused filter is not logged in error_log here"; return 0; }
	expect_error 2 "^kprobe: kernel refused kprobe 'p:do_sys_openat2 x=%nosuchreg': .+" \
		"$BIN/kprobe" 'p:do_sys_openat2 x=%nosuchreg'
	! grep -qi 'field not found' "$TMP/eerr" || fail "the user's entry given as the reason: $(cat "$TMP/eerr")"
	grep -q "ftt_user_mark_$$" "$log" || fail "the user's error_log entry is gone: '$(cat "$log")'"
	[ -n "$before" ] || echo > "$log"
	return 0
}

t_kernel_error() {
	why=$(kp_able) || { skip "$why"; return 0; }
	# a bad fetcharg: one line with the kernel's own reason (error_log)
	# a fetcharg the kernel cannot parse: a usage error (2)
	expect_error 2 "^kprobe: kernel refused kprobe 'p:do_sys_openat2 x=%nosuchreg': .+" \
		"$BIN/kprobe" 'p:do_sys_openat2 x=%nosuchreg' || return 1
	expect_error 1 'not in available_filter_functions' "$BIN/kprobe" 'p:ftt_no_such_function'
}

t_sigkill_reaped() {
	why=$(kp_able) || { skip "$why"; return 0; }
	kp_start "$BIN/kprobe" p:do_sys_openat2 || { fail "did not start: $(cat "$TMP/err")"; return 1; }
	grep -q "ftt_kprobe_${TOOL_PID}_[0-9]*/do_sys_openat2" "$T/kprobe_events" || fail "probe not in our group"
	kill -KILL $TOOL_PID
	wait $TOOL_PID 2>/dev/null
	# the next run removes what the killed one left
	"$BIN/kprobe" -v p:vfs_read > /dev/null 2>&1
	! grep -q "ftt_kprobe_${TOOL_PID}_" "$T/kprobe_events" || fail "probe of killed run not reaped"
}

# t_cgroup - --cgroup, relative to the cgroup2 mount (cg_scene: a member
# and its child, a leaver, a joiner, a busy outsider, each opening a file
# under its role's name): exactly the do_sys_openat2 calls of the member,
# its child, the leaver before it left and the joiner after it joined
t_cgroup() {
	why=$(kp_able) || { skip "$why"; return 0; }
	cg_scene_start || return $?
	cg_scene_trace kp_start "Tracing kprobe do_sys_openat2 in cgroup $CG_REL. Ctrl-C to end." \
		"^ *cg_joiner_in-" "$BIN/kprobe" --cgroup "$CG_REL" p:do_sys_openat2 || return 1
	cg_scene_check "$(cg_task_comms)"
}

t_bad_input() {
	expect_error 2 'should start with p: or r:' "$BIN/kprobe" 'x:vfs_read' || return 1
	expect_error 2 'control character' "$BIN/kprobe" "$(printf 'p:vfs_read\n-:kprobes/x')" || return 1
	expect_error 2 'is not a name' "$BIN/kprobe" 'p:../x vfs_read' || return 1
	expect_error 2 'is not a name' "$BIN/kprobe" 'p:a/b/c vfs_read' || return 1
	expect_error 2 'not a kernel function' "$BIN/kprobe" 'p:ok vfs;read' || return 1
	expect_error 2 'either -d or -v' "$BIN/kprobe" -v -d 1 p:vfs_read || return 1
	expect_error 2 'missing kprobe definition' "$BIN/kprobe"
}

# -s: each event is followed by the kernel stack that reached the probe
t_stacks() {
	why=$(kp_able) || { skip "$why"; return 0; }
	: > "$TMP/kp_stk_$$"
	kp_start "$BIN/kprobe" -s 'p:do_sys_openat2 file=+0(%si):ustring' 'file ~ "*kp_stk_*"' ||
		{ fail "-s did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" open "$TMP/kp_stk_$$" > /dev/null
	wait_for_line "$TMP/out" "=> .*sys_openat" 100 || fail "-s: no stack with sys_openat: $(cat "$TMP/out")"
	stop_tool
}

# t_hostile - a process name (the link it was run by) and a string argument
# with terminal controls, a newline and a byte that is not UTF-8 are shown
# escaped, never raw
t_hostile() {
	why=$(kp_able) || { skip "$why"; return 0; }
	ln -s "$WORKLOADS/fcalls" "$TMP/$HOSTILE" || { fail "cannot make the link"; return 1; }
	f="$TMP/kp_ho_$$$(printf '\033]0;t\007\nq')"
	: > "$f"
	kp_start "$BIN/kprobe" 'p:do_sys_openat2 file=+0(%si):ustring' 'file ~ "*kp_ho_*"' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$TMP/$HOSTILE" open "$f" > /dev/null & h=$!
	wait $h
	wait_for_line "$TMP/out" "kp_ho_$$" 100 || fail "open of kp_ho not seen"
	stop_tool || return 1
	hre=$(printf '%s' "$HOSTILE_VIS" | sed 's/[][\\.*^$]/\\&/g')
	grep -Eqx " *$hre-$h +\\[[0-9]{3}\\] .* [0-9]+\\.[0-9]{6}: do_sys_openat2: \\(do_sys_openat2\\) file=\"$TMP/kp_ho_$$\\\\x1b\\]0;t\\\\x07\\\\x0aq\"" "$TMP/out" ||
		fail "no escaped line: $(grep "kp_ho_" "$TMP/out")"
	vis_clean "$TMP/out" || fail "raw control or non-ASCII bytes in the output: $(LC_ALL=C grep -n '[^ -~]' "$TMP/out" | od -c | head -5)"
}

# t_json - -j: each hit one JSON object, the probe's string argument by its
# name: two opens by one fcalls of the test, a plain path and one holding a
# hostile string (ESC, a newline, a C1 CSI, a byte that is not UTF-8: it
# decodes to exactly those bytes, the last as the text \xff)
t_json() {
	why=$(kp_able) || { skip "$why"; return 0; }
	: > "$TMP/kpj_$$"
	kp_start "$BIN/kprobe" -j 'p:do_sys_openat2 f=+0(%si):ustring' 'f ~ "*kpj_*"' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	t0=$(date +%s)
	"$WORKLOADS/fcalls" open "$TMP/kpj_$$" open "$TMP/kpj_${$}_$HOSTILE" > /dev/null &
	h=$!
	wait $h
	t1=$(date +%s)
	wait_for_lines "$TMP/out" "\"pid\":$h," 2
	stop_tool || return 1
	json_check "$TMP/out" || return 1
	! grep -q '^Tracing\|^Ending' "$TMP/out" || fail "-j: banner or ending on stdout"
	jq -c --arg f "$TMP/kpj_$$" --arg host "$(uname -n)" "select(.tool == \"kprobe\" and
		.host == \$host and .event == \"do_sys_openat2\" and .pid == $h and
		.comm == \"fcalls\" and .func == \"do_sys_openat2\" and .fields == {f: \$f} and
		(.timestamp | type) == \"number\")" "$TMP/out" > "$TMP/row"
	[ "$(wc -l < "$TMP/row")" = 1 ] ||
		{ fail "-j: $(wc -l < "$TMP/row") objects for the open of $TMP/kpj_$$ by PID $h; got: $(cat "$TMP/out")"; return 1; }
	json_time_ok "$(jq -r .time "$TMP/row")" "$t0" "$t1"
	[ "$(grep -c "\"pid\":$h," "$TMP/out")" = 2 ] || fail "-j: not 2 objects of PID $h: $(cat "$TMP/out")"
	jq -j "select(.pid == $h and .fields.f != \"$TMP/kpj_$$\") | .fields.f" "$TMP/out" > "$TMP/got"
	printf '%s/kpj_%s_a\033[1A\nb\302\233c\\xff' "$TMP" $$ > "$TMP/want"
	cmp -s "$TMP/got" "$TMP/want" ||
		fail "-j: the hostile path decodes to '$(od -c "$TMP/got" | head -3)', want '$(od -c "$TMP/want" | head -3)'"
}

# t_json_ret - -j on a return probe: the function, where it returned to, and
# the return value as a number: the fd fcalls got, and -2 (ENOENT; a number
# above 2^63 where the kernel's $retval is unsigned)
t_json_ret() {
	why=$(kp_able) || { skip "$why"; return 0; }
	: > "$TMP/kpjr_$$"
	kp_start "$BIN/kprobe" -j 'r:kpjret do_sys_openat2 rv=$retval' 'comm == "fcalls"' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" open "$TMP/kpjr_$$" open "$TMP/kpjr_missing_$$" > "$TMP/fc" &
	h=$!
	wait $h
	wait_for_lines "$TMP/out" "\"pid\":$h," 2
	stop_tool || return 1
	json_check "$TMP/out" || return 1
	fd=$(awk '{ print $2 }' "$TMP/fc" | head -1)
	[ -n "$fd" ] && [ "$fd" -ge 0 ] || { fail "fcalls could not open $TMP/kpjr_$$: $(cat "$TMP/fc")"; return 1; }
	for rv in "$fd" '(-2, 18446744073709551614)'; do
		n=$(jq -c "select(.event == \"kpjret\" and .pid == $h and .func == \"do_sys_openat2\" and
			(.ret_ip | type) == \"string\" and .fields == {rv: .fields.rv} and
			(.fields.rv == ($rv)))" "$TMP/out" | wc -l)
		[ "$n" = 1 ] || fail "-j: $n objects with rv $rv, not 1: $(cat "$TMP/out")"
	done
}

# t_json_head - -j | head -n 1: one whole object, and kprobe ends (0)
t_json_head() {
	why=$(kp_able) || { skip "$why"; return 0; }
	( while [ ! -e "$TMP/stop" ]; do "$WORKLOADS/fcalls" open /dev/null > /dev/null; sleep 0.05; done ) &
	loop=$!
	json_head_run 60 "$BIN/kprobe" -j 'p:do_sys_openat2 f=+0(%si):ustring'
	touch "$TMP/stop"
	wait $loop
	json_head_ok '.tool == "kprobe" and .event == "do_sys_openat2" and (.pid | type) == "number" and
		((.fields.f | type) == "string" or .fields.f == null)'
}

# t_json_stacks - -j -s: each hit's kernel stack an object of its own, of the
# same task, its frames an array of symbols, the probed function's callers
# (an open system call) among them
t_json_stacks() {
	why=$(kp_able) || { skip "$why"; return 0; }
	kp_start "$BIN/kprobe" -j -s p:do_sys_openat2 'comm == "fcalls"' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" open /dev/null > /dev/null &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "\"pid\":$h,.*\"event\":\"ftrace:kernel_stack\"" 100
	stop_tool || return 1
	json_check "$TMP/out" || return 1
	n=$(jq -c "select(.pid == $h and .event == \"do_sys_openat2\")" "$TMP/out" | wc -l)
	[ "$n" -ge 1 ] || fail "-j -s: no hit of PID $h: $(cat "$TMP/out")"
	n=$(jq -c "select(.pid == $h and .event == \"ftrace:kernel_stack\" and
		(.stack | length) > 1 and all(.stack[]; type == \"string\") and
		any(.stack[]; test(\"openat\")))" "$TMP/out" | wc -l)
	[ "$n" -ge 1 ] || fail "-j -s: no kernel_stack object of PID $h with an openat caller: $(grep -a "\"pid\":$h," "$TMP/out" | head -3)"
}

# t_exec_cmd - --exec: the opens of the command's program and of a process its
# shell left behind, shown; none of a process outside it; the run ends by
# itself
t_exec_cmd() {
	why=$(kp_able) || { skip "$why"; return 0; }
	: > "$TMP/xe_file"
	exec_run "$WORKLOADS/ftt_open" "$TMP/xe_file" "$BIN/kprobe" p:do_sys_openat2 || return 1
	exec_rows "" +
}

# every exit path (tests/exits.sh)
exit_paths kprobe

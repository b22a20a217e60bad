# SPDX-License-Identifier: GPL-2.0-only
# tests/live/reset-ftrace.sh - reset-ftrace against state the tests make themselves
#
# Each test makes what it checks: a run of another tool killed with SIGKILL,
# a user's instance, a live run, an enabled top-level event, perf-tools'
# lock file; and puts back what it changed. The test with a tracer and a
# kprobe set by hand needs kprobe_events and the function tracer (the qemu
# guests, not this host). Other live tests may run beside these: their runs
# are live runs of the suite, and must be left alone too.

RF_LOCK=/var/tmp/.ftrace-lock
# a guest's initramfs has no /var/tmp: perf-tools would make its lock there
[ -d /var/tmp ] || mkdir -p /var/tmp

# rf_run ARGS... - run reset-ftrace; stdout in $TMP/out, stderr in $TMP/err, RC
rf_run() {
	"$BIN/reset-ftrace" "$@" > "$TMP/out" 2> "$TMP/err"
	RC=$?
}

# rf_has LINE - $TMP/out holds the line LINE exactly
rf_has() {
	grep -qxF -- "$1" "$TMP/out" || fail "no line '$1' in: $(head -c 600 "$TMP/out")"
}

# rf_top_clean - the top level holds nothing -f would change but what the
# test set (run before a -f): else the reason, for skip. Lines of a setting
# named in $1 (a file name) are the test's own.
rf_top_clean() {
	rf_run
	other=$(grep -E '^active   (setting|lock) ' "$TMP/out" | grep -vE "^active   (setting ${1:-/}:|${1:-/} )" |
		grep -vE "^active   setting (kprobe_events|uprobe_events|dynamic_events|synthetic_events|set_event_pid|set_ftrace_notrace|set_graph_notrace|set_event_notrace_pid|set_ftrace_notrace_pid|max_graph_depth|function_profile_enabled):" |
		grep -v '(.* PID [0-9]*, running; a live run')
	[ -z "$other" ] && return 0
	echo "the top level holds someone's settings that -f would reset: $(echo "$other" | head -2)"
	return 1
}

t_dead_run() {
	start_tool "$BIN/opensnoop" || { fail "opensnoop did not start: $(head -c 300 "$TMP/err")"; return 1; }
	p=$TOOL_PID
	st=$(proc_start $p)
	inst=$(run_inst opensnoop $p) || { fail "no instance of opensnoop $p"; kill -INT $p; wait $p; return 1; }
	grp=$(cat "$T/dynamic_events" 2>/dev/null | grep -o "ftt_opensnoop_${p}_$st" | head -1)
	insts=$(ls "$T/instances" | grep -E "^ftt-opensnoop-$p-$st(-|\$)")
	kill -KILL $p
	wait $p 2>/dev/null
	[ -d "$inst" ] || { fail "another run reaped ${inst##*/} before reset-ftrace ran (run again)"; return 1; }
	rf_run
	[ $RC = 0 ] || fail "exit $RC: $(cat "$TMP/err")"
	[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
	for d in $insts; do
		rf_has "removed  instance $d (opensnoop PID $p, not running)"
		[ ! -d "$T/instances/$d" ] || fail "$d is still there"
	done
	[ "$(grep -c "^removed  instance .*(opensnoop PID $p," "$TMP/out")" = "$(echo "$insts" | wc -w)" ] ||
		fail "instances removed: $(grep "^removed  instance" "$TMP/out"), want $insts"
	if [ -n "$grp" ]; then
		rf_has "removed  probes $grp (opensnoop PID $p, not running)"
		! grep -q "$grp" "$T/dynamic_events" || fail "probes of $grp are still there"
	fi
	# nothing of it is listed as active afterwards
	! grep -q "^active .*opensnoop PID $p" "$TMP/out" || fail "listed as active: $(grep "opensnoop PID $p" "$TMP/out")"
}

t_user_instance() {
	u=rfuser$$
	mkdir "$T/instances/$u" || { fail "cannot make instance $u"; return 1; }
	echo 1 > "$T/instances/$u/events/sched/sched_process_exec/enable"
	rf_run
	[ $RC = 0 ] || fail "exit $RC: $(cat "$TMP/err")"
	rf_has "active   instance $u: set_event=sched:sched_process_exec (not this suite's; left alone)"
	if why=$(rf_top_clean); then
		rf_run -f
		[ $RC = 0 ] || fail "-f: exit $RC: $(cat "$TMP/err")"
		rf_has "active   instance $u: set_event=sched:sched_process_exec (not this suite's; left alone)"
	else
		echo "-f not run: $why" > "$TMP/.info"
	fi
	[ -d "$T/instances/$u" ] || { fail "the user's instance was removed"; return 1; }
	[ "$(cat "$T/instances/$u/set_event")" = "sched:sched_process_exec" ] ||
		fail "the user's instance was changed: set_event '$(cat "$T/instances/$u/set_event")'"
	[ "$(cat "$T/instances/$u/tracing_on")" = 1 ] || fail "the user's instance was changed: tracing_on 0"
	echo 0 > "$T/instances/$u/events/sched/sched_process_exec/enable"
	rmdir "$T/instances/$u"
}

t_live_run() {
	start_tool "$BIN/tpoint" sched:sched_process_exec || { fail "tpoint did not start: $(head -c 300 "$TMP/err")"; return 1; }
	p=$TOOL_PID
	inst=$(run_inst tpoint $p) || { fail "no instance of tpoint $p"; stop_tool; return 1; }
	out=$TMP/out.tp
	mv "$TMP/out" "$out"	# tpoint writes on to it
	ev=$(cat "$inst/set_event")
	for f in "" -f; do
		if [ "$f" = -f ] && ! why=$(rf_top_clean); then
			echo "-f not run: $why" > "$TMP/.info"
			continue
		fi
		rf_run $f
		[ $RC = 0 ] || fail "reset-ftrace $f: exit $RC: $(cat "$TMP/err")"
		rf_has "active   instance ${inst##*/} (tpoint PID $p, running; a live run; left alone)"
		[ -d "$inst" ] || fail "reset-ftrace $f removed the live run's instance"
		kill -0 $p 2>/dev/null || fail "tpoint $p ended"
		[ "$(cat "$inst/set_event")" = "$ev" ] || fail "the live run's events changed: $(cat "$inst/set_event" | tr '\n' ' ')"
	done
	mv "$out" "$TMP/out"
	stop_tool
}

t_top_event() {
	e=$T/events/syscalls/sys_enter_kill/enable
	[ -e "$e" ] || { skip "no syscalls:sys_enter_kill event"; return 0; }
	[ -z "$(cat "$T/set_event")" ] || { skip "top-level events are enabled already (someone's)"; return 0; }
	# the first use of the top-level buffer expands it for good: before the snapshot
	echo 1 > "$e" && echo 0 > "$e"
	snapshot_retake
	echo 1 > "$e"
	rf_run
	[ $RC = 0 ] || fail "exit $RC: $(cat "$TMP/err")"
	rf_has "active   setting set_event: syscalls:sys_enter_kill"
	[ "$(cat "$e")" = 1 ] || fail "without -f the event was disabled"
	if ! why=$(rf_top_clean set_event); then
		echo 0 > "$e"
		skip "$why"
		return 0
	fi
	rf_run -f
	[ $RC = 0 ] || fail "-f: exit $RC: $(cat "$TMP/err")"
	[ ! -s "$TMP/err" ] || fail "-f: stderr: $(cat "$TMP/err")"
	rf_has "reset    setting events/enable: X -> 0 (syscalls:sys_enter_kill)"
	[ "$(grep -c '^reset ' "$TMP/out")" = 1 ] || fail "-f reset more than the event: $(grep '^reset ' "$TMP/out")"
	[ "$(cat "$e")" = 0 ] || { fail "-f left the event enabled"; echo 0 > "$e"; }
	[ -z "$(cat "$T/set_event")" ] || fail "set_event after -f: $(cat "$T/set_event")"
	rf_run
	! grep -q '^active   setting set_event' "$TMP/out" || fail "set_event still listed after -f"
}

t_perf_lock() {
	[ ! -e "$RF_LOCK" ] || { skip "$RF_LOCK exists already (someone's)"; return 0; }
	sh -c : &
	dead=$!
	wait $dead
	echo $dead > "$RF_LOCK"
	rf_run
	[ $RC = 0 ] || fail "exit $RC: $(cat "$TMP/err")"
	rf_has "active   lock $RF_LOCK (PID $dead, not running; perf-tools' lock; -f removes it)"
	[ -e "$RF_LOCK" ] || { fail "removed without -f"; return 1; }
	echo $$ > "$RF_LOCK"
	rf_run
	rf_has "active   lock $RF_LOCK (PID $$, running; perf-tools' lock; -f removes it)"
	if ! why=$(rf_top_clean lock); then
		rm -f "$RF_LOCK"
		skip "$why"
		return 0
	fi
	rf_run -f
	[ $RC = 0 ] || fail "-f: exit $RC: $(cat "$TMP/err")"
	rf_has "removed  lock $RF_LOCK (PID $$, running)"
	[ ! -e "$RF_LOCK" ] || { fail "-f left $RF_LOCK"; rm -f "$RF_LOCK"; }
}

t_quiet() {
	u=rfq$$
	mkdir "$T/instances/$u" || { fail "cannot make instance $u"; return 1; }
	[ -e "$RF_LOCK" ] || { echo 1 > "$RF_LOCK"; mine=1; }
	rf_run -q
	[ $RC = 0 ] || fail "-q: exit $RC"
	[ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ] || fail "-q printed: $(cat "$TMP/out" "$TMP/err" | head -c 300)"
	[ -e "$RF_LOCK" ] || fail "-q removed the lock file"
	if [ "${mine:-}" = 1 ] && rf_top_clean lock > /dev/null; then
		rf_run -q -f
		[ $RC = 0 ] || fail "-qf: exit $RC"
		[ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ] || fail "-qf printed: $(cat "$TMP/out" "$TMP/err" | head -c 300)"
		[ ! -e "$RF_LOCK" ] || fail "-qf left the lock file"
	fi
	[ "${mine:-}" = 1 ] && rm -f "$RF_LOCK"
	[ -d "$T/instances/$u" ] || fail "-q removed the user's instance"
	rmdir "$T/instances/$u"
}

t_json() {
	command -v jq > /dev/null || { skip "no jq"; return 0; }
	u=rfj$$
	mkdir "$T/instances/$u" || { fail "cannot make instance $u"; return 1; }
	start_tool "$BIN/tpoint" sched:sched_process_exec || { fail "tpoint did not start"; rmdir "$T/instances/$u"; return 1; }
	p=$TOOL_PID
	inst=$(run_inst tpoint $p)
	mv "$TMP/out" "$TMP/out.tp"	# tpoint writes on to it
	rf_run -j
	[ $RC = 0 ] || fail "exit $RC: $(cat "$TMP/err")"
	jq . "$TMP/out" > /dev/null || fail "not JSON Lines: $(head -c 300 "$TMP/out")"
	[ "$(jq -c "select(.name == \"$u\") | [.tool, .action, .kind, .value, .owner, .pid, .running, .note]" "$TMP/out")" = \
	  '["reset-ftrace","active","instance",null,null,null,null,"not this suite'"'"'s; left alone"]' ] ||
		fail "the user's instance: $(grep "\"$u\"" "$TMP/out")"
	[ "$(jq -c "select(.name == \"${inst##*/}\") | [.action, .kind, .owner, .pid, .running]" "$TMP/out")" = \
	  "[\"active\",\"instance\",\"tpoint\",$p,true]" ] ||
		fail "the live run: $(grep "${inst##*/}" "$TMP/out")"
	n=$(wc -l < "$TMP/out")
	[ "$(jq -r .time "$TMP/out" | grep -c '^20[0-9-]*T[0-9:.]*Z$')" = "$n" ] || fail "a line without a time"
	mv "$TMP/out" "$TMP/out.json"
	mv "$TMP/out.tp" "$TMP/out"
	stop_tool
	rmdir "$T/instances/$u"
}

t_bad_input() {
	[ -e "$RF_LOCK" ] || { echo 1 > "$RF_LOCK"; mine=1; }
	expect_error 2 "^reset-ftrace: unknown option -z " "$BIN/reset-ftrace" -z
	expect_error 2 "^reset-ftrace: unexpected argument 'now' " "$BIN/reset-ftrace" -f now
	expect_error 2 "^reset-ftrace: unknown option --force " "$BIN/reset-ftrace" --force
	expect_error 2 "^reset-ftrace: option --json takes no argument" "$BIN/reset-ftrace" --json=1
	[ ! -s "$TMP/eout" ] || fail "stdout: $(head -c 200 "$TMP/eout")"
	[ -e "$RF_LOCK" ] || fail "bad input removed the lock file"
	[ "${mine:-}" = 1 ] && rm -f "$RF_LOCK"
	return 0
}

# a tracer, a function filter and a kprobe set by hand are reset by -f; a
# live kprobe run's probe stays
t_force_tracer_kprobe() {
	kernel_has kprobe_events && grep -qw function "$T/available_tracers" ||
		{ skip "kernel has no kprobe_events or no function tracer"; return 0; }
	why=$(rf_top_clean) || { skip "$why"; return 0; }
	# the first use of the top-level buffer expands it for good: before the snapshot
	echo function > "$T/current_tracer" && echo nop > "$T/current_tracer"
	snapshot_retake
	start_tool "$BIN/kprobe" p:do_sys_openat2 || { fail "kprobe did not start: $(head -c 300 "$TMP/err")"; return 1; }
	p=$TOOL_PID
	mv "$TMP/out" "$TMP/out.kp"
	g=rftest_$$
	echo "p:$g/open do_sys_openat2" >> "$T/kprobe_events" || { fail "cannot add a kprobe"; stop_tool; return 1; }
	echo do_sys_openat2 > "$T/set_ftrace_filter"
	echo function > "$T/current_tracer"
	rf_run
	rf_has "active   setting current_tracer: function"
	rf_has "active   setting set_ftrace_filter: do_sys_openat2"
	grep -q "^active   setting kprobe_events: p:$g/open do_sys_openat2" "$TMP/out" ||
		fail "kprobe not listed: $(grep kprobe_events "$TMP/out")"
	! grep -q "ftt_kprobe_$p" "$TMP/out" || fail "the live run's probe listed: $(grep "ftt_kprobe_$p" "$TMP/out")"
	rf_run -f
	[ $RC = 0 ] || fail "-f: exit $RC: $(cat "$TMP/err")"
	rf_has "reset    setting current_tracer: function -> nop"
	rf_has "reset    setting set_ftrace_filter: do_sys_openat2 -> (empty)"
	grep -q "^removed  kprobe $g/open: p:$g/open do_sys_openat2" "$TMP/out" ||
		fail "kprobe not removed: $(grep kprobe "$TMP/out")"
	[ "$(cat "$T/current_tracer")" = nop ] || fail "current_tracer: $(cat "$T/current_tracer")"
	! grep -q "$g" "$T/kprobe_events" || { fail "kprobe $g still there"; echo "-:$g/open" >> "$T/kprobe_events"; }
	grep -q "ftt_kprobe_$p" "$T/kprobe_events" || fail "the live kprobe run's probe was removed"
	kill -0 $p 2>/dev/null || fail "the kprobe run ended"
	mv "$TMP/out.kp" "$TMP/out"
	stop_tool
	echo nop > "$T/current_tracer"
	: > "$T/set_ftrace_filter"
}

# -f while a run of the suite holds the lock on top-level settings (a
# stand-in here: the lock taken by flock(1), naming a run as a run does)
t_force_locked() {
	command -v flock > /dev/null || { skip "no flock(1)"; return 0; }
	[ -e "$RF_LOCK" ] || { echo 1 > "$RF_LOCK"; mine=1; }
	mkdir -p -m 0700 /run/ftt
	[ -f /run/ftt/lock ] || { umask 077; : > /run/ftt/lock; }
	flock -x /run/ftt/lock sh -c 'printf "funcgraph (PID %s)\n" $$ > /run/ftt/lock; exec sleep 30' &
	h=$!
	n=0
	while ! grep -q "^funcgraph (PID" /run/ftt/lock 2>/dev/null && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	expect_error 1 "^reset-ftrace: -f refused: a live run of this suite changes top-level tracing settings now: funcgraph \\(PID [0-9]+\\); nothing changed\$" \
		"$BIN/reset-ftrace" -f
	[ -e "$RF_LOCK" ] || fail "-f removed $RF_LOCK while refused"
	kill $(pgrep -P $h) $h 2>/dev/null
	wait $h 2>/dev/null
	[ "${mine:-}" = 1 ] && rm -f "$RF_LOCK"
	return 0
}

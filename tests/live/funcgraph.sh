# SPDX-License-Identifier: GPL-2.0-only
# tests/live/funcgraph.sh - funcgraph on calls the tests make themselves
#
# Needs the function_graph tracer and function tracing allowed; on a kernel
# without them (this host: none, lockdown) only the refusal and the argument
# checks run. The graph uses the top level on kernels that cannot graph in an
# instance: the runner's snapshot checks every setting came back.

# fg_able - can this kernel run the tool? (else the reason, for skip)
fg_able() { ftrace_able function_graph; }

# fg_run ARGS... - funcgraph -d 4 ARGS while fcalls (PID in FC) makes 20 opens
fg_run() {
	rm -f "$TMP/out" "$TMP/err"
	"$BIN/funcgraph" -d 4 "$@" > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	banner_wait $pid || { kill $pid; fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" opens 20 &
	FC=$!
	wait $FC
	wait_gone $pid 300 || { kill -KILL $pid; fail "-d 4 did not end by itself"; return 1; }
	wait $pid || { fail "exit status $?: $(cat "$TMP/err")"; return 1; }
}

t_refusal() {
	if fg_able > /dev/null; then
		skip "kernel allows function graphs; refusal not applicable"
		return 0
	fi
	expect_error 1 '^funcgraph: this kernel (does not allow function graph tracing|refuses function tracing)' \
		"$BIN/funcgraph" -d 1 vfs_read
}

t_nesting() {
	why=$(fg_able) || { skip "$why"; return 0; }
	fg_run -P do_sys_openat2 || return 1
	head -1 "$TMP/out" | grep -qx 'Tracing "do_sys_openat2" for 4 seconds...' ||
		fail "banner: $(head -1 "$TMP/out")"
	# an entry with children: "name() {", an indented child with a duration, "}"
	grep -Eq '^ *[0-9]+\) +fcalls-[0-9]+ +\| +\| +do_sys_openat2\(\) \{$' "$TMP/out" ||
		fail "no 'do_sys_openat2() {' line for fcalls: $(head -5 "$TMP/out")"
	awk '/do_sys_openat2\(\) \{/ { inside = 1; next }
		inside && /[0-9.]+ us +\| +[A-Za-z0-9_.]+\(\);/ { child = 1 }
		inside && /\| +\}/ { inside = 0; if (child) ok = 1 }
		END { exit !ok }' "$TMP/out" || fail "no nested child call: $(head -8 "$TMP/out")"
	# each of fcalls' 20 opens graphed, and in each get_unused_fd_flags one
	# level down (every kernel from 5.10 calls it there). The task is found
	# by its PID: the name beside it is the kernel's last saved name for the
	# PID, which may still be the shell's that forked it. A line of the
	# graph may be printed twice where it crosses a read of trace_pipe
	# (t_pid_threads), so one more is allowed, never one less.
	n=$(grep -Ec "^ *[0-9]+\) +[^ ]*-$FC +\| +\| +do_sys_openat2\(\) \{$" "$TMP/out")
	[ "$n" -ge 20 ] && [ "$n" -le 21 ] ||
		fail "PID $FC: $n calls graphed, made 20 ($(grep -c 'do_sys_openat2() {' "$TMP/out") in all): $(grep -- "-$FC .*do_sys_openat2() {" "$TMP/out" | head -3)"
	n=$(awk -v t="-$FC" 'substr($2, length($2) - length(t) + 1) != t { next }
		/do_sys_openat2\(\) \{$/ { inside = 1; depth = 0; next }
		inside && depth == 0 && /\| +get_unused_fd_flags\(\)( \{|;)$/ { k++ }
		inside && /\| +[A-Za-z0-9_.]+\(\) \{$/ { depth++; next }
		inside && /\| +\}/ { if (depth == 0) inside = 0; else depth--; next }
		END { print k + 0 }' "$TMP/out")
	[ "$n" -ge 20 ] && [ "$n" -le 21 ] ||
		fail "PID $FC: get_unused_fd_flags under do_sys_openat2 $n times, made 20: $(grep -A12 -- "-$FC .*do_sys_openat2() {" "$TMP/out" | head -14)"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
	[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
}

t_maxdepth_1() {
	why=$(fg_able) || { skip "$why"; return 0; }
	fg_run -P -m 1 do_sys_openat2 || return 1
	# depth 1: the function alone (a leaf "f();", or "f() {" ... "}" on
	# kernels that print the return apart) and none of its children
	# (do_filp_open, getname at depth 2); the function alone is hooked, so
	# no interrupt or context switch inside it shows either
	grep -Eq '\| +do_sys_openat2\(\)( \{|;)$' "$TMP/out" ||
		fail "no do_sys_openat2 line: $(head -5 "$TMP/out")"
	! grep -Eq '(do_filp_open|getname|get_unused_fd_flags)' "$TMP/out" ||
		fail "-m 1 shows children: $(grep -E 'do_filp_open|getname' "$TMP/out" | head -3)"
	others=$(grep -Eo '\| +[A-Za-z_][A-Za-z0-9_.]*\(\)' "$TMP/out" | grep -v 'do_sys_openat2()' | head -3)
	[ -z "$others" ] || fail "-m 1 graphs more than the function: $others"
	# fcalls' 20 opens, each once (one more where a line crosses a read)
	n=$(grep -Ec "^ *[0-9]+\) +[^ ]*-$FC +\|.*\| +do_sys_openat2\(\)( \{|;)\$" "$TMP/out")
	[ "$n" -ge 20 ] && [ "$n" -le 21 ] ||
		fail "PID $FC: $n calls shown, made 20: $(grep -- "-$FC " "$TMP/out" | head -3)"
}

t_no_duration_tail_headers() {
	why=$(fg_able) || { skip "$why"; return 0; }
	fg_run -D -T -H do_sys_openat2 || return 1
	grep -q '^# tracer: function_graph' "$TMP/out" || fail "-H: no header: $(head -3 "$TMP/out")"
	grep -Eq '^ *[0-9]+\) +do_sys_openat2\(\) \{$' "$TMP/out" || fail "-D: entry line: $(sed -n 2,8p "$TMP/out")"
	grep -Eq '\} /\* do_sys_openat2 \*/$' "$TMP/out" || fail "-T: no tail comment"
	! grep -q ' us ' "$TMP/out" || fail "-D: durations shown"
}

t_pid_filter() {
	why=$(fg_able) || { skip "$why"; return 0; }
	# one process opening for up to 5 minutes (setup is slow under
	# emulation), another opening once while the graph runs; -m 1 hooks
	# the function alone (set_ftrace_pid filters it the same way as a
	# graph of children, and it switches on in seconds, not a quarter of
	# a minute, under TCG)
	args= i=0
	while [ $i -lt 1500 ]; do
		args="$args opens 2 sleep 0.2"
		i=$((i + 1))
	done
	"$WORKLOADS/fcalls" $args & a=$!
	"$BIN/funcgraph" -P -m 1 -d 3 -p $a do_sys_openat2 > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	banner_wait $pid || { kill $a $pid; fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" opens 10 & b=$!
	wait $b
	wait_gone $pid 300 || { kill -KILL $pid; kill $a; fail "-d 3 did not end"; return 1; }
	kill $a 2>/dev/null; wait $a 2>/dev/null
	head -1 "$TMP/out" | grep -qx "Tracing \"do_sys_openat2\" for PID $a for 3 seconds..." ||
		fail "banner: $(head -1 "$TMP/out")"
	grep -q "fcalls-$a " "$TMP/out" || fail "-p $a: its calls not graphed: $(head -5 "$TMP/out")"
	! grep -q "fcalls-$b " "$TMP/out" || fail "-p $a: other process $b graphed"
}

# fg_rows FILE - the TID of each do_sys_openat2 call in funcgraph -P's graph:
# its entry line, "do_sys_openat2();" or "do_sys_openat2() {" (the closing
# brace may name it too, with a return value)
# fg_pids FILE - the PID of each row of funcgraph -P's text
fg_pids() {
	sed -n 's/^ *[0-9][0-9]*) *[^ |]*-\([0-9][0-9]*\) *|.*/\1/p' "$1"
}

fg_rows() {
	sed -n 's/^.*-\([0-9][0-9]*\) *|.*[|] *do_sys_openat2().*$/\1/p' "$1"
}

# t_thresh - -F: only the returns over the threshold, do_nanosleep's and its
# children's, no entry: of fcalls' two 300 ms and two 50 ms sleeps, the two
# slow ones; nothing of fcalls took less than the threshold
t_thresh() {
	why=$(fg_able) || { skip "$why"; return 0; }
	fcalls_stopped sleep 0.05 sleep 0.3 sleep 0.05 sleep 0.3 || return 1
	traced_run "" "$BIN/funcgraph" -P -F 200000 -d 8 do_nanosleep || return 1
	n=$(grep -Ec "^ +[0-9]+\) +[^ ]+-$FC +\| @ 3[0-9]{5}\.[0-9] us +\|  \} /\* do_nanosleep( ret=[-x0-9a-f]+)? \*/\$" "$TMP/out")
	[ "$n" -eq 2 ] || fail "-F: $n slow do_nanosleep returns of fcalls, made 2 (and 2 fast): $(grep -- "-$FC " "$TMP/out" | head -5)"
	! grep -E -- "-$FC +\|" "$TMP/out" | grep -Evq '\| [@$] +[0-9.]+ us +\| +\} /\* ' ||
		fail "-F: a line of fcalls that is not a slow return: $(grep -E -- "-$FC +\|" "$TMP/out" | grep -Ev '\| [@$] +[0-9.]+ us +\| +\} /\* ' | head -2)"
}

# t_no_irqs - -I: reads of /dev/zero long enough for timer interrupts to
# arrive inside them (under TCG, a few hundred ms in vfs_read): without -I
# the interrupt handlers show inside the graph (the APIC timer's handler,
# hrtimer_interrupt, or the kernel's ==========> marks), with -I none does.
# irq_enter_rcu and irq_exit_rcu still show: they run on the edge, before
# and after the CPU counts itself in the interrupt. The graphed function
# itself would still be graphed in an interrupt: the kernel keeps a
# set_graph_function function whatever the option.
fg_irq_run() {
	fcalls_stopped reads 150 65536 || return 1
	traced_run "" "$BIN/funcgraph" -d 8 -p $FC "$@" vfs_read || return 1
	n=$(grep -c 'vfs_read() {' "$TMP/out")
	[ "$n" -ge 1 ] || { fail "no read graphed, made 150: $(head -5 "$TMP/out")"; return 1; }
}
FG_IRQ='sysvec_apic_timer_interrupt|smp_apic_timer_interrupt|hrtimer_interrupt|==========>'
t_no_irqs() {
	why=$(fg_able) || { skip "$why"; return 0; }
	fg_irq_run || return 1
	n=$(grep -Ec "$FG_IRQ" "$TMP/out")
	[ "$n" -ge 1 ] || { skip "no interrupt arrived inside the 150 reads (nothing to leave out)"; return 0; }
	fg_irq_run -I || return 1
	n=$(grep -Ec "$FG_IRQ" "$TMP/out")
	[ "$n" -eq 0 ] || fail "-I: $n lines of interrupt handlers inside the graph: $(grep -E "$FG_IRQ" "$TMP/out" | head -3)"
}

# t_args - -A: each call's arguments as the kernel records them. fcalls
# opens /dev/zero (descriptor 3, its first free one) and reads 12345 bytes
# three times: three ksys_read(fd=0x3, buf=..., count=0x3039) of its PID in
# the text (-j, whose record holds six registers whatever the function
# takes, is refused). A kernel without the funcgraph-args option (before
# 6.16, or no BTF) must refuse -A.
t_args() {
	why=$(fg_able) || { skip "$why"; return 0; }
	if [ ! -e "$T/options/funcgraph-args" ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
		expect_error 1 '^funcgraph: -A: this kernel records no function arguments' \
			"$BIN/funcgraph" -A -d 1 ksys_read
		return
	fi
	fcalls_stopped reads 3 12345 || return 1
	traced_run "" "$BIN/funcgraph" -A -P -m 1 -d 4 ksys_read || return 1
	n=$(grep -Ec -- "-$FC +\|.*\| +ksys_read\(fd=0x3, buf=0x[0-9a-f]+, count=0x3039\)( \{|;)\$" "$TMP/out")
	[ "$n" -eq 3 ] || fail "-A: $n reads of fcalls with fd=0x3 and count=0x3039, made 3: $(grep -- "-$FC " "$TMP/out" | head -4)"
	expect_error 2 '^funcgraph: use either -A or -j, not both' "$BIN/funcgraph" -A -j ksys_read
}

# t_pid_threads - -p: each of 1000 threads, the threads started after
# funcgraph was, a child and its thread: every open graphed once, none of a
# process that does the same at the same time (in the instance, or at the
# top level where the kernel graphs only there: both restored)
t_pid_threads() {
	why=$(fg_able) || { skip "$why"; return 0; }
	thr_start 1000 20 || return 1
	start_tool "$BIN/funcgraph" -P -m 1 -p $THR_PID do_sys_openat2 || {
		kill -KILL $THR_PID $DEC_PID; wait $THR_PID $DEC_PID
		stop_tool; fail "did not start: $(cat "$TMP/err")"; return 1; }
	thr_trace fg_rows || return 1
	# every call graphed once, under its own task, none from outside the
	# process. (The kernel's function_graph text names the wrong task, or
	# drops the call, when a line does not fit in one read of trace_pipe;
	# funcgraph asks for reads small enough that none is ever cut.)
	n=$(wc -l < "$TMP/got")
	[ "$n" -eq $THR_N ] || fail "funcgraph -p: $n calls graphed, $THR_N made"
	thr_compare "$TMP/got" "$TMP/thr.tids" "funcgraph -p" && return 0
	dup1=$(uniq -d "$TMP/got.s" | head -1)
	[ -z "$dup1" ] || fail "the graph of $dup1: $(grep -- "-$dup1 " "$TMP/out" | head -4)"
}

t_busy_top_level() {
	why=$(fg_able) || { skip "$why"; return 0; }
	# setting a tracer the first time since boot expands the top-level buffer for good
	grep -q expanded "$T/buffer_size_kb" && echo nop > "$T/current_tracer" && snapshot_retake
	# another user holds the top-level tracer: refused unless the kernel graphs in instances
	# where the kernel graphs in an instance, funcgraph must run there and
	# graph the opens; where it graphs only at the top level, it must refuse
	echo function > "$T/current_tracer" || { fail "cannot set up the busy tracer"; return 1; }
	FC=
	"$BIN/funcgraph" -P -d 2 do_sys_openat2 > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	banner_wait $pid && { "$WORKLOADS/fcalls" opens 5 & FC=$!; wait $FC; }
	wait $pid
	rc=$?
	cur=$(cat "$T/current_tracer")
	echo nop > "$T/current_tracer"
	[ "$cur" = function ] || fail "current_tracer changed to '$cur'"
	if fg_top; then
		[ $rc -eq 1 ] && grep -q 'top-level tracer is in use (current_tracer=function)' "$TMP/err" ||
			fail "graphs only at the top level: wanted the refusal, exit 1; got exit $rc: $(cat "$TMP/err")"
	else
		[ $rc -eq 0 ] || { fail "graphs in an instance: wanted a run, got exit $rc: $(cat "$TMP/err")"; return 1; }
		n=$(grep -Ec "[^ ]*-${FC:-x} +\| +\| +do_sys_openat2\(\) \{$" "$TMP/out")
		[ "$n" -ge 5 ] && [ "$n" -le 6 ] ||
			fail "graphs in an instance: fcalls' 5 opens not graphed: $(head -5 "$TMP/out")"
	fi
}

# t_user_recording - the top-level buffer holds the user's own recording (a
# trace_marker line the test writes): where the graph would run at the top
# level, funcgraph refuses in one line, exit 1; where it graphs in an
# instance, it runs; either way the recording is still there
t_user_recording() {
	why=$(fg_able) || { skip "$why"; return 0; }
	grep -q expanded "$T/buffer_size_kb" && echo nop > "$T/current_tracer" && snapshot_retake
	on=$(cat "$T/tracing_on")
	echo 1 > "$T/tracing_on"
	echo "ftt_user_rec_$$" > "$T/trace_marker"
	echo "$on" > "$T/tracing_on"
	grep -q "ftt_user_rec_$$" "$T/trace" || { fail "cannot make the user's recording"; return 1; }
	"$BIN/funcgraph" -d 1 do_sys_openat2 > "$TMP/out" 2> "$TMP/err"
	rc=$?
	grep -q "ftt_user_rec_$$" "$T/trace" || fail "the user's recording in the top-level buffer is gone"
	if fg_top; then
		[ $rc = 1 ] && [ "$(wc -l < "$TMP/err")" = 1 ] &&
			grep -q '^funcgraph: the top-level trace buffer holds [0-9]* events' "$TMP/err" ||
			fail "exit $rc, wanted 1 and one line: $(cat "$TMP/err")"
	else
		[ $rc = 0 ] || fail "exit $rc in an instance: $(cat "$TMP/err")"
	fi
	echo > "$T/trace"
	return 0
}

t_head_ends() {
	why=$(fg_able) || { skip "$why"; return 0; }
	sh -c 'while :; do "$0" opens 5 sleep 0.1; done' "$WORKLOADS/fcalls" & loop=$!
	( "$BIN/funcgraph" do_sys_openat2 | head -3 > "$TMP/out" ) 2> "$TMP/err" &
	pipe=$!
	wait_gone $pipe 300 || { kill $loop; kill -KILL $pipe; fail "| head -3 did not end"; return 1; }
	kill $loop; wait $loop 2>/dev/null
	[ "$(wc -l < "$TMP/out")" -eq 3 ] || fail "head got $(wc -l < "$TMP/out") lines"
}

t_bad_input() {
	expect_error 2 'missing funcstring' "$BIN/funcgraph" || return 1
	expect_error 2 'either -p or -L' "$BIN/funcgraph" -p 1 -L 1 vfs_read || return 1
	expect_error 2 "':' not allowed" "$BIN/funcgraph" 'vfs_read:traceoff' || return 1
	expect_error 2 '^funcgraph: -m: ' "$BIN/funcgraph" -m 0 vfs_read
}

# t_hostile - -P shows the kernel's text of the process name: a name with
# terminal controls and a byte that is not UTF-8 (the link it was run by)
# comes out escaped, never raw
t_hostile() {
	why=$(fg_able) || { skip "$why"; return 0; }
	ln -s "$WORKLOADS/fcalls" "$TMP/$HOSTILE" || { fail "cannot make the link"; return 1; }
	"$BIN/funcgraph" -P -d 4 do_sys_openat2 > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	banner_wait $pid || { kill $pid; fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$TMP/$HOSTILE" opens 20 & h=$!
	wait $h
	wait_gone $pid 300 || { kill -KILL $pid; fail "-d 4 did not end by itself"; return 1; }
	wait $pid || { fail "exit status $?: $(cat "$TMP/err")"; return 1; }
	# the kernel cuts the name (to 7 bytes in its -P column) and writes the
	# newline in it as it is: the row of PID $h starts after it, and the part
	# before shows escaped on the line above (funcgraph(8))
	n=$(grep -F -- "-$h " "$TMP/out" | grep -Ec '\| +do_sys_openat2\(\) \{$')
	[ "$n" -ge 20 ] && [ "$n" -le 21 ] ||
		{ fail "PID $h: $n of its 20 opens graphed: $(head -5 "$TMP/out")"; return 1; }
	grep -qF 'a\x1b[1A' "$TMP/out" || fail "no escaped name: $(grep -B1 -F -- "-$h " "$TMP/out" | head -3)"
	vis_clean "$TMP/out" || fail "raw control or non-ASCII bytes in the output: $(LC_ALL=C grep -n '[^ -~]' "$TMP/out" | od -c | head -5)"
}

# top - the top-level settings a funcgraph -m or a funccount with the profiler changes
top() { cat "$T/set_ftrace_filter" "$T/function_profile_enabled" "$T/max_graph_depth" \
	"$T/current_tracer" "$T/set_graph_function" 2>/dev/null; }

# fg_hold ARGS... - start funcgraph ARGS, which runs until SIGINT; sets g
fg_hold() {
	"$BIN/funcgraph" "$@" > "$TMP/out" 2> "$TMP/err" &
	g=$!
	banner_wait $g || { kill $g; fail "funcgraph $* did not start: $(cat "$TMP/err")"; return 1; }
}

# t_one_writer - one run at a time changes top-level settings: while a
# funcgraph -m holds max_graph_depth (global even beside an instance), a
# second one, and a funccount where it counts with the top-level profiler,
# are refused in one line that names it, and change nothing
t_one_writer() {
	why=$(fg_able) || { skip "$why"; return 0; }
	fg_hold -m 2 -d 120 vfs_read || return 1
	held=$(top)
	expect_error 1 "^funcgraph: another run changes top-level tracing settings now: funcgraph \(PID $g\); one at a time\$" \
		"$BIN/funcgraph" -m 3 -d 1 vfs_write
	! kernel_has function_profile_enabled ||
		expect_error 1 "^funccount: another run changes top-level tracing settings now: funcgraph \(PID $g\); one at a time\$" \
			"$BIN/funccount" -d 1 vfs_write
	[ "$(top)" = "$held" ] || fail "the refused runs changed top-level settings: '$held' became '$(top)'"
	kill -INT $g
	wait $g || fail "funcgraph: exit $? after SIGINT: $(cat "$TMP/err")"
	# free again once it has ended
	fg_hold -m 3 -d 120 vfs_write || return 1
	kill -INT $g
	wait $g || fail "the next funcgraph -m: exit $?: $(cat "$TMP/err")"
}

# t_json - -j: the records of fcalls' 20 opens, read in binary: exactly 20
# entries of do_sys_openat2 at depth 0 by its PID (no line is printed twice
# here, unlike the text), and its records nest: each entry at or below the
# calls open around it, each exit the innermost open call's, with a
# duration; get_unused_fd_flags one level down in each call (as t_nesting).
# An entry is never shallower than the call open around it, but an
# interrupt's first traced function (irq_enter_rcu) has the kernel's own
# depth: two levels below the interrupted call on 7.3, at its level on 6.1.0-50.
# The shell that starts fcalls in the background opens /dev/null as its
# stdin under the same PID before the exec: it does so, and stops, before
# the graph starts, so the 20 opens are the only ones
t_json() {
	why=$(fg_able) || { skip "$why"; return 0; }
	fcalls_stopped opens 20 || return 1
	t0=$(date +%s)
	traced_run "" "$BIN/funcgraph" -j -d 4 do_sys_openat2 || return 1
	t1=$(date +%s)
	json_check "$TMP/out" || return 1
	grep -qx 'Tracing "do_sys_openat2" for 4 seconds...' "$TMP/err" ||
		fail "-j: banner not on stderr: $(head -c 300 "$TMP/err")"
	jq -c --argjson p $FC 'select(.pid == $p)' "$TMP/out" > "$TMP/fc"
	n=$(jq -c 'select(.type == "entry" and .func == "do_sys_openat2" and .depth == 0)' "$TMP/fc" | wc -l)
	[ "$n" -eq 20 ] || fail "-j: PID $FC: $n entries of do_sys_openat2 at depth 0, made 20 opens: $(head -c 600 "$TMP/fc")"
	r=$(jq -r -s 'reduce .[] as $e ({st: [], bad: null, n: 0, kids: 0, last: []};
		if .bad then .
		elif $e.type == "entry" then
			if ($e.depth | type) != "number" or
			   (.st | length) > 0 and $e.depth < .st[-1].d then
				.bad = "entry at depth \($e.depth) inside \(.st | length) calls: \($e | tojson)"
			else .st += [{f: $e.func, d: $e.depth}]
				| if $e.depth == 1 and .st[0].f == "do_sys_openat2" and $e.func == "get_unused_fd_flags"
				  then .kids += 1 else . end
			end
		elif $e.type == "exit" then
			if (.st | length) == 0 or .st[-1].f != $e.func or .st[-1].d != $e.depth then
				.bad = "exit not of the innermost call \(.st[-1] // "none" | tojson): \($e | tojson)"
			elif ($e.duration_ns | type) != "number" or $e.duration_ns < 0 then
				.bad = "exit without a duration: \($e | tojson)"
			else .st |= .[:-1] | if $e.func == "do_sys_openat2" then .n += 1 else . end
			end
		else .bad = "type \($e.type)" end
		| if .bad then . else .last = (.last + ["\($e.cpu) \($e.type) \($e.func) \($e.depth)"])[-12:] end)
		| if .bad then "\(.bad); before it: \(.last | join(", "))"
		  elif (.st | length) > 0 then "calls not returned: \(.st)"
		  else "ok \(.n) \(.kids)" end' "$TMP/fc")
	[ "$r" = "ok 20 20" ] || fail "-j: PID $FC's records: $r"
	# the name at each record, from the exec's rename; at the top level the
	# naming events would be the user's, and no name is known
	want='"fcalls"'
	fg_top && want=null
	jq -e -s --arg host "$(uname -n)" --argjson c "$want" 'all(.[]; .tool == "funcgraph" and
		.host == $host and .comm == $c and (.cpu | type) == "number" and
		(.pid | type) == "number")' \
		"$TMP/fc" > /dev/null || fail "-j: wrong members (comm wanted $want): $(head -n 2 "$TMP/fc")"
	json_time_ok "$(head -n 1 "$TMP/fc" | jq -r .time)" "$t0" "$t1"
	grep -q '^Ending tracing' "$TMP/err" || fail "-j: no 'Ending tracing...' on stderr"
}

# t_json_head - -j | head -n 1: one whole object, and funcgraph ends (0)
t_json_head() {
	why=$(fg_able) || { skip "$why"; return 0; }
	sh -c 'while :; do "$0" opens 5 sleep 0.1; done' "$WORKLOADS/fcalls" & loop=$!
	json_head_run 60 "$BIN/funcgraph" -j do_sys_openat2
	kill $loop; wait $loop 2>/dev/null
	json_head_ok '.tool == "funcgraph" and (.type == "entry" or .type == "exit")'
}

# top_list FILE - a top-level function list as sorted unique names ("" if empty)
top_list() {
	grep -v '^#' "$T/$1" | sed 's/ .*//' | sort -u | tr '\n' ' '
}

# top_keep - save the top-level settings a top-level funcgraph changes, to
# put them back by hand (top_put) after a run the test kills
top_keep() {
	TOP_FILES="current_tracer tracing_on max_graph_depth trace_clock"
	for f in options/function-fork options/sleep-time options/funcgraph-tail \
		options/funcgraph-duration options/funcgraph-proc options/funcgraph-abstime \
		options/funcgraph-cpu options/funcgraph-overhead options/funcgraph-retval \
		options/funcgraph-retaddr options/funcgraph-args options/funcgraph-irqs; do
		[ -e "$T/$f" ] && TOP_FILES="$TOP_FILES $f"
	done
	mkdir -p "$TMP/top"
	for f in $TOP_FILES; do
		sed -n 's/.*\[\(.*\)\].*/\1/p; /\[/!p' "$T/$f" > "$TMP/top/$(echo $f | tr / _)"
	done
	for f in set_ftrace_filter set_graph_function set_ftrace_pid set_ftrace_notrace_pid; do
		[ -e "$T/$f" ] && grep -v '^#' "$T/$f" | grep -vx 'no pid' | sed 's/ .*//' > "$TMP/top/$f"
	done
}

# top_put - put back what top_keep saved, one list entry per write
top_put() {
	echo nop > "$T/current_tracer"
	for f in $TOP_FILES; do
		cat "$TMP/top/$(echo $f | tr / _)" > "$T/$f"
	done
	for f in set_ftrace_filter set_graph_function set_ftrace_pid set_ftrace_notrace_pid; do
		[ -e "$T/$f" ] || continue
		: > "$T/$f"
		while read -r e; do echo "$e" >> "$T/$f"; done < "$TMP/top/$f"
	done
	echo > "$T/trace"
}

# t_two_globs - two functions in one argument: each graphed, every one of
# fcalls' 20 opens (do_sys_openat2) and 20 access calls (do_faccessat)
t_two_globs() {
	why=$(fg_able) || { skip "$why"; return 0; }
	rm -f "$TMP/out" "$TMP/err"
	"$BIN/funcgraph" -P -m 1 -d 4 'do_sys_openat2 do_faccessat' > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	banner_wait $pid || { kill $pid; fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$WORKLOADS/fcalls" opens 20 access 20 &
	FC=$!
	wait $FC
	wait_gone $pid 300 || { kill -KILL $pid; fail "-d 4 did not end by itself"; return 1; }
	wait $pid || { fail "exit status $?: $(cat "$TMP/err")"; return 1; }
	for f in do_sys_openat2 do_faccessat; do
		n=$(grep -Ec "^ *[0-9]+\) +[^ ]*-$FC +\|.*\| +$f\(\)( \{|;)\$" "$TMP/out")
		[ "$n" -ge 20 ] && [ "$n" -le 21 ] ||
			fail "PID $FC: $f graphed $n times, called 20: $(grep -c "$f" "$TMP/out") lines name it"
	done
	[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
}

# t_user_lists_kept - the user's two-entry set_ftrace_filter and
# set_graph_function (set by hand, one entry per write) come back whole
# after a run at the top level, and after a run killed with SIGKILL (put
# back by the next run)
t_user_lists_kept() {
	why=$(fg_able) || { skip "$why"; return 0; }
	fg_top || { skip "graphs in an instance: the top-level lists are not changed"; return 0; }
	grep -q expanded "$T/buffer_size_kb" && echo nop > "$T/current_tracer" && snapshot_retake
	echo vfs_read > "$T/set_ftrace_filter" && echo vfs_write >> "$T/set_ftrace_filter" &&
	echo vfs_readv > "$T/set_graph_function" && echo vfs_writev >> "$T/set_graph_function" ||
		{ fail "cannot set the user's lists"; return 1; }
	want="vfs_read vfs_write |vfs_readv vfs_writev "
	[ "$(top_list set_ftrace_filter)|$(top_list set_graph_function)" = "$want" ] ||
		{ fail "the user's lists read back as $(top_list set_ftrace_filter)|$(top_list set_graph_function)"; return 1; }
	"$BIN/funcgraph" -d 1 do_sys_openat2 > "$TMP/out" 2> "$TMP/err" ||
		fail "funcgraph: exit $?: $(cat "$TMP/err")"
	got="$(top_list set_ftrace_filter)|$(top_list set_graph_function)"
	[ "$got" = "$want" ] || fail "after a run: '$got', the user had '$want'"
	fg_hold -d 120 do_sys_openat2 || { : > "$T/set_ftrace_filter"; : > "$T/set_graph_function"; return 1; }
	kill -KILL $g
	wait $g 2>/dev/null
	"$BIN/funcgraph" -d 1 do_sys_openat2 > "$TMP/out" 2> "$TMP/err" ||
		fail "funcgraph after the killed run: exit $?: $(cat "$TMP/err")"
	got="$(top_list set_ftrace_filter)|$(top_list set_graph_function)"
	[ "$got" = "$want" ] || fail "after a run killed with SIGKILL: '$got', the user had '$want'"
	: > "$T/set_ftrace_filter"
	: > "$T/set_graph_function"
}

# t_journal_later_user - a run killed with SIGKILL, then the user sets up
# function tracing of vfs_write by hand (tracer, filter, tracing_on) and
# records: the next run (tpoint) must leave all of that as the user set it,
# the recording included, and put back only what still holds the dead run's
# values
t_journal_later_user() {
	why=$(fg_able) || { skip "$why"; return 0; }
	fg_top || { skip "graphs in an instance: nothing at the top level to put back"; return 0; }
	grep -q expanded "$T/buffer_size_kb" && echo nop > "$T/current_tracer" && snapshot_retake
	top_keep
	fg_hold -d 120 vfs_read || { top_put; return 1; }
	kill -KILL $g
	wait $g 2>/dev/null
	echo function > "$T/current_tracer" && echo vfs_write > "$T/set_ftrace_filter" &&
	echo 1 > "$T/tracing_on" || { fail "cannot set up the user's tracing"; top_put; return 1; }
	echo "ftt_user_$$" > "$TMP/w"
	grep -q 'vfs_write' "$T/trace" || { fail "the user's tracing records nothing"; top_put; return 1; }
	"$BIN/tpoint" -d 1 sched:sched_process_exec > /dev/null 2> "$TMP/err" ||
		fail "tpoint: exit $?: $(cat "$TMP/err")"
	got="$(cat "$T/current_tracer")|$(top_list set_ftrace_filter)|$(cat "$T/tracing_on")"
	[ "$got" = "function|vfs_write |1" ] ||
		fail "the user's tracing (function|vfs_write |1) became '$got'"
	grep -q 'vfs_write' "$T/trace" || fail "the user's recording in the top-level buffer was emptied"
	# what the user did not touch holds the dead run's values: put back
	[ "$(top_list set_graph_function)" = "" ] ||
		fail "set_graph_function still holds the dead run's '$(top_list set_graph_function)'"
	top_put
}

# t_exec_cmd - --exec: the opens of the command's program and of a process its
# shell left behind, graphed; none of a process outside it; the run ends by
# itself
t_exec_cmd() {
	why=$(fg_able) || { skip "$why"; return 0; }
	: > "$TMP/xe_file"
	# the task column is the kernel's text, which can still name a task as
	# it was before its exec: the rows are told apart by PID
	EXEC_PIDS=1 exec_run "$WORKLOADS/ftt_open" "$TMP/xe_file" "$BIN/funcgraph" -P -m 1 do_sys_openat2 || return 1
	exec_rows_pid fg_pids +
}

# every exit path (tests/exits.sh)
exit_paths funcgraph

# SPDX-License-Identifier: GPL-2.0-only
# tests/live/funclatency.sh - funclatency on sleeps of known lengths the tests
# make themselves
#
# Needs the function_graph tracer and function tracing allowed; on a kernel
# without them (this host: none, lockdown) only the refusal and the argument
# checks run.

# fl_able - can this kernel run the tool? (else the reason, for skip)
fl_able() { ftrace_able function_graph; }

# FL_SLEEPS - what fcalls does: three sleeps of 50 ms and two of 300 ms
FL_SLEEPS="sleep 0.05 sleep 0.3 sleep 0.05 sleep 0.3 sleep 0.05"

# fl_row LO HI COUNT - the histogram in $TMP/out has the row LO -> HI with COUNT
fl_row() {
	grep -Eq "^ +$1 -> $2 +: $3 +\|" "$TMP/out"
}

t_refusal() {
	if fl_able > /dev/null; then
		skip "kernel allows function graphs; refusal not applicable"
		return 0
	fi
	expect_error 1 '^funclatency: this kernel (does not allow function graph tracing|refuses function tracing)' \
		"$BIN/funclatency" -d 1 vfs_read
}

# t_usecs - -u -p: fcalls' five sleeps in their buckets, exactly, and nothing
# else; a process beside it sleeping 300 ms twice is not counted
t_usecs() {
	why=$(fl_able) || { skip "$why"; return 0; }
	# shellcheck disable=SC2086
	fcalls_stopped $FL_SLEEPS || return 1
	traced_run "sleep 0.3 sleep 0.3" "$BIN/funclatency" -u -d 8 -p $FC do_nanosleep || return 1
	head -1 "$TMP/out" | grep -qx 'Tracing 1 functions for "do_nanosleep"... Hit Ctrl-C to end.' ||
		fail "banner: $(head -1 "$TMP/out")"
	grep -qx '     usecs               : count     distribution' "$TMP/out" ||
		fail "no usecs header: $(head -5 "$TMP/out")"
	fl_row 32768 65535 3 && fl_row 262144 524287 2 ||
		fail "the 50 ms sleeps (3) and the 300 ms ones (2) not in their buckets: $(cat "$TMP/out")"
	n=$(grep -E '^ +[0-9]+ -> [0-9]+ +: [1-9]' "$TMP/out" | wc -l)
	[ "$n" -eq 2 ] || fail "$n buckets used, wanted 2: $(cat "$TMP/out")"
	grep -Eq '^avg = [0-9]+ usecs, total: [0-9]+ usecs, count: 5$' "$TMP/out" ||
		fail "no 'avg = ... count: 5' line: $(grep avg "$TMP/out")"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
	grep -qx 'funclatency: each return is counted in user space, from function_graph.s records' "$TMP/err" ||
		fail "stderr does not say how it counts: $(cat "$TMP/err")"
}

# t_msecs - -m: the same sleeps in millisecond buckets
t_msecs() {
	why=$(fl_able) || { skip "$why"; return 0; }
	# shellcheck disable=SC2086
	fcalls_stopped $FL_SLEEPS || return 1
	traced_run "" "$BIN/funclatency" -m -d 8 -p $FC do_nanosleep || return 1
	fl_row 32 63 3 && fl_row 256 511 2 ||
		fail "the 50 ms sleeps (3) and the 300 ms ones (2) not in their buckets: $(cat "$TMP/out")"
	grep -Eq '^avg = [0-9]+ msecs, total: (7[0-9][0-9]) msecs, count: 5$' "$TMP/out" ||
		fail "total not about 750 ms of 5 sleeps: $(grep avg "$TMP/out")"
}

# t_json_interval - -j -i: one object per interval, the counts of all adding
# up to the five sleeps, each in its bucket
t_json_interval() {
	why=$(fl_able) || { skip "$why"; return 0; }
	# shellcheck disable=SC2086
	fcalls_stopped $FL_SLEEPS || return 1
	traced_run "" "$BIN/funclatency" -j -u -i 2 -d 8 -p $FC do_nanosleep || return 1
	json_check "$TMP/out" || return 1
	n=$(wc -l < "$TMP/out")
	[ "$n" -ge 4 ] || fail "-i 2 -d 8: $n objects, wanted 4 or more: $(head -c 400 "$TMP/out")"
	r=$(jq -s -r '[.[] | select(.tool == "funclatency" and .unit == "usecs")] as $o
		| ($o | map(.count) | add) as $n
		| ([$o[].hist[] | select(.lo == 32768 and .hi == 65536) | .count] | add) as $a
		| ([$o[].hist[] | select(.lo == 262144 and .hi == 524288) | .count] | add) as $b
		| "\($o | length) \($n) \($a) \($b)"' "$TMP/out")
	[ "${r#* }" = "5 3 2" ] || fail "-j: objects, count, 50 ms, 300 ms: $r (wanted 5 3 2): $(head -c 600 "$TMP/out")"
}

# FL_SELECTS - fcalls' sleeps in select(): three of 40 ms and two of 300 ms,
# in the kernel's do_select, which nothing else the tests run calls. Their
# total is 720 ms, less up to 1 ms each: select sets the end of its wait
# before it calls do_select (718.26 ms was seen in 7.3 under TCG)
FL_SELECTS="select 0.04 select 0.3 select 0.04 select 0.3 select 0.04"

# fl_how - stderr says how funclatency counted: nothing where the kernel
# times the one function, else that each return is counted in user space
fl_how() {
	if fl_kernel; then
		[ ! -s "$TMP/err" ] || fail "$1: stderr, where the kernel counts: $(cat "$TMP/err")"
	else
		grep -qx 'funclatency: each return is counted in user space, from function_graph.s records' "$TMP/err" ||
			fail "$1: stderr does not say it counts in user space: $(cat "$TMP/err")"
	fi
}

# t_kernel_nsecs - no -p, one function: fcalls' five selects, timed in the
# kernel where it can (else in user space), each in its nanosecond bucket,
# nothing else, and the total of the five
t_kernel_nsecs() {
	why=$(fl_able) || { skip "$why"; return 0; }
	# shellcheck disable=SC2086
	fcalls_stopped $FL_SELECTS || return 1
	traced_run "" "$BIN/funclatency" -d 8 do_select || return 1
	grep -qx '     nsecs               : count     distribution' "$TMP/out" ||
		fail "no nsecs header: $(head -5 "$TMP/out")"
	fl_row 33554432 67108863 3 && fl_row 268435456 536870911 2 ||
		fail "the 40 ms selects (3) and the 300 ms ones (2) not in their buckets: $(cat "$TMP/out")"
	n=$(grep -E '^ +[0-9]+ -> [0-9]+ +: [1-9]' "$TMP/out" | wc -l)
	[ "$n" -eq 2 ] || fail "$n buckets used, wanted 2: $(cat "$TMP/out")"
	t=$(sed -n 's/^avg = [0-9]* nsecs, total: \([0-9]*\) nsecs, count: 5$/\1/p' "$TMP/out")
	[ -n "$t" ] && [ "$t" -ge 715000000 ] && [ "$t" -lt 2000000000 ] ||
		fail "total not 0.715 to 2 s of 5 selects, count 5: $(grep avg "$TMP/out")"
	fl_how "ns"
}

# t_kernel_msecs_json - -m, then -u -j -i 2: the same selects in millisecond
# and microsecond buckets, the intervals adding up to the five
t_kernel_msecs_json() {
	why=$(fl_able) || { skip "$why"; return 0; }
	# shellcheck disable=SC2086
	fcalls_stopped $FL_SELECTS || return 1
	traced_run "" "$BIN/funclatency" -m -d 8 do_select || return 1
	fl_row 32 63 3 && fl_row 256 511 2 ||
		fail "-m: the 40 ms selects (3) and the 300 ms ones (2) not in their buckets: $(cat "$TMP/out")"
	grep -Eq '^avg = [0-9]+ msecs, total: (71[5-9]|7[2-9][0-9]|1[0-9]{3}) msecs, count: 5$' "$TMP/out" ||
		fail "-m: total not 715 ms to 2 s of 5 selects: $(grep avg "$TMP/out")"
	fl_how "-m" || return 1
	# shellcheck disable=SC2086
	fcalls_stopped $FL_SELECTS || return 1
	traced_run "" "$BIN/funclatency" -j -u -i 2 -d 8 do_select || return 1
	json_check "$TMP/out" || return 1
	r=$(jq -s -r '[.[] | select(.tool == "funclatency" and .unit == "usecs")] as $o
		| ($o | map(.count) | add) as $n
		| ([$o[].hist[] | select(.lo == 32768 and .hi == 65536) | .count] | add) as $a
		| ([$o[].hist[] | select(.lo == 262144 and .hi == 524288) | .count] | add) as $b
		| "\($n) \($a) \($b)"' "$TMP/out")
	[ "$r" = "5 3 2" ] || fail "-u -j: count, 40 ms, 300 ms: $r (wanted 5 3 2): $(head -c 600 "$TMP/out")"
	grep -v '^Tracing\|^Ending' "$TMP/err" > "$TMP/err2"
	mv "$TMP/err2" "$TMP/err"
	fl_how "-u -j"
}

# t_kernel_proof - where the kernel would time the function, it is proven on
# known calls first (the tool's own naps, timed in do_nanosleep). With those
# naps cut to a hundredth of what the tool asks (faultinj), the kernel times them
# so: the proof must fail, say so, and the run count in user space,
# still exactly (the selects are another process's, not cut)
t_kernel_proof() {
	why=$(fl_able) || { skip "$why"; return 0; }
	fl_kernel || { skip "no in-kernel timing here: nothing to prove"; return 0; }
	so=$WORKLOADS/faultinj.so
	[ -f "$so" ] || { skip "no $so (make workloads)"; return 0; }
	grep -q 'ld-linux\|ld-musl' "$BIN/funclatency" ||
		{ skip "LD_PRELOAD has no effect on $BIN/funclatency (static binary)"; return 0; }
	# shellcheck disable=SC2086
	fcalls_stopped $FL_SELECTS || return 1
	traced_run "" env FTT_FAULT=nanosleep:100:1 LD_PRELOAD="$so" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$BIN/funclatency" -m -d 8 do_select || return 1
	grep -Eqx "funclatency: the kernel timed known calls wrong \(it timed 3 of 3 known calls, at [0-9]+ ns in all \(29700000 to 3030000000 made\)\): each return is counted in user space, from function_graph's records" "$TMP/err" ||
		fail "stderr does not say the proof failed: $(cat "$TMP/err")"
	n=$(sed -n 's/.*at \([0-9]*\) ns in all.*/\1/p' "$TMP/err")
	[ -n "$n" ] && [ "$n" -ge 300000 ] && [ "$n" -lt 29700000 ] ||
		fail "the proof's naps, cut to 0.1 ms each, timed at ${n:-?} ns in all (wanted 0.3 to 29.7 ms)"
	fl_row 32 63 3 && fl_row 256 511 2 ||
		fail "the 40 ms selects (3) and the 300 ms ones (2) not in their buckets: $(cat "$TMP/out")"
	grep -Eq '^avg = [0-9]+ msecs, total: (71[5-9]|7[2-9][0-9]|1[0-9]{3}) msecs, count: 5$' "$TMP/out" ||
		fail "total not 715 ms to 2 s of 5 selects: $(grep avg "$TMP/out")"
}

t_bad_input() {
	expect_error 2 'missing funcstring' "$BIN/funclatency" || return 1
	expect_error 2 'use either -m or -u' "$BIN/funclatency" -m -u vfs_read || return 1
	expect_error 2 "-i: 'x' is not a number" "$BIN/funclatency" -i x vfs_read || return 1
	expect_error 2 'too many arguments' "$BIN/funclatency" vfs_read extra || return 1
	expect_error 2 'unknown option -F' "$BIN/funclatency" -F vfs_read || return 1
	expect_error 2 'FTT_COUNT must be user or kernel' env FTT_COUNT=both "$BIN/funclatency" vfs_read ||
		return 1
	fl_able > /dev/null || return 0
	expect_error 1 'no traceable kernel function matches "ftt_no_such_fn"' \
		"$BIN/funclatency" -d 1 ftt_no_such_fn || return 1
	# -p: never timed in the kernel, so a forced kernel count is refused
	expect_error 1 '^funclatency: FTT_COUNT=kernel: not timed in the kernel here' \
		env FTT_COUNT=kernel "$BIN/funclatency" -d 1 -p 1 vfs_read
}

# t_exec_cmd - --exec: the 300 ms sleeps of the command's first program, of
# the one it leaves behind and of the shell that waits to start that one (3),
# none of the same program run outside it again and again
t_exec_cmd() {
	why=$(fl_able) || { skip "$why"; return 0; }
	exec_run "$WORKLOADS/fcalls" "sleep 0.3" "$BIN/funclatency" -u do_nanosleep || return 1
	fl_row 262144 524287 3 ||
		fail "--exec: not 3 sleeps of 300 ms: $(cat "$TMP/out")"
	grep -Eq '^avg = [0-9]+ usecs, total: [0-9]+ usecs, count: 3$' "$TMP/out" ||
		fail "--exec: not 3 calls in all: $(grep avg "$TMP/out")"
}

# every exit path (tests/exits.sh)
exit_paths funclatency

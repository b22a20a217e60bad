# SPDX-License-Identifier: GPL-2.0-only
# tests/live/bitesize.sh - bitesize against block I/O of known sizes and numbers
#
# Ground truth: the iowrite workload, copied under a name of the test's own,
# writes BS_W4 blocks of 4 KiB and BS_W64 of 64 KiB, and reads BS_R4 of
# 4 KiB, with O_DIRECT, one at a time, on a private device nothing else uses
# (null_blk in the guests, a loop device here: blk_setup). bitesize counts
# that device only (-d), so every bucket's count is known exactly. For -P it
# reads BS_R4 blocks of 4 KiB and BS_R64 of 64 KiB: on a device without a
# scheduler reads are issued in the reader's context, so they are all the
# workload's own, by name (null_blk's writes are issued by kblockd's workers
# even then: seen on 5.10 and 6.1). Each test counts the way
# bitesize chooses here (in the kernel where it has hist triggers); the
# *_user tests run the same checks with FTT_COUNT=user where the kernel
# counts by default.

BS_W4=37 BS_W64=11 BS_R4=5 BS_R64=13

# bs_hist - the kernel has hist triggers (its tracing README documents them)
bs_hist() { grep -q 'hist:keys=' "$T/README" 2>/dev/null; }

# bs_user - skip unless the kernel counts by default (then FTT_COUNT=user is another way)
bs_user() {
	bs_hist && return 0
	skip "no hist triggers in this kernel: every other test counts in user space already"
	return 1
}

# bs_run ARGS... - bitesize ARGS -d DEV1 while the workload (named bsz<PID>)
# does its I/O there (reads only with BS_READS=1), stopped by SIGINT; output
# in $TMP/out, $TMP/err
bs_run() {
	BS_NAME=bsz$$
	cp "$WORKLOADS/iowrite" "$TMP/$BS_NAME" || { fail "cannot copy iowrite"; return 1; }
	if [ -n "${BS_COUNT:-}" ]; then export FTT_COUNT="$BS_COUNT"; else unset FTT_COUNT; fi
	start_tool "$BIN/bitesize" "$@" -d "$DEV1"
	rc=$?
	unset FTT_COUNT
	[ $rc = 0 ] || { stop_tool_rc; fail "did not start: $(head -c 300 "$TMP/err")"; return 1; }
	if [ "${BS_READS:-0}" = 1 ]; then
		"$TMP/$BS_NAME" -r "$DEV1" 64 4096 $BS_R4 && "$TMP/$BS_NAME" -r "$DEV1" 1024 65536 $BS_R64
	else
		"$TMP/$BS_NAME" "$DEV1" 64 4096 $BS_W4 && "$TMP/$BS_NAME" "$DEV1" 1024 65536 $BS_W64 &&
			"$TMP/$BS_NAME" -r "$DEV1" 64 4096 $BS_R4
	fi || fail "iowrite failed"
	stop_tool || return 1
	bs_path_said
}

# bs_path_said - stderr says "counting in user space" (once) exactly when it did
bs_path_said() {
	n=$(grep -c 'counting in user space' "$TMP/err")
	if [ "${BS_COUNT:-}" = user ] || ! bs_hist; then
		[ "$n" = 1 ] || fail "stderr does not say once that it counts in user space: $(head -c 300 "$TMP/err")"
	else
		[ "$n" = 0 ] || fail "counted in user space on a kernel with hist triggers: $(head -c 300 "$TMP/err")"
	fi
}

# bs_rows [FILE] - the table's rows as "LO..HI=COUNT" on one line
bs_rows() {
	sed -n 's/^ *\([0-9.]*\) -> \([0-9.]*\) *: \([0-9]*\) *|.*|$/\1..\2=\3/p' "${1:-$TMP/out}" | tr '\n' ' '
}

# the rows of the workload's I/O in the default buckets
BS_WANT="..0.9=0 1.0..7.9=$((BS_W4 + BS_R4)) 8.0..63.9=0 64.0..127.9=$BS_W64 128.0..=0 "
# and of its reads (BS_READS=1)
BS_WANT_R="..0.9=0 1.0..7.9=$BS_R4 8.0..63.9=0 64.0..127.9=$BS_R64 128.0..=0 "

# t_sizes - the default Kbyte buckets, the original's banner and header, exact counts
t_sizes() { bs_sizes; }
t_sizes_user() { bs_user || return 0; BS_COUNT=user; bs_sizes; r=$?; BS_COUNT=; return $r; }
bs_sizes() {
	blk_setup || { skip "no null_blk and no loop device"; return 0; }
	bs_run
	r=$?
	blk_teardown
	[ $r = 0 ] || return 1
	[ "$(head -n 1 "$TMP/out")" = "Tracing block I/O size (bytes) on $MM1 ($NM1), until Ctrl-C..." ] ||
		fail "banner: $(head -n 1 "$TMP/out")"
	grep -qx '            Kbytes         : I/O      Distribution' "$TMP/out" || fail "header: $(sed -n 3p "$TMP/out")"
	got=$(bs_rows)
	[ "$got" = "$BS_WANT" ] || fail "rows: got '$got', wanted '$BS_WANT'"
	grep -q '^          1\.0 -> 7\.9       : [0-9]* *|######################################|$' "$TMP/out" ||
		fail "row format: $(cat "$TMP/out")"
}

# bs_direct - the device without an I/O scheduler, so that each request is
# issued in its submitter's context (with one, null_blk's requests are issued
# by kblockd's workers: seen on 5.10); BS_SCHED keeps the one it had
bs_direct() {
	f=/sys/block/$NM1/queue/scheduler
	BS_SCHED=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$f" 2>/dev/null)
	[ -z "$BS_SCHED" ] || [ "$BS_SCHED" = none ] || echo none > "$f" 2>/dev/null ||
		{ fail "cannot set $f to none"; return 1; }
}

# bs_undirect - the device's scheduler back to what it was
bs_undirect() {
	[ -z "$BS_SCHED" ] || [ "$BS_SCHED" = none ] || echo "$BS_SCHED" > "/sys/block/$NM1/queue/scheduler"
}

# bs_sum - the rows of every histogram of $TMP/out added up, as bs_rows
bs_sum() {
	sed -n 's/^ *\([0-9.]*\) -> \([0-9.]*\) *: \([0-9]*\) *|.*|$/\1..\2 \3/p' "$TMP/out" |
		awk '{ if (!($1 in n)) o[++k] = $1; n[$1] += $2 } END { for (i = 1; i <= k; i++) printf "%s=%d ", o[i], n[o[i]] }'
}

# t_per_process - -P: one histogram after each "Process Name = NAME"; all of
# them add up to the workload's reads, and, those being issued in the
# reader's context (no scheduler), the workload's own holds all of them
t_per_process() { bs_per_process; }
t_per_process_user() { bs_user || return 0; BS_COUNT=user; bs_per_process; r=$?; BS_COUNT=; return $r; }
bs_per_process() {
	blk_setup || { skip "no null_blk and no loop device"; return 0; }
	BS_READS=1
	bs_direct && bs_run -P
	r=$?
	BS_READS=
	bs_undirect
	blk_teardown
	[ $r = 0 ] || return 1
	got=$(bs_sum)
	[ "$got" = "$BS_WANT_R" ] || fail "all processes' rows: got '$got', wanted '$BS_WANT_R'"
	names=$(sed -n 's/^Process Name = //p' "$TMP/out" | tr '\n' ' ')
	[ "$names" = "$BS_NAME " ] || fail "processes: '$names', wanted '$BS_NAME ' (issued by another task?)"
	awk -v n="Process Name = $BS_NAME" '$0 == n { on = 1; next } /^Process Name = / { on = 0 } on' "$TMP/out" > "$TMP/own"
	got=$(bs_rows "$TMP/own")
	[ "$got" = "$BS_WANT_R" ] || fail "$BS_NAME's rows: got '$got', wanted '$BS_WANT_R'"
}

# t_json - -j -b: one object per histogram, in bytes, exact counts
t_json() {
	blk_setup || { skip "no null_blk and no loop device"; return 0; }
	BS_READS=1
	bs_direct && bs_run -j -P -b "4 64"
	r=$?
	BS_READS=
	bs_undirect
	blk_teardown
	[ $r = 0 ] || return 1
	json_check "$TMP/out" || return 1
	want="\"comm\":\"$BS_NAME\",\"unit\":\"bytes\",\"buckets\":[{\"min\":null,\"max\":4095,\"count\":0},{\"min\":4096,\"max\":65535,\"count\":$BS_R4},{\"min\":65536,\"max\":null,\"count\":$BS_R64}]}"
	[ "$(grep -c . "$TMP/out")" = 1 ] && grep -qF "$want" "$TMP/out" ||
		fail "got $(head -c 600 "$TMP/out"), wanted $want"
}

# t_duration - the seconds operand ends the run by itself, with the table
t_duration() {
	timeout -k 5 $((30 * SLOW)) "$BIN/bitesize" 1 > "$TMP/out" 2> "$TMP/err" ||
		{ fail "exit $?: $(head -c 300 "$TMP/err")"; return 1; }
	[ "$(head -n 1 "$TMP/out")" = "Tracing block I/O size (bytes), for 1 seconds..." ] ||
		fail "banner: $(head -n 1 "$TMP/out")"
	[ "$(bs_rows | wc -w)" = 5 ] || fail "rows: $(bs_rows)"
}

# t_kernel_path - where the kernel counts: a hist trigger on block_rq_issue keyed
# by bytes and comm, and the event not enabled (nothing copied)
t_kernel_path() {
	bs_hist || { skip "no hist triggers in this kernel"; return 0; }
	start_tool "$BIN/bitesize" -P || { stop_tool_rc; fail "did not start: $(head -c 300 "$TMP/err")"; return 1; }
	I=$(run_inst bitesize "$TOOL_PID")
	grep -q '^hist:keys=bytes,comm:vals=hitcount' "$I/events/block/block_rq_issue/trigger" 2>/dev/null ||
		fail "trigger: $(cat "$I/events/block/block_rq_issue/trigger" 2>&1)"
	[ "$(cat "$I/events/block/block_rq_issue/enable")" != 1 ] || fail "the event is enabled: copied"
	stop_tool
}

t_bad_input() {
	expect_error 2 "bucket list must increase" "$BIN/bitesize" -b "8 1" 1 || return 1
	expect_error 2 "-b: .*not a list of integers" "$BIN/bitesize" -b "1.5 8" 1 || return 1
	expect_error 2 "-b: .*out of range" "$BIN/bitesize" -b "-1 8" 1 || return 1
	expect_error 2 "-b: no buckets" "$BIN/bitesize" -b " " 1 || return 1
	expect_error 2 "seconds: .*not a number" "$BIN/bitesize" x || return 1
	expect_error 2 "too many arguments" "$BIN/bitesize" 1 2 || return 1
	expect_error 2 "-d: " "$BIN/bitesize" -d no-such-disk-ftt 1 || return 1
	expect_error 2 "unknown option -Z" "$BIN/bitesize" -Z || return 1
}

exit_paths bitesize

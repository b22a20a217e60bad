# tests/live/iolatency.sh - iolatency against O_DIRECT I/O of known count on a private device
#
# Ground truth: the iowrite helper (or dd) does a known number of I/Os on a
# null_blk (qemu) or loop device (host) that nothing else uses; the counts of
# every summary printed must add up to exactly that number.

# lat_run ARGS... - iolatency ARGS, "io_work" once it traces; it must end by itself
lat_run() {
	rm -f "$TMP/out" "$TMP/err"	# no earlier banner (start_tool)
	"$BIN/iolatency" "$@" > "$TMP/out" 2> "$TMP/err" &
	P=$!
	wait_for_line "$TMP/out" '^Tracing' 300 || { kill $P; fail "iolatency $* did not start: $(cat "$TMP/err")"; return 1; }
	io_work
	wait_gone $P 600 || { kill -KILL $P; fail "iolatency $* did not end after its count"; return 1; }
	wait $P
	rc=$?
	[ $rc = 0 ] || { fail "iolatency $*: exit $rc: $(cat "$TMP/err")"; return 1; }
}

# total - sum of the I/O column over every histogram row in $TMP/out
total() { awk '$2 == "->" && $4 == ":" { n += $5 } END { print n + 0 }' "$TMP/out"; }

t_count_exact() {
	blk_setup || { skip "no null_blk and no loop device"; return 0; }
	io_work() { dd if=/dev/zero of="$DEV1" bs=65536 count=5 oflag=direct 2>/dev/null; }
	lat_run -d "$MM1" 1 3
	blk_teardown
	[ "$(head -1 "$TMP/out")" = "Tracing block I/O. Output every 1 seconds." ] ||
		{ fail "banner: $(head -1 "$TMP/out")"; return 1; }
	[ "$(grep -c '^  >=(ms) .. <(ms)   : I/O      |Distribution                          |$' "$TMP/out")" = 3 ] ||
		{ fail "wanted 3 summaries: $(cat "$TMP/out")"; return 1; }
	[ "$(total)" = 5 ] || { fail "counted $(total) I/O, wanted 5: $(cat "$TMP/out")"; return 1; }
	grep -Eq '^       0 -> 1       : [0-9]+ +\|#*  *\|$|^       0 -> 1       : [0-9]+ +\|#{38}\|$' "$TMP/out" ||
		fail "row format: $(grep -- '->' "$TMP/out" | head -2)"
}

t_type_filter() {
	blk_setup || { skip "no null_blk and no loop device"; return 0; }
	io_work() { "$HELPERS/iowrite" "$DEV1" 0 4096 4; "$HELPERS/iowrite" -r "$DEV1" 0 4096 3; }
	lat_run -i '*R*' -d "$MM1" 1 3
	blk_teardown
	[ "$(total)" = 3 ] || fail "-i '*R*' counted $(total), wanted the 3 reads: $(cat "$TMP/out")"
}

t_dev_filter() {
	blk_setup || { skip "no null_blk and no loop device"; return 0; }
	io_work() { "$HELPERS/iowrite" "$DEV1" 0 4096 4; "$HELPERS/iowrite" "$DEV2" 0 4096 2; }
	lat_run -d "$MM2" 1 3
	blk_teardown
	[ "$(total)" = 2 ] || fail "-d $MM2 counted $(total), wanted 2: $(cat "$TMP/out")"
}

t_per_disk() {
	blk_setup || { skip "no null_blk and no loop device"; return 0; }
	io_work() { "$HELPERS/iowrite" "$DEV1" 0 4096 3; "$HELPERS/iowrite" "$DEV2" 0 4096 2; }
	lat_run -D -i '*W*' 1 3
	blk_teardown
	for d in "$MM1:3" "$MM2:2"; do
		n=$(awk -v d="${d%:*}" '/^disk = / { on = ($3 == d) } on && $2 == "->" { n += $5 } END { print n + 0 }' "$TMP/out")
		[ "$n" = "${d#*:}" ] || { fail "-D: disk ${d%:*} counted $n, wanted ${d#*:}: $(cat "$TMP/out")"; return 1; }
	done
}

t_usecs_timestamps() {
	blk_setup || { skip "no null_blk and no loop device"; return 0; }
	io_work() { "$HELPERS/iowrite" "$DEV1" 0 4096 4; }
	lat_run -mT -d "$MM1" 1 2
	blk_teardown
	[ "$(grep -c '^  >=(us) .. <(us)   : I/O ' "$TMP/out")" = 2 ] || { fail "-m header: $(cat "$TMP/out")"; return 1; }
	[ "$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}:$' "$TMP/out")" = 2 ] || { fail "-T lines: $(cat "$TMP/out")"; return 1; }
	[ "$(total)" = 4 ] || fail "-m counted $(total), wanted 4"
}

t_queue() {
	blk_setup || { skip "no null_blk and no loop device"; return 0; }
	io_work() { "$HELPERS/iowrite" "$DEV1" 0 4096 6; }
	lat_run -Q -d "$MM1" 1 3
	blk_teardown
	[ "$(total)" = 6 ] || fail "-Q counted $(total), wanted 6: $(cat "$TMP/out")"
}

t_sigint() {
	start_tool "$BIN/iolatency" 0.3 || { fail "did not start: $(cat "$TMP/err")"; return 1; }
	sleep 1
	stop_tool || return 1
	[ "$TOOL_RC" = 0 ] || { fail "exit $TOOL_RC after SIGINT"; return 1; }
	grep -q '^Ending tracing\.\.\.$' "$TMP/out" || fail "no 'Ending tracing...'"
}

t_head_ends() {
	( "$BIN/iolatency" 0.2 | head -n 3 > "$TMP/out" ) & P=$!
	wait_gone $P 100 || { kill $P; fail "iolatency | head -n 3 still running after 10 s"; return 1; }
	[ "$(wc -l < "$TMP/out")" = 3 ] || fail "head saw: $(cat "$TMP/out")"
}

t_bad_input() {
	expect_error 2 'iolatency: -d' "$BIN/iolatency" -d x,1 || return 1
	expect_error 2 'iolatency: -i' "$BIN/iolatency" -i 'W"' || return 1
	expect_error 2 'iolatency: interval' "$BIN/iolatency" 0 || return 1
	expect_error 2 'iolatency: count' "$BIN/iolatency" 1 0 || return 1
	expect_error 2 'too many' "$BIN/iolatency" 1 2 3 || return 1
	expect_error 2 'unknown option' "$BIN/iolatency" -x || return 1
	"$BIN/iolatency" -h > "$TMP/h" 2>&1 && grep -q '^USAGE: iolatency' "$TMP/h" || fail "-h: $(head -2 "$TMP/h")"
}

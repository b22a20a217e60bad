# SPDX-License-Identifier: GPL-2.0-only
# tests/live/cachestat.sh - cachestat against reads of a file the tests write,
# drop from the page cache and read again, on a filesystem of their own
#
# Needs kprobes (or the function profiler), a readable function list, and an
# ext4 filesystem on a loop device (the guests load both modules); on a
# kernel without kprobes (this host) only the refusal and the argument checks
# run.

# cs_able - can this kernel run cachestat? (else the reason, for skip)
cs_able() { kcount_able; }

# cs_fs_setup - a 32 MiB ext4 filesystem on a loop device, mounted at CSMNT
# (the busybox mke2fs of the guests makes ext2, which the ext4 driver mounts);
# returns 1 with WHY if impossible
cs_fs_setup() {
	CSDEV= CSMNT=$TMP/csmnt
	modprobe loop 2>/dev/null
	modprobe crc32c_generic 2>/dev/null	# 5.10's ext4 needs it and does not load it
	modprobe ext4 2>/dev/null
	dd if=/dev/zero of="$TMP/cs.img" bs=1024 count=0 seek=32768 2>/dev/null || { WHY="no image file"; return 1; }
	CSDEV=$(losetup -f) && losetup "$CSDEV" "$TMP/cs.img" 2>/dev/null || { CSDEV=; WHY="no loop device"; return 1; }
	mke2fs -q "$CSDEV" > /dev/null 2>&1 || { cs_fs_teardown; WHY="mke2fs failed"; return 1; }
	mkdir -p "$CSMNT"
	mount -t ext4 "$CSDEV" "$CSMNT" 2>/dev/null || { cs_fs_teardown; WHY="cannot mount ext4 (no ext4 module?)"; return 1; }
}

cs_fs_teardown() {
	umount "$CSMNT" 2>/dev/null
	[ -n "$CSDEV" ] && losetup -d "$CSDEV"
	CSDEV=
}

# cs_rows_check - every row of $TMP/out (cachestat -D) holds what its four
# counts give: hits, misses and the ratio as perf-tools derives them, and
# the buffer dirties as DIRTIES; sets HITS and MISSES, the sums of all rows
cs_rows_check() {
	r=$(awk '/^ *HITS +MISSES +DIRTIES +RATIO +BUFFERS_MB +CACHE_MB  DEBUG$/ { on = 1; next }
		!on || /^Ending/ || NF == 0 { next }
		{
			n++
			a = $7; sub(/^\(/, "", a); d = $10; sub(/\)$/, "", d)
			a += 0; b = $8 + 0; m = $9 + 0; d += 0
			total = a > b ? a - b : 0; mis = m > d ? m - d : 0; hit = total > mis ? total - mis : 0
			if ($1 != hit || $2 != mis || $3 != b) { bad = bad " row " n ": " $0; next }
			want = hit + mis ? sprintf("%.1f%%", 100 * hit / (hit + mis)) : "-"
			if ($4 != want) bad = bad " row " n " ratio " $4 " not " want
			h += hit; s += mis
		}
		END { print (n + 0) " " (h + 0) " " (s + 0) " " (bad ? bad : "ok") }' "$TMP/out")
	set -- $r
	ROWS=$1 HITS=$2 MISSES=$3
	shift 3
	[ "$*" = ok ] || fail "rows not derived from their counts:$*: $(cat "$TMP/out")"
}

t_refusal() {
	if why=$(cs_able); then
		skip "kernel can count functions; refusal not applicable"
		return 0
	fi
	expect_error 1 '^cachestat: this kernel (cannot count the page-cache functions: no kprobes|does not allow counting functions)' \
		"$BIN/cachestat" 1 1
}

# t_misses_hits - a file of 1024 pages, dropped and read once, then read four
# times more: the rows' misses and hits are those reads, in the unit the
# kernel's functions count (pages before the folio conversion, folios after)
t_misses_hits() {
	why=$(cs_able) || { skip "$why"; return 0; }
	cs_fs_setup || { skip "$WHY"; return 0; }
	dd if=/dev/urandom of="$CSMNT/f" bs=4096 count=1024 2>/dev/null
	sync
	# no polling while it counts (a shell loop's sleeps read files too):
	# the tool ends by itself, and timeout stops it if it does not
	TMPDIR=$CSMNT start_tool timeout -s INT $((60 * SLOW)) "$BIN/cachestat" -D 1 8 ||
		{ cs_fs_teardown; fail "did not start: $(cat "$TMP/err")"; return 1; }
	echo 1 > /proc/sys/vm/drop_caches
	sleep 1.2
	cat "$CSMNT/f" > /dev/null
	sleep 1.2
	for i in 1 2 3 4; do cat "$CSMNT/f" > /dev/null; done
	wait $TOOL_PID || { cs_fs_teardown; fail "exit status $?: $(cat "$TMP/err")"; return 1; }
	cs_fs_teardown
	head -1 "$TMP/out" | grep -qx 'Counting cache functions... Output every 1 seconds.' ||
		fail "banner: $(head -1 "$TMP/out")"
	cs_rows_check || return 1
	[ "$ROWS" -eq 8 ] || fail "1 8: $ROWS rows, wanted 8: $(cat "$TMP/out")"
	unit=$(sed -n 's/^cachestat: counting \([a-z]*\).*/\1/p' "$TMP/err")
	for f in $(sed -n 's/^cachestat: counting [^:]*: //p' "$TMP/err" | tr -d ,); do
		grep -q "^$f\( \|$\)" "$T/available_filter_functions" || fail "stderr names $f, which the kernel cannot trace"
	done
	case $unit in
	pages)
		# each page of the file added once; little else reads files here
		[ "$MISSES" -ge 1024 ] && [ "$MISSES" -lt 1200 ] ||
			fail "misses: $MISSES, wanted the file's 1024 pages: $(cat "$TMP/out")"
		[ "$HITS" -ge 4096 ] ||
			fail "hits: $HITS, wanted the 4 reads of 1024 pages: $(cat "$TMP/out")"
		;;
	folios)
		# a folio holds one page or more: at least one, at most a page each
		[ "$MISSES" -ge 1 ] && [ "$MISSES" -lt 1200 ] ||
			fail "misses: $MISSES, wanted 1 to 1024 folios: $(cat "$TMP/out")"
		[ "$HITS" -ge $((4 * MISSES)) ] ||
			fail "hits: $HITS, wanted each of the $MISSES folios for each of 4 reads: $(cat "$TMP/out")"
		;;
	*)	fail "stderr does not name the unit: $(cat "$TMP/err")" ;;
	esac
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
}

# t_memory_proof - a TMPDIR in memory cannot prove the counts: refused
t_memory_proof() {
	why=$(cs_able) || { skip "$why"; return 0; }
	mkdir -p "$TMP/shm"
	mount -t tmpfs none "$TMP/shm" || { skip "cannot mount a tmpfs"; return 0; }
	TMPDIR=$TMP/shm expect_error 1 "^cachestat: cannot prove the page-cache counts: $TMP/shm is in memory" \
		"$BIN/cachestat" 1 1
	umount "$TMP/shm"
}

# t_json - -j: one object per interval, its numbers derived from its counts
t_json() {
	why=$(cs_able) || { skip "$why"; return 0; }
	cs_fs_setup || { skip "$WHY"; return 0; }
	dd if=/dev/urandom of="$CSMNT/f" bs=4096 count=256 2>/dev/null
	TMPDIR=$CSMNT start_tool "$BIN/cachestat" -j 1 3 ||
		{ cs_fs_teardown; fail "did not start: $(cat "$TMP/err")"; return 1; }
	cat "$CSMNT/f" > /dev/null
	wait_gone $TOOL_PID $((100 * SLOW)) || { kill -KILL $TOOL_PID; cs_fs_teardown; fail "-j 1 3 did not end"; return 1; }
	wait $TOOL_PID || { cs_fs_teardown; fail "exit status $?: $(cat "$TMP/err")"; return 1; }
	cs_fs_teardown
	json_check "$TMP/out" || return 1
	r=$(jq -s -r 'map(select(.tool == "cachestat")) as $o
		| [$o[] | select((.hits | type) == "number" and (.misses | type) == "number"
			and (.cached_kb | type) == "number" and (.unit == "page" or .unit == "folio")
			and (if .hits + .misses > 0 then .ratio == ((.hits * 10000 / (.hits + .misses) + 0.5) | floor) / 100
			     else .ratio == null end))] | "\($o | length) \(length)"' "$TMP/out")
	[ "$r" = "3 3" ] || fail "-j: objects, well-formed: $r (wanted 3 3): $(head -c 600 "$TMP/out")"
}

t_bad_input() {
	expect_error 2 '^cachestat: interval: ' "$BIN/cachestat" 0 || return 1
	expect_error 2 '^cachestat: interval: ' "$BIN/cachestat" 1x || return 1
	expect_error 2 '^cachestat: count: ' "$BIN/cachestat" 1 0 || return 1
	expect_error 2 '^cachestat: too many arguments' "$BIN/cachestat" 1 2 3 || return 1
	expect_error 2 '^cachestat: unknown option -x' "$BIN/cachestat" -x
}
exit_paths cachestat

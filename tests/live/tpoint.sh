# SPDX-License-Identifier: GPL-2.0-only
# tests/live/tpoint.sh - tpoint against events the tests cause themselves

# mkprog - a uniquely named executable script in $TMP that exits 0
mkprog() {
	printf '#!/bin/sh\nexit 0\n' > "$TMP/$1"
	chmod +x "$TMP/$1"
}

# tp_exec_once NAME PID - the exec of $TMP/NAME by PID is shown once, as the
# kernel prints it (<...> for a name it has not saved yet)
tp_exec_once() {
	want=" *(<\\.\\.\\.>|[^ ]+)-$2 +\\[[0-9]{3}\\] [^ ]+ +[0-9]+\\.[0-9]{6}: sched_process_exec: filename=$TMP/$1 pid=$2 old_pid=$2"
	[ "$(grep -Ecx -- "$want" "$TMP/out")" = 1 ] ||
		fail "wanted one line /$want/; got: $(grep "$1" "$TMP/out" | head -5)"
}

t_exec() {
	mkprog "tp_exec_$$"
	start_tool "$BIN/tpoint" sched:sched_process_exec || { fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$TMP/tp_exec_$$" &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "sched_process_exec: filename=$TMP/tp_exec_$$ " 50 ||
		fail "exec of $TMP/tp_exec_$$ not seen"
	stop_tool || return 1
	tp_exec_once "tp_exec_$$" $h
	[ "$TOOL_RC" = 0 ] || fail "exit status $TOOL_RC after SIGINT"
	head -1 "$TMP/out" | grep -qx 'Tracing sched:sched_process_exec. Ctrl-C to end.' ||
		fail "banner: $(head -1 "$TMP/out")"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...' at the end"
	# ftrace's comm-pid form, with the name the exec gave the task (its
	# rename comes before the exec event)
	grep "filename=$TMP/tp_exec_$$ " "$TMP/out" | grep -Eq "^ *tp_exec_$$-$h +\[[0-9]{3}\] " ||
		fail "line not in comm-pid [cpu] form: $(grep tp_exec "$TMP/out")"
	[ ! -s "$TMP/err" ] || fail "stderr not empty: $(cat "$TMP/err")"
}

# t_syscalls - system call events in the kernel's form, read in binary by two
# tpoints side by side: each of the ftt_open workload's two opens once on entry, with its
# arguments, and once on return, with the fd or -ENOENT, under the name it gave
# itself. The workload is static and waits for a go file, so with -p its two
# opens are the only openat calls either tpoint can see.
t_syscalls() {
	echo data > "$TMP/tp_file"
	rm -f "$TMP/out2" "$TMP/go"
	"$WORKLOADS/ftt_open" --comm=tpsys_$$ --go="$TMP/go" --hold=300 --flags=02400000 \
		"$TMP/tp_file" "$TMP/tp_missing" > "$TMP/res" &
	h=$!
	"$BIN/tpoint" -p $h syscalls:sys_exit_openat > "$TMP/out2" 2> "$TMP/err2" &
	ex=$!
	wait_for_line "$TMP/out2" '^Tracing' 100 ||
		{ kill $ex $h; fail "exit tpoint did not start: $(cat "$TMP/err2")"; return 1; }
	start_tool "$BIN/tpoint" -p $h syscalls:sys_enter_openat ||
		{ kill $ex $h; fail "did not start: $(cat "$TMP/err")"; return 1; }
	touch "$TMP/go"
	wait $h
	wait_for_line "$TMP/out2" "^ *tpsys_$$-$h .*0xfffffffffffffffe" 50
	i=0
	while [ "$(grep -c 0xa0000 "$TMP/out")" -lt 2 ] && [ $i -lt $((50 * SLOW)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	stop_tool || { kill $ex; return 1; }
	kill -INT $ex
	wait $ex || fail "exit tpoint: exit status $?"
	fd=$(grep " $TMP/tp_file\$" "$TMP/res" | cut -d' ' -f1)
	[ -n "$fd" ] && [ "$fd" -ge 0 ] || { fail "ftt_open could not open $TMP/tp_file: $(cat "$TMP/res")"; return 1; }
	# dfd AT_FDCWD, flags O_RDONLY|O_NOFOLLOW|O_CLOEXEC; mode is not passed
	# since 6.19 the event carries the path too, shown after the pointer
	fv=
	grep -q ' __filename_val;' "$T/events/syscalls/sys_enter_openat/format" &&
		fv=" \"($TMP/tp_file|$TMP/tp_missing)\""
	enter=" *tpsys_$$-$h +\[[0-9]{3}\] [^ ]+ +[0-9]+\.[0-9]{6}: sys_openat\(dfd: 0xffffff9c, filename: 0x[0-9a-f]+$fv, flags: 0xa0000, mode: [0-9a-fx]+\)"
	c=$(grep -Ecx "$enter" "$TMP/out")
	[ "$c" = 2 ] || fail "$c entry lines of the form wanted, not 2: $(grep -- "-$h " "$TMP/out")"
	c=$(grep -vc '^Tracing\|^Ending\|^$' "$TMP/out")
	[ "$c" = 2 ] || fail "$c lines traced on entry, not 2: $(cat "$TMP/out")"
	for r in "0x$(printf %x "$fd")" 0xfffffffffffffffe; do
		grep -Eqx " *tpsys_$$-$h +\[[0-9]{3}\] [^ ]+ +[0-9]+\.[0-9]{6}: sys_openat -> $r" "$TMP/out2" ||
			fail "no return line '-> $r': $(cat "$TMP/out2")"
	done
	c=$(grep -vc '^Tracing\|^Ending\|^$' "$TMP/out2")
	[ "$c" = 2 ] || fail "$c lines traced on return, not 2: $(cat "$TMP/out2")"
	[ ! -s "$TMP/err" ] && [ ! -s "$TMP/err2" ] || fail "stderr: $(cat "$TMP/err" "$TMP/err2")"
}

# t_comm_at_event - a process started before tpoint opens a file and renames
# itself right after, while both tpoints (text and -j) are stopped: the open's
# row names the task as it was at the open, never as it is when the row is read
t_comm_at_event() {
	echo data > "$TMP/tp_file"
	rm -f "$TMP/go" "$TMP/out2"
	"$WORKLOADS/ftt_open" --comm=tpca_$$ --go="$TMP/go" --hold=3000 "$TMP/tp_file" \
		--comm=tpcb_$$ > /dev/null &
	h=$!
	sleep 0.3
	"$BIN/tpoint" -j -p $h syscalls:sys_enter_openat > "$TMP/out2" 2> "$TMP/err2" &
	js=$!
	wait_for_line "$TMP/err2" '^Tracing' 100 ||
		{ kill $js $h; fail "-j tpoint did not start: $(cat "$TMP/err2")"; return 1; }
	start_tool "$BIN/tpoint" -p $h syscalls:sys_enter_openat ||
		{ kill $js $h; fail "did not start: $(cat "$TMP/err")"; return 1; }
	kill -STOP $TOOL_PID $js
	touch "$TMP/go"
	n=0
	until [ "$(cat "/proc/$h/comm" 2>/dev/null)" = "tpcb_$$" ] || [ $n -ge $((50 * SLOW)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	sleep 0.5
	kill -CONT $TOOL_PID $js
	wait_for_line "$TMP/out" "^ *tp.._$$-$h .*sys_openat" 50
	wait_for_line "$TMP/out2" "\"pid\":$h," 50
	stop_tool || { kill $js; return 1; }
	kill -INT $js
	wait $js || fail "-j tpoint: exit status $?"
	wait $h
	grep -Eq "^ *tpca_$$-$h +\[[0-9]{3}\] .*sys_openat\(" "$TMP/out" ||
		fail "text: the open not under the name at the open (tpca_$$): $(grep -- "-$h " "$TMP/out")"
	! grep -q "tpcb_$$" "$TMP/out" || fail "text: the later name tpcb_$$ shown"
	[ "$(jq -r "select(.pid == $h) | .comm" "$TMP/out2" | sort -u)" = "tpca_$$" ] ||
		fail "-j: comm of PID $h's open: $(jq -c "select(.pid == $h) | .comm" "$TMP/out2"), want tpca_$$"
}

# t_kernel_text - what tpoint prints after the timestamp is what the kernel
# prints for the same events: an instance of the test's own records them
# beside tpoint and its trace file is the kernel's text. block_rq_issue has
# __print_symbolic with constants only the kernel's BTF names (ioprio class,
# 6.x); sched_process_exec a string field. Block I/O is picked by device: a
# request may be issued by a kernel worker, not by dd (null_blk, 5.10).
t_kernel_text() {
	blk_setup || { skip "no null_blk and no loop device"; return 0; }
	I=$T/instances/ftt_test_text_$$
	mkdir "$I" || { blk_teardown; fail "cannot create $I"; return 1; }
	# the kernel's dev_t: major << 20 | minor
	dev=$(( (${MM1%,*} << 20) | ${MM1#*,} ))
	ok=1
	for e in block:block_rq_issue sched:sched_process_exec; do
		case $e in block:*) f="dev == $dev" ;; *) f='comm == "dd"' ;; esac
		echo "$f" > "$I/events/${e%:*}/${e#*:}/filter"
		echo 1 > "$I/events/${e%:*}/${e#*:}/enable"
		start_tool "$BIN/tpoint" $e "$f" || { fail "$e did not start: $(cat "$TMP/err")"; ok=0; break; }
		dd if=/dev/zero of="$DEV1" bs=4k count=3 oflag=direct 2>/dev/null
		dd if="$DEV1" of=/dev/null bs=4k count=2 skip=5 iflag=direct 2>/dev/null
		sleep 0.3
		stop_tool || { ok=0; break; }
		echo 0 > "$I/events/${e%:*}/${e#*:}/enable"
		echo 0 > "$I/events/${e%:*}/${e#*:}/filter"
		ev=${e#*:}
		grep -v '^#' "$I/trace" | grep ": $ev: " | sed "s/.*: $ev: /$ev: /" > "$TMP/kernel.$ev"
		grep ": $ev: " "$TMP/out" | sed "s/.*: $ev: /$ev: /" > "$TMP/ours.$ev"
		echo > "$I/trace"
		[ -s "$TMP/kernel.$ev" ] || { fail "$ev: the kernel recorded nothing"; ok=0; continue; }
		cmp -s "$TMP/kernel.$ev" "$TMP/ours.$ev" ||
			{ fail "$ev differs from the kernel's text: $(diff "$TMP/kernel.$ev" "$TMP/ours.$ev" | head -6)"; ok=0; }
	done
	for e in block/block_rq_issue sched/sched_process_exec; do
		echo 0 > "$I/events/$e/enable"
		echo 0 > "$I/events/$e/filter"
	done
	rmdir "$I"
	blk_teardown
	[ $ok = 1 ]
}

# flag_rows FILE - "CPU PID FLAGS USECS EVENT: FIELDS" for each event line of
# FILE, ftrace's text (the kernel's trace file or tpoint's output), less the
# pointer net_dev_queue prints (%p: the kernel's text hashes it)
flag_rows() {
	grep -v '^#' "$1" | sed -nE 's/ skbaddr=[^ ]+//; s/^.*-([0-9]+) +\[([0-9]+)\] ([^ ]+) +([0-9]+)\.([0-9]{6}): (.*)$/\2 \1 \3 \4\5 \6/p'
}

# t_kernel_flags - the flags column (irqs-off, need-resched, hardirq/softirq,
# preempt and migrate-disable depths) is the kernel's own for the same
# records: an instance of the test's own records the events beside tpoint,
# and each of tpoint's rows is set against the one row of the kernel's text
# with the same CPU, PID and fields stamped within 50 us (the two instances
# stamp a record apart), when no other row of either text with the same CPU,
# PID and fields is stamped within 100 us of it (such rows could be paired
# crosswise: they are left out).
# sched_waking comes with irqs off, in interrupts and at preempt depths;
# softirq_entry in softirqs; net_dev_queue with bottom halves disabled, which
# 5.18+ shows as "b" or "D". need-resched can be set by an interrupt between
# the two instances' records of one event, so that column may differ in a
# few rows; no other may.
t_kernel_flags() {
	I=$T/instances/ftt_test_flags_$$
	mkdir "$I" || { fail "cannot create $I"; return 1; }
	# tpoint stamps with the mono clock where there is one
	echo mono > "$I/trace_clock" 2>/dev/null
	case $(uname -r) in
	[1-4].*|5.[0-9].*|5.1[0-7].*) bh=0 ;;
	*) bh=1 ;;
	esac
	ok=1 all1=0 all3=0 all4=0
	for e in sched:sched_waking irq:softirq_entry net:net_dev_queue; do
		d=$I/events/${e%:*}/${e#*:}
		[ -d "$d" ] || { skip "no $e"; continue; }
		echo 1 > "$d/enable"
		start_tool "$BIN/tpoint" $e || { fail "$e did not start: $(cat "$TMP/err")"; ok=0; break; }
		"$WORKLOADS/synflood" -n 8 -t 1 > /dev/null 2>&1
		stop_tool || { ok=0; break; }
		echo 0 > "$d/enable"
		flag_rows "$I/trace" > "$TMP/kernel.rows"
		echo > "$I/trace"
		flag_rows "$TMP/out" > "$TMP/ours.rows"
		r=$(awk -v bh=$bh -v ev=${e#*:} '
			function key(   k, i) { k = $1 " " $2; for (i = 5; i <= NF; i++) k = k " " $i; return k }
			FNR == 1 { pass++ }
			pass == 1 { k = key(); n[k]++; ts[k, n[k]] = $4; fl[k, n[k]] = $3
				if (ev == "net_dev_queue" && $3 ~ /^[bD]/) kb++
				next }
			pass == 2 { k = key(); on[k]++; ots[k, on[k]] = $4; next }
			{ k = key(); near = 0; f = ""
			  for (i = 1; i <= n[k]; i++) {
				dt = ts[k, i] - $4; if (dt < 0) dt = -dt
				if (dt <= 100) near++
				if (dt <= 50) f = fl[k, i]
			  }
			  for (i = 1; i <= on[k]; i++) {
				dt = ots[k, i] - $4; if (dt < 0) dt = -dt
				if (dt <= 100) near++
			  }
			  # itself, and the kernel row within 50 us: no other row like
			  # them within 100 us in either text
			  if (f == "" || near != 2) { amb++; next }
			  m++
			  if (!seen[f]++) kinds = kinds (kinds ? "," : "") f
			  if (length(f) != length($3)) { bad++; if (!ex) ex = f " vs " $3; next }
			  if (substr(f, 2, 1) != substr($3, 2, 1)) nr++
			  if (substr(f, 1, 1) substr(f, 3) != substr($3, 1, 1) substr($3, 3)) {
				bad++; if (!ex) ex = "kernel " f ", tpoint " $3 " (" $0 ")" }
			  if (f !~ /^\./) cov1++
			  if (substr(f, 4, 1) != ".") cov4++
			  if (substr(f, 3, 1) != ".") cov3++
			}
			END { printf "%d %d %d %d %d %d %d %d %s %s\n", m, bad, nr, amb, cov1, cov4, kb, cov3, kinds ? kinds : "-", ex }
		' "$TMP/kernel.rows" "$TMP/ours.rows" "$TMP/ours.rows")
		set -- $r
		m=$1 bad=$2 nr=$3 cov1=$5 cov4=$6 kb=$7 cov3=$8 kinds=$9
		shift 9
		printf '%s ' "${e#*:} $m rows ($kinds);" >> "$TMP/.info"
		case $e in net:*) least=5 ;; *) least=10 ;; esac
		[ "$m" -ge $least ] || { fail "$e: only $m of tpoint's rows matched the kernel's ($(wc -l < "$TMP/ours.rows") rows, $(wc -l < "$TMP/kernel.rows") the kernel's)"; ok=0; continue; }
		[ "$bad" = 0 ] || { fail "$e: $bad rows' flags differ from the kernel's, as $*"; ok=0; }
		[ "$nr" -le $((1 + m / 50)) ] || { fail "$e: $nr of $m rows differ in need-resched"; ok=0; }
		all1=$((all1 + cov1)) all3=$((all3 + cov3)) all4=$((all4 + cov4))
		case $e in
		net:*) [ $bh = 0 ] || [ "$kb" -ge 1 ] ||
			{ fail "$e: the kernel shows no BH-disabled row on $(uname -r)"; ok=0; } ;;
		esac
	done
	rmdir "$I"
	# what the rows compared must have held, or the test proves little
	[ "$all1" -ge 1 ] && [ "$all3" -ge 1 ] && [ "$all4" -ge 1 ] ||
		{ fail "no matched row with irqs off ($all1), in an interrupt ($all3) or at a preempt depth ($all4)"; ok=0; }
	[ $ok = 1 ]
}

t_filter_keeps_one() {
	mkprog "tp_keep_$$"
	mkprog "tp_drop_$$"
	start_tool "$BIN/tpoint" sched:sched_process_exec 'filename ~ "*tp_keep_*"' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$TMP/tp_drop_$$"
	"$TMP/tp_keep_$$" &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "tp_keep_$$" 50 || fail "kept exec not seen"
	stop_tool || return 1
	tp_exec_once "tp_keep_$$" $h
	! grep -q "tp_drop_$$" "$TMP/out" || fail "filtered exec was printed"
}

t_pid_filter() {
	# two parents, each forking 7 times once released (a read of a fifo: no
	# fork while waiting); -p keeps the forks of one: each of its 7 forks
	# once, with the child's PID, and none of the other's
	for w in a b; do
		rm -f "$TMP/kids.$w" "$TMP/go.$w"
		mkfifo "$TMP/go.$w" || { fail "cannot make a fifo"; return 1; }
		sh -c 'read -r x < "$1"
			for i in 1 2 3 4 5 6 7; do /bin/true & echo $! >> "$2"; wait; done' \
			sh "$TMP/go.$w" "$TMP/kids.$w" &
		eval "$w=\$!"
	done
	start_tool "$BIN/tpoint" -p $a sched:sched_process_fork ||
		{ echo > "$TMP/go.a"; echo > "$TMP/go.b"; wait $a $b; fail "did not start: $(cat "$TMP/err")"; return 1; }
	echo go > "$TMP/go.a"
	echo go > "$TMP/go.b"
	wait $a $b
	wait_for_line "$TMP/out" "child_pid=$(tail -n 1 "$TMP/kids.a")\$" 50 || fail "last fork of $a not seen"
	stop_tool || return 1
	[ "$(wc -l < "$TMP/kids.a")" = 7 ] || { fail "the workload made $(wc -l < "$TMP/kids.a") forks, not 7"; return 1; }
	while read -r k; do
		[ "$(grep -Ec "sched_process_fork: comm=sh pid=$a child_comm=sh child_pid=$k\$" "$TMP/out")" = 1 ] ||
			fail "fork of $k by $a: wanted one line, got: $(grep "child_pid=$k" "$TMP/out")"
	done < "$TMP/kids.a"
	[ "$(grep -c "sched_process_fork: comm=sh pid=$a " "$TMP/out")" = 7 ] ||
		fail "wanted 7 forks of $a: $(grep -c "pid=$a " "$TMP/out")"
	! grep -q "sched_process_fork: comm=sh pid=$b " "$TMP/out" || fail "fork of other pid $b printed"
}

# tp_rows FILE - "TID FD" for each close in tpoint's output
tp_rows() {
	sed -n 's/^ *.*-\([0-9][0-9]*\) *\[[0-9][0-9]*\] .* sys_close(fd: \(0x[0-9a-f]*\))$/\1 \2/p' "$1"
}

# t_pid_threads - -p: each of 1000 threads, the threads started after tpoint
# was, a child and its thread close a descriptor numbered for their TID:
# every close seen, none of a process that does the same at the same time
t_pid_threads() {
	thr_start 1000 20 || return 1
	start_tool "$BIN/tpoint" -p $THR_PID syscalls:sys_enter_close 'fd >= 268435456' || {
		kill -KILL $THR_PID $DEC_PID; wait $THR_PID $DEC_PID
		stop_tool; fail "did not start: $(cat "$TMP/err")"; return 1; }
	thr_trace tp_rows || return 1
	while read -r t; do printf '%s 0x%08x\n' "$t" $((0x10000000 + t)); done < "$TMP/thr.tids" > "$TMP/want"
	thr_compare "$TMP/got" "$TMP/want" "tpoint -p"
	[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
}

t_duration_buffered() {
	mkprog "tp_dur_$$"
	"$BIN/tpoint" -d 2 sched:sched_process_exec > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	# the exec once tracing is on (the banner says so), inside the 2 s
	h=
	wait_for_line "$TMP/out" '^Tracing' 100 && { "$TMP/tp_dur_$$" & h=$!; wait $h; }
	wait_gone $pid 100 || { kill -KILL $pid; fail "-d 2 did not end by itself"; return 1; }
	wait $pid || fail "exit status $?"
	head -1 "$TMP/out" | grep -qx 'Tracing sched:sched_process_exec for 2 seconds (buffered)...' ||
		fail "banner: $(head -1 "$TMP/out")"
	tp_exec_once "tp_dur_$$" "${h:-none}"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
}

t_head_ends() {
	sh -c 'while :; do /bin/true; sleep 0.05; done' & loop=$!
	( "$BIN/tpoint" sched:sched_process_exec | head -3 > "$TMP/out" ) 2> "$TMP/err" &
	pipe=$!
	wait_gone $pipe 50 || { kill $loop; kill -KILL $pipe; fail "| head -3 did not end within 5 s"; return 1; }
	kill $loop
	wait $loop 2>/dev/null
	[ "$(wc -l < "$TMP/out")" -eq 3 ] || fail "head got $(wc -l < "$TMP/out") lines"
	! grep -q . "$TMP/err" || fail "stderr: $(cat "$TMP/err")"
}

# slow_start N - an ftt_open that will open N files once $TMP/go exists (OPENER),
# and tpoint -p OPENER on its openat entries writing into a pipe whose reader
# takes nothing until $TMP/read exists (then all of it, into $TMP/out). Sets
# TP (tpoint's PID) and PIPE (the pipeline's); waits until tpoint's instance
# records. With SLOW_KEEP set, a sleep started beside tpoint shares its stdout
# (the same open pipe), its PID in $TMP/tp.pid.keep.
slow_start() {
	rm -f "$TMP/go" "$TMP/read" "$TMP/tp.pid" "$TMP/tp.pid.keep" "$TMP/out"
	count=$1 i=0
	set --
	while [ $i -lt "$count" ]; do
		set -- "$@" "$TMP/slow_missing_$i"
		i=$((i + 1))
	done
	"$WORKLOADS/ftt_open" --comm=tpslow_$$ --go="$TMP/go" "$@" > /dev/null &
	OPENER=$!
	{ SLOW_KEEP=${SLOW_KEEP:-} sh -c 'echo $$ > "$0"
		[ -n "$SLOW_KEEP" ] && { sleep 120 & echo $! > "$0.keep"; }
		exec "$@"' "$TMP/tp.pid" "$BIN/tpoint" -p $OPENER \
		syscalls:sys_enter_openat 2> "$TMP/err" |
		{ while [ ! -e "$TMP/read" ]; do sleep 0.05; done; cat > "$TMP/out"; }; } &
	PIPE=$!
	i=0
	while [ $i -lt $((100 * SLOW)) ]; do
		TP=$(cat "$TMP/tp.pid" 2>/dev/null)
		inst=$(run_inst tpoint "$TP")
		[ -n "$TP" ] && [ -n "$inst" ] && [ "$(cat "$inst/tracing_on")" = 1 ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	touch "$TMP/go" "$TMP/read"
	fail "tpoint did not start: $(cat "$TMP/err")"
	return 1
}

# slow_blocked - let the opener open its files and wait until tpoint is held
# in its write to the full pipe: in write(2) (x86-64 syscall 1, from
# /proc/PID/syscall) and sleeping, or with wchan saying so (5.10's wchan is 0)
slow_blocked() {
	touch "$TMP/go"
	wait $OPENER
	i=0
	while [ $i -lt $((100 * SLOW)) ]; do
		case $(cat /proc/"$TP"/wchan 2>/dev/null) in *pipe_write*) return 0 ;; esac
		case $(cut -d' ' -f1 /proc/"$TP"/syscall 2>/dev/null) in
		1) [ "$(cut -d' ' -f3 /proc/"$TP"/stat)" = S ] && return 0 ;;
		esac
		sleep 0.1
		i=$((i + 1))
	done
	fail "tpoint never waited on the pipe (wchan $(cat /proc/"$TP"/wchan 2>/dev/null), syscall $(cat /proc/"$TP"/syscall 2>/dev/null)); its instance: $(cat "$inst/per_cpu/cpu0/stats" 2>/dev/null | tr '\n' ' '); stderr: $(cat "$TMP/err")"
	return 1
}

# t_slow_reader - Ctrl-C while tpoint waits on a reader that is slow (200 KB of
# lines stuck behind a full pipe): every line still reaches the reader once it
# reads, then the ending, and tpoint exits 0
t_slow_reader() {
	want=1500
	slow_start $want || return 1
	slow_blocked || { touch "$TMP/read"; kill -INT "$TP"; wait $PIPE; return 1; }
	kill -INT "$TP"
	sleep 1
	kill -0 "$TP" 2>/dev/null || fail "tpoint ended before its output was read"
	touch "$TMP/read"
	wait_gone $PIPE 100 || { kill -KILL "$TP"; fail "did not end once read"; return 1; }
	got=$(grep -c "^ *tpslow_$$-$OPENER .*sys_openat(" "$TMP/out")
	[ "$got" = $want ] || fail "$got of the $want opens reached the reader"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...' at the end"
	! grep -q . "$TMP/err" || fail "stderr: $(cat "$TMP/err")"
}

# t_stuck_reader - a reader that takes nothing: the first Ctrl-C waits for it,
# the second ends tpoint all the same, tracing state put back (checked after
# every test), saying in one line that output was dropped; the pipe, which
# the rest of the pipeline shares, is left blocking as it was (no O_NONBLOCK)
t_stuck_reader() {
	SLOW_KEEP=1 slow_start 1500 || return 1
	slow_blocked || { touch "$TMP/read"; kill -INT "$TP"; wait $PIPE; return 1; }
	kill -INT "$TP"
	sleep 1
	kill -0 "$TP" 2>/dev/null || fail "tpoint ended on the first Ctrl-C, its output not taken"
	kill -INT "$TP"
	keep=$(cat "$TMP/tp.pid.keep")
	wait_gone "$TP" 50 || { kill -KILL "$TP" $keep; touch "$TMP/read"; fail "a second Ctrl-C did not end it"; return 1; }
	fl=$(sed -n 's/^flags:[[:space:]]*//p' "/proc/$keep/fdinfo/1")
	kill $keep
	touch "$TMP/read"
	wait $PIPE
	[ -n "$fl" ] && [ $((0$fl & 04000)) = 0 ] || fail "the shared pipe was left non-blocking (flags $fl)"
	[ "$(wc -l < "$TMP/err")" = 1 ] && grep -q 'output not yet written is dropped' "$TMP/err" ||
		fail "stderr: $(cat "$TMP/err")"
}

# t_user_error_log - a filter the kernel refuses: tpoint says the kernel's
# reason, and the top-level error_log, the user's, keeps what was in it (an
# entry the test makes with a bad filter of its own at the top level)
t_user_error_log() {
	log=$T/error_log
	[ -f "$log" ] || { skip "no error_log in this kernel"; return 0; }
	before=$(cat "$log")
	ev=$T/events/sched/sched_process_exec/filter
	echo "ftt_user_mark_$$ == 1" > "$ev" 2> /dev/null
	echo 0 > "$ev"
	grep -q "ftt_user_mark_$$" "$log" || { skip "a refused filter is not logged in error_log here"; return 0; }
	expect_error 2 "filter 'no_field == 1' refused.*[Ff]ield" "$BIN/tpoint" sched:sched_process_exec 'no_field == 1'
	grep -q "ftt_user_mark_$$" "$log" || fail "the user's error_log entry is gone: '$(cat "$log")'"
	[ -n "$before" ] || echo > "$log"
	return 0
}

# reuse_run NAME - run ftt_open as NAME, in the foreground (reaped at once),
# with the PID after $REUSE_LAST when set; prints its PID
reuse_run() {
	[ -n "${REUSE_LAST:-}" ] && echo "$REUSE_LAST" > /proc/sys/kernel/ns_last_pid
	sh -c 'echo $$; exec "$0" --comm="$1" "$2" > /dev/null' "$WORKLOADS/ftt_open" "$1" \
		"$TMP/reuse_missing"
	true	# the last command forks too: ftt_open is the first child after the write
}

# t_reused_pid - a process printed after it ended, under the name the kernel
# saved for it, even when its PID had an older process's name before (PIDs
# wrap at pid_max): the old name must not stick to the PID
t_reused_pid() {
	[ -w /proc/sys/kernel/ns_last_pid ] || { skip "no ns_last_pid to choose a PID"; return 0; }
	start_tool "$BIN/tpoint" syscalls:sys_enter_openat 'comm ~ "ftt[on]*"' ||
		{ fail "did not start: $(cat "$TMP/err")"; return 1; }
	tries=0 shown=0
	while [ $tries -lt 20 ]; do
		tries=$((tries + 1))
		REUSE_LAST=
		old=$(reuse_run "ftto$$")
		wait_for_line "$TMP/out" "[-]$old " 50 || continue
		shown=$((shown + 1))
		sleep 0.4	# longer than a name is kept for its PID
		REUSE_LAST=$((old - 1))
		new=$(reuse_run "fttn$$")
		[ "$new" = "$old" ] || continue		# another process took the PID
		i=0
		while [ "$(grep -c -- "-$old " "$TMP/out")" -lt 2 ] && [ $i -lt $((50 * SLOW)) ]; do
			sleep 0.1
			i=$((i + 1))
		done
		break
	done
	stop_tool || return 1
	# a tool that prints nothing is a failure, not a PID that was not reused
	[ $shown -gt 0 ] || { fail "no line for any of $tries opens by ftto$$: $(head -c 300 "$TMP/out") $(cat "$TMP/err")"; return 1; }
	[ "$new" = "$old" ] || { skip "PID $old not reused in 20 tries"; return 0; }
	lines=$(grep -- "-$old " "$TMP/out")
	[ "$(echo "$lines" | wc -l)" = 2 ] || { fail "not 2 lines of PID $old: $lines"; return 1; }
	echo "$lines" | head -1 | grep -q "^ *ftto$$-$old " || fail "first: $(echo "$lines" | head -1)"
	echo "$lines" | tail -1 | grep -q "^ *fttn$$-$old " || fail "the reused PID kept the old name: $(echo "$lines" | tail -1)"
}

t_stacks() {
	mkprog "tp_stk_$$"
	start_tool "$BIN/tpoint" -s sched:sched_process_exec || { fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$TMP/tp_stk_$$"
	wait_for_line "$TMP/out" "tp_stk_$$" 50 || fail "exec not seen"
	sleep 0.3
	stop_tool
	grep -q '<stack trace>' "$TMP/out" || fail "no <stack trace> record"
	grep -Eq '^ => [a-z_].*exec' "$TMP/out" || fail "no exec function in the stack: $(grep '=>' "$TMP/out" | head -3)"
}

t_view_format() {
	"$BIN/tpoint" -v sched:sched_process_exec > "$TMP/out" 2> "$TMP/err" || fail "exit $?"
	grep -q '^name: sched_process_exec$' "$TMP/out" || fail "no name line"
	grep -q 'field:__data_loc char\[\] filename' "$TMP/out" || fail "no filename field"
}

t_list() {
	"$BIN/tpoint" -l > "$TMP/out" 2> "$TMP/err" || fail "exit $?"
	n=$(wc -l < "$TMP/out")
	[ "$n" -gt 500 ] || fail "only $n tracepoints listed"
	grep -qx 'sched:sched_process_exec' "$TMP/out" || fail "sched:sched_process_exec missing"
	sort "$TMP/out" | cmp -s - "$TMP/out" || fail "list not sorted"
	! grep -v '^[a-z0-9_-]*:[A-Za-z0-9_]*$' "$TMP/out" | grep -q . || fail "malformed line"
}

# -l where tracefs lists no tracepoint (over events/, in a mount namespace of
# the test's own, a directory with only ftrace/, which -l leaves out, and an
# empty system): an empty list, exit 0; run with the
# sanitizer build (make check-asan), sorting the empty list is checked too
t_list_none() {
	command -v unshare > /dev/null || { skip "no unshare"; return 0; }
	mkdir -p "$TMP/empty/ftrace/function" "$TMP/empty/none" &&
		touch "$TMP/empty/ftrace/enable" "$TMP/empty/ftrace/function/format" "$TMP/empty/none/enable"
	unshare -m sh -c 'mount --bind "$1" "$2/events" && exec "$3" -l' sh \
		"$TMP/empty" "$T" "$BIN/tpoint" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ $rc = 0 ] || { fail "exit $rc: $(head -c 300 "$TMP/err")"; return 1; }
	[ ! -s "$TMP/out" ] || { fail "listed: $(head -n 3 "$TMP/out")"; return 1; }
	[ ! -s "$TMP/err" ] || { fail "stderr: $(head -c 300 "$TMP/err")"; return 1; }
}

# t_headers - -H: the column legend is the kernel's own, as an empty
# instance's trace file shows it on this kernel (its columns changed in 5.13
# and 5.18)
t_headers() {
	"$BIN/tpoint" -H -d 0.2 sched:sched_process_exec > "$TMP/out" 2>&1 || fail "exit $?"
	grep -q '^#           TASK-PID     CPU#' "$TMP/out" || fail "no column header"
	legend_same
}

t_bad_input() {
	expect_error 1 'tracepoint sched:no_such_event not found' "$BIN/tpoint" sched:no_such_event || return 1
	expect_error 2 "'sched' is not SYSTEM:EVENT" "$BIN/tpoint" sched || return 1
	expect_error 2 'not SYSTEM:EVENT' "$BIN/tpoint" '../..:x' || return 1
	expect_error 2 "filter 'no_field == 1' refused.*[Ff]ield" "$BIN/tpoint" sched:sched_process_exec 'no_field == 1' || return 1
	expect_error 2 'control character' "$BIN/tpoint" sched:sched_process_exec "pid == 1
pid == 2" || return 1
	expect_error 2 "-d: 'abc' is not a number" "$BIN/tpoint" -d abc sched:sched_process_exec || return 1
	expect_error 2 '-d: .*out of range' "$BIN/tpoint" -d 0 sched:sched_process_exec || return 1
	expect_error 2 '-p: .*not a positive decimal' "$BIN/tpoint" -p -5 sched:sched_process_exec || return 1
	expect_error 1 'no process with PID' "$BIN/tpoint" -p 4000000 sched:sched_process_exec || return 1
	expect_error 2 'unknown option -z' "$BIN/tpoint" -z sched:sched_process_exec || return 1
	expect_error 2 'option -d needs an argument' "$BIN/tpoint" -d || return 1
	expect_error 2 'missing tracepoint' "$BIN/tpoint" || return 1
	expect_error 2 'too many arguments' "$BIN/tpoint" sched:sched_process_exec 'pid > 0' extra || return 1
}

# t_hostile - a process name and a string field (the file exec'd, a link
# named with terminal controls, a newline and a byte that is not UTF-8) are
# shown escaped, never raw
t_hostile() {
	ln -s "$WORKLOADS/ftt_exec" "$TMP/$HOSTILE" || { fail "cannot make the link"; return 1; }
	start_tool "$BIN/tpoint" sched:sched_process_exec || { fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$TMP/$HOSTILE" --sleep=200 &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "pid=$h " 50
	stop_tool || return 1
	hre=$(printf '%s' "$HOSTILE_VIS" | sed 's/[][\\.*^$]/\\&/g')
	# the kernel prints <...> for a name it has not saved yet
	want=" *(<\\.\\.\\.>|$hre)-$h +\\[[0-9]{3}\\] [^ ]+ +[0-9]+\\.[0-9]{6}: sched_process_exec: filename=$TMP/$hre pid=$h old_pid=$h"
	grep -Eqx -- "$want" "$TMP/out" || fail "no line /$want/; got: $(grep "pid=$h " "$TMP/out")"
	vis_clean "$TMP/out" || fail "raw control or non-ASCII bytes in the output: $(LC_ALL=C grep -n '[^ -~]' "$TMP/out" | od -c | head -5)"
}

# t_json - -j: every stdout line a JSON object, the banner on stderr; two
# execs the test makes, each its own object with the exact PID, file and
# name, decoded by field name from the record: one of a program whose name
# is a hostile string (ESC, a newline, a C1 CSI, a byte that is not UTF-8:
# it decodes to exactly those bytes, the last as the text \xff)
t_json() {
	ln -s "$WORKLOADS/ftt_exec" "$TMP/tpj_$$" && ln -s "$WORKLOADS/ftt_exec" "$TMP/$HOSTILE" ||
		{ fail "cannot make the links"; return 1; }
	start_tool "$BIN/tpoint" -j sched:sched_process_exec || { fail "did not start: $(cat "$TMP/err")"; return 1; }
	grep -qx 'Tracing sched:sched_process_exec. Ctrl-C to end.' "$TMP/err" || fail "-j: no banner on stderr: $(cat "$TMP/err")"
	t0=$(date +%s)
	"$TMP/tpj_$$" --sleep=300 &
	h=$!
	wait $h
	"$TMP/$HOSTILE" --sleep=300 &
	h2=$!
	wait $h2
	t1=$(date +%s)
	wait_for_line "$TMP/out" "\"pid\":$h2[,}]" 50 || fail "exec of PID $h2 not seen"
	stop_tool || return 1
	json_check "$TMP/out" || return 1
	! grep -q '^Tracing\|^Ending' "$TMP/out" || fail "-j: banner or ending on stdout"
	grep -qx 'Ending tracing...' "$TMP/err" || fail "-j: no 'Ending tracing...' on stderr"
	jq -c --arg f "$TMP/tpj_$$" --arg c "tpj_$$" --arg host "$(uname -n)" "select(
		.event == \"sched:sched_process_exec\" and .pid == $h and .comm == \$c and
		.fields == {filename: \$f, pid: $h, old_pid: $h} and .tool == \"tpoint\" and
		.host == \$host and (.cpu | type) == \"number\" and (.flags | type) == \"string\" and
		(.timestamp | type) == \"number\")" "$TMP/out" > "$TMP/row"
	[ "$(wc -l < "$TMP/row")" = 1 ] ||
		{ fail "-j: $(wc -l < "$TMP/row") objects for the exec of PID $h; got: $(grep -a "\"pid\":$h[,}]" "$TMP/out")"; return 1; }
	[ "$(grep -c "\"pid\":$h[,}]" "$TMP/out")" = 1 ] || fail "-j: the exec of PID $h shown more than once"
	json_time_ok "$(jq -r .time "$TMP/row")" "$t0" "$t1"
	jq -c "select(.event == \"sched:sched_process_exec\" and .pid == $h2 and
		.fields.pid == $h2 and .fields.old_pid == $h2)" "$TMP/out" > "$TMP/row2"
	[ "$(wc -l < "$TMP/row2")" = 1 ] ||
		{ fail "-j: $(wc -l < "$TMP/row2") objects for the exec of PID $h2; got: $(grep -a "\"pid\":$h2[,}]" "$TMP/out")"; return 1; }
	jq -j .fields.filename "$TMP/row2" > "$TMP/got"
	printf '%s/a\033[1A\nb\302\233c\\xff' "$TMP" > "$TMP/want"
	cmp -s "$TMP/got" "$TMP/want" ||
		fail "-j: the hostile file name decodes to '$(od -c "$TMP/got" | head -3)', want '$(od -c "$TMP/want" | head -3)'"
}

# t_json_syscall - -j on a system call event: each field by name from the
# record, the file descriptor an ftt_open run by the test got on return, its
# flags on entry, and (6.19+) the path taken at the call
t_json_syscall() {
	echo data > "$TMP/tpj_file"
	rm -f "$TMP/go" "$TMP/out2"
	"$WORKLOADS/ftt_open" --comm=tpjs_$$ --go="$TMP/go" --hold=300 --flags=02400000 \
		"$TMP/tpj_file" > "$TMP/res" &
	h=$!
	"$BIN/tpoint" -j -p $h syscalls:sys_exit_openat > "$TMP/out2" 2> "$TMP/err2" &
	ex=$!
	wait_for_line "$TMP/err2" '^Tracing' 100 ||
		{ kill $ex $h; fail "exit tpoint did not start: $(cat "$TMP/err2")"; return 1; }
	start_tool "$BIN/tpoint" -j -p $h syscalls:sys_enter_openat ||
		{ kill $ex $h; fail "did not start: $(cat "$TMP/err")"; return 1; }
	touch "$TMP/go"
	wait $h
	wait_for_line "$TMP/out2" "\"pid\":$h," 50
	wait_for_line "$TMP/out" "\"pid\":$h," 50
	stop_tool || { kill $ex; return 1; }
	kill -INT $ex
	wait $ex || fail "exit tpoint: exit status $?"
	json_check "$TMP/out" && json_check "$TMP/out2" || return 1
	fd=$(grep " $TMP/tpj_file\$" "$TMP/res" | cut -d' ' -f1)
	[ -n "$fd" ] && [ "$fd" -ge 0 ] || { fail "ftt_open could not open $TMP/tpj_file: $(cat "$TMP/res")"; return 1; }
	n=$(jq -c "select(.event == \"syscalls:sys_exit_openat\" and .pid == $h and
		.comm == \"tpjs_$$\" and .fields.ret == $fd and .fields.__syscall_nr == 257)" "$TMP/out2" | wc -l)
	[ "$n" = 1 ] || fail "-j: $n return objects with ret $fd, not 1: $(cat "$TMP/out2")"
	# dfd AT_FDCWD as the 8-byte slot holds it (the format: unsigned), the flags asked for
	val=
	grep -q ' __filename_val;' "$T/events/syscalls/sys_enter_openat/format" &&
		val=" and .fields.__filename_val == \"$TMP/tpj_file\""
	n=$(jq -c "select(.event == \"syscalls:sys_enter_openat\" and .pid == $h and
		.fields.dfd == 4294967196 and .fields.flags == $((02400000)) and
		(.fields.filename | type) == \"number\"$val)" "$TMP/out" | wc -l)
	[ "$n" = 1 ] || fail "-j: $n entry objects of the form wanted, not 1: $(cat "$TMP/out")"
}

# t_json_head - -j | head -n 1: one whole object, and tpoint ends (0)
t_json_head() {
	( while [ ! -e "$TMP/stop" ]; do /bin/true; sleep 0.05; done ) &
	loop=$!
	json_head_run 30 "$BIN/tpoint" -j sched:sched_process_exec
	touch "$TMP/stop"
	wait $loop
	json_head_ok '.tool == "tpoint" and .event == "sched:sched_process_exec" and
		(.pid | type) == "number" and (.fields.filename | type) == "string"'
}

# t_json_stacks - -j -s: the exec's kernel stack is an object of its own,
# of the same task, its frames an array of symbols, an exec function among them
t_json_stacks() {
	ln -s "$WORKLOADS/ftt_exec" "$TMP/tpjk_$$" || { fail "cannot make the link"; return 1; }
	start_tool "$BIN/tpoint" -j -s sched:sched_process_exec || { fail "did not start: $(cat "$TMP/err")"; return 1; }
	"$TMP/tpjk_$$" --sleep=200 &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "\"event\":\"ftrace:kernel_stack\",\"stack\":.*exec" 50
	stop_tool || return 1
	json_check "$TMP/out" || return 1
	n=$(jq -c "select(.pid == $h and .event == \"sched:sched_process_exec\" and
		.fields.filename == \"$TMP/tpjk_$$\")" "$TMP/out" | wc -l)
	[ "$n" = 1 ] || fail "-j -s: $n exec objects of PID $h, not 1: $(grep -a "\"pid\":$h," "$TMP/out")"
	n=$(jq -c "select(.pid == $h and .event == \"ftrace:kernel_stack\" and .fields == null and
		(.stack | length) > 1 and all(.stack[]; type == \"string\") and
		any(.stack[]; test(\"exec\")))" "$TMP/out" | wc -l)
	[ "$n" -ge 1 ] || fail "-j -s: no kernel_stack object of PID $h with an exec function: $(grep -a "\"pid\":$h," "$TMP/out" | head -3)"
	# one stack per exec: none of the stacks the kernel takes after the
	# records that name tasks (switches, forks, renames) is shown
	r=$(jq -r -s '[.[] | .event] | "\(map(select(. == "ftrace:kernel_stack")) | length) \(map(select(. == "sched:sched_process_exec")) | length) \(unique)"' "$TMP/out")
	[ "${r%% *}" = "$(echo "$r" | cut -d' ' -f2)" ] || fail "-j -s: stacks, execs, events: $r"
}

# t_cgroup - --cgroup, relative to the cgroup2 mount (cg_scene: a member
# and its child, a leaver, a joiner, a busy outsider, each exec'ing a link
# named for its role): exactly the execs of the member, its child, the
# leaver before it left and the joiner after it joined are shown; and an
# event the scope follows itself cannot be traced with it
t_cgroup() {
	cg_scene_start || return $?
	cg_scene_trace start_tool "Tracing sched:sched_process_exec in cgroup $CG_REL. Ctrl-C to end." \
		"cgbin/cg_joiner_in" "$BIN/tpoint" --cgroup "$CG_REL" sched:sched_process_exec || return 1
	cg_scene_check "$(grep -o 'filename=[^ ]*cgbin/cg_[a-z_]*' "$TMP/out" | sed 's|.*/||')"
	expect_error 1 '^tpoint: --cgroup: cannot trace task:task_newtask with it' \
		"$BIN/tpoint" --cgroup "$CG_ROOT" task:task_newtask
}

# t_exec_cmd - --exec: the exec of the command's program and that of a process
# its shell left behind, shown; none of a process outside it; the run ends
# by itself
t_exec_cmd() {
	exec_run "$WORKLOADS/ftt_exec" "" "$BIN/tpoint" sched:sched_process_exec || return 1
	for n in xf:1 xl:1 xo:0; do
		c=$(grep -c "sched_process_exec: filename=$TMP/${n%:*}$$ pid=" "$TMP/out")
		[ "$c" = "${n#*:}" ] || fail "--exec: $c execs of ${n%:*}$$, not ${n#*:}: $(head -c 600 "$TMP/out")"
	done
}

# every exit path (tests/exits.sh)
exit_paths tpoint

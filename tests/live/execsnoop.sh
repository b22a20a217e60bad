# tests/live/execsnoop.sh - execsnoop against execs whose argv and PIDs are known
#
# Workload: copies of tests/bin/ftt_exec under unique names. In probe mode (event
# probes or kprobes) the arguments are read at the call and must be exact even
# for a process that lives a millisecond; in /proc mode (no probes, the tool says
# so on stderr) the workload stays alive long enough to be read.

# xs_prog NAME - a uniquely named copy of the exec helper; prints its path
xs_prog() { cp "$HELPERS/ftt_exec" "$TMP/$1" && echo "$TMP/$1"; }

# xs_procmode - the running tool said it reads arguments from /proc
xs_procmode() { grep -q 'no kprobes or event probes' "$TMP/err"; }

# xs_start ARGS... - start execsnoop with ARGS (slow in an emulated guest) or fail
xs_start() {
	rm -f "$TMP/out" "$TMP/err"	# a banner left by the last run is no start
	start_tool "$BIN/execsnoop" "$@" ||
		{ kill -0 $TOOL_PID 2>/dev/null && wait_for_line "$TMP/out" '^Tracing' 600; } ||
		{ stop_tool; fail "did not start: $(head -c 300 "$TMP/err")"; return 1; }
}

# xs_line PIDFILE-LINE REST - the exact line for "PID PPID" ($1) and ARGS ($2)
xs_line() {
	set -- $1 "$2"
	printf '%6d %6d %s' "$1" "$2" "$3"
}

t_args() {
	p=$(xs_prog "ftx_args_$$") || { fail "cannot copy the helper"; return 1; }
	xs_start || return 1
	"$p" --ids="$TMP/ids" --sleep=300 one "two words" '' 'th*ree'
	wait_for_line "$TMP/out" "ftx_args_$$" 50
	stop_tool || return 1
	want=$(xs_line "$(cat "$TMP/ids")" "$p --ids=$TMP/ids --sleep=300 one two words  th*ree")
	grep -qxF -- "$want" "$TMP/out" ||
		fail "no line '$want'; got: $(grep "ftx_args" "$TMP/out")"
	[ "$TOOL_RC" = 0 ] || fail "exit status $TOOL_RC after SIGINT"
	grep -qx '   PID   PPID ARGS' "$TMP/out" || fail "no PID PPID ARGS header"
	tail -n 1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...' at the end"
}

t_short() {
	p=$(xs_prog "ftx_short_$$") || { fail "cannot copy the helper"; return 1; }
	xs_start -a 3 || return 1
	if xs_procmode; then
		stop_tool
		skip "no kprobes or event probes: a process gone before /proc is read has no args"
		return 0
	fi
	i=0
	while [ $i -lt 20 ]; do
		"$p" "n$i" x y z
		i=$((i + 1))
	done
	wait_for_line "$TMP/out" "ftx_short_$$ n19 x \[\.\.\.\]\$" 50
	stop_tool || return 1
	i=0
	while [ $i -lt 20 ]; do
		grep -Eq "^ *[0-9]+ +[0-9]+ $p n$i x \[\.\.\.\]\$" "$TMP/out" ||
			fail "exec n$i missing or wrong"
		i=$((i + 1))
	done
	n=$(grep -Ec "^ *[0-9]+ +[0-9]+ $p " "$TMP/out")
	[ "$n" -eq 20 ] || fail "$n lines for 20 execs"
}

t_rexec() {
	p=$(xs_prog "ftx_rexec_$$") || { fail "cannot copy the helper"; return 1; }
	for r in "" -r; do
		rm -f "$TMP/ids"
		xs_start $r || return 1
		"$p" --ids="$TMP/ids" --exec "$p" "$p" --sleep=300 "second$r"
		wait_for_line "$TMP/out" "ftx_rexec_$$ --sleep=300 second$r\$" 30
		stop_tool || return 1
		pid=$(cut -d' ' -f1 "$TMP/ids")
		n=$(grep -c "^ *$pid .*ftx_rexec_$$" "$TMP/out")
		# the first exec's row: its own arguments; in /proc mode, read after the
		# re-exec, no arguments (marked) but never the second program's
		want=$(xs_line "$(cat "$TMP/ids")" "$p --ids=$TMP/ids --exec $p $p --sleep=300 second$r")
		guess=$(xs_line "$(cat "$TMP/ids")" "$p [?]")
		grep -qxF -- "$want" "$TMP/out" || { xs_procmode && grep -qxF -- "$guess" "$TMP/out"; } ||
			fail "${r:-without -r}: no line '$want'; got: $(grep "^ *$pid " "$TMP/out")"
		if [ -z "$r" ]; then
			[ "$n" -eq 1 ] || fail "without -r: $n lines for PID $pid, wanted 1"
		else
			[ "$n" -eq 2 ] || fail "with -r: $n lines for PID $pid, wanted 2"
			want=$(xs_line "$(cat "$TMP/ids")" "$p --sleep=300 second-r")
			grep -qxF -- "$want" "$TMP/out" || fail "with -r: no line '$want'"
		fi
	done
}

t_name() {
	a=$(xs_prog "ftxa_$$") && b=$(xs_prog "ftxb_$$") || { fail "cannot copy"; return 1; }
	xs_start "ftxa_$$" || return 1
	grep -q "^Tracing exec()s issued by process name \"ftxa_$$\". Ctrl-C to end.\$" "$TMP/out" ||
		fail "banner: $(head -n 1 "$TMP/out")"
	"$b" --sleep=300 drop
	"$a" --sleep=300 keep
	wait_for_line "$TMP/out" "ftxa_$$ --sleep=300 keep\$" 50
	stop_tool || return 1
	grep -q "ftxa_$$ --sleep=300 keep\$" "$TMP/out" || fail "matching name not shown"
	grep -q " $b " "$TMP/out" && fail "other name shown"
	expect_error 2 'bad regular expression' "$BIN/execsnoop" 'ftx('
}

t_fail() {
	p=$(xs_prog "ftx_fail_$$") || { fail "cannot copy the helper"; return 1; }
	for x in "" -x; do
		rm -f "$TMP/ids"
		xs_start $x || return 1
		"$p" --ids="$TMP/ids" --sleep=400 --exec "$TMP/nonexist_$$" "nx_$$" "arg$x"
		"$p" --sleep=300 "after$x"
		wait_for_line "$TMP/out" "ftx_fail_$$ --sleep=300 after$x\$" 50
		stop_tool || return 1
		set -- $(cat "$TMP/ids")
		if [ -z "$x" ]; then
			grep -Eq "^ *[0-9]+ +[0-9]+ nx_$$ arg\$" "$TMP/out" && fail "failed exec shown without -x"
			grep -q "RET" "$TMP/out" && fail "RET column without -x"
			true
		else
			grep -Eq "^ *$1 +$2 ENOENT +nx_$$ arg-x\$" "$TMP/out" ||
				fail "no ENOENT line for PID $1: $(grep "nx_$$" "$TMP/out")"
			grep -qx '   PID   PPID RET     ARGS' "$TMP/out" || fail "no RET header"
			grep -Eq "^ *[0-9]+ +[0-9]+ 0 +$p --sleep=300 after-x\$" "$TMP/out" ||
				fail "successful exec not shown with RET 0"
		fi
	done
}

# t_fail_args - -x with -a 3: a failed exec's arguments, read while its caller
# still holds them: cut at three with "[...]", whole at three, and one longer
# than a first read (300 bytes) whole
t_fail_args() {
	p=$(xs_prog "ftx_fa_$$") || { fail "cannot copy the helper"; return 1; }
	long=$(printf '%0300d' 7)
	xs_start -x -a 3 || return 1
	"$p" --ids="$TMP/ids1" --sleep=400 --exec "$TMP/nonexist_$$" "fa1_$$" "$long" c d e
	"$p" --ids="$TMP/ids2" --sleep=400 --exec "$TMP/nonexist_$$" "fa2_$$" b c
	"$p" --sleep=300 after
	wait_for_line "$TMP/out" "ftx_fa_$$ --sleep=300 after\$" 50
	stop_tool || return 1
	set -- $(cat "$TMP/ids1")
	grep -Eq "^ *$1 +$2 ENOENT +fa1_$$ $long c \[\.\.\.\]\$" "$TMP/out" ||
		fail "four arguments not cut at three: $(grep "fa1_$$" "$TMP/out" | head -c 200)"
	set -- $(cat "$TMP/ids2")
	grep -Eq "^ *$1 +$2 ENOENT +fa2_$$ b c\$" "$TMP/out" ||
		fail "three arguments not shown whole: $(grep "fa2_$$" "$TMP/out")"
}

t_columns() {
	p=$(xs_prog "ftx_cols_$$") || { fail "cannot copy the helper"; return 1; }
	xs_start -t -T -U || return 1
	"$p" --ids="$TMP/ids" --sleep=300 c1
	wait_for_line "$TMP/out" "ftx_cols_$$ --ids" 50
	stop_tool || return 1
	set -- $(cat "$TMP/ids")
	grep -qx 'TIME     TIMEs               UID    PID   PPID ARGS' "$TMP/out" ||
		fail "header: $(sed -n 2p "$TMP/out")"
	grep -Eq "^[0-2][0-9]:[0-5][0-9]:[0-5][0-9] [0-9]+\.[0-9]{6} +$(id -u) +$1 +$2 $p " "$TMP/out" ||
		fail "line: $(grep ftx_cols "$TMP/out")"
}

t_duration() {
	p=$(xs_prog "ftx_dur_$$") || { fail "cannot copy the helper"; return 1; }
	xs_start -d 2 || return 1
	grep -q '^Tracing exec()s for 2 seconds (buffered)...$' "$TMP/out" || fail "banner"
	"$p" --sleep=300 buffered
	wait_gone $TOOL_PID 100 || { stop_tool; fail "-d 2 did not end by itself"; return 1; }
	wait $TOOL_PID
	[ $? = 0 ] || fail "exit status"
	grep -q "ftx_dur_$$ --sleep=300 buffered\$" "$TMP/out" || fail "event missing"
}

t_head() {
	p=$(xs_prog "ftx_head_$$") || { fail "cannot copy the helper"; return 1; }
	rm -f "$TMP/rc"
	( "$BIN/execsnoop" 2>/dev/null & echo $! > "$TMP/pid"; wait $!; echo $? > "$TMP/rc" ) |
		head -n 3 > "$TMP/h" &
	n=0
	while [ ! -s "$TMP/rc" ] && [ $n -lt 300 ]; do
		"$p" --sleep=100 h
		n=$((n + 1))
	done
	wait_for_line "$TMP/rc" . 50 || {
		kill -INT "$(cat "$TMP/pid")"; wait_for_line "$TMP/rc" . 100
		fail "execsnoop | head -n 3 did not end"; return 1; }
	[ "$(wc -l < "$TMP/h")" -eq 3 ] || fail "head got $(wc -l < "$TMP/h") lines"
}

t_badinput() {
	expect_error 2 '-a.*range' "$BIN/execsnoop" -a 17 || return 1
	expect_error 2 '-a' "$BIN/execsnoop" -a 0 || return 1
	expect_error 2 '-d' "$BIN/execsnoop" -d 0 || return 1
	expect_error 2 '-d' "$BIN/execsnoop" -d 1x || return 1
	expect_error 2 'unknown option' "$BIN/execsnoop" -q || return 1
	expect_error 2 'too many' "$BIN/execsnoop" a b || return 1
	"$BIN/execsnoop" -h | grep -q '^USAGE: execsnoop' || fail "-h"
}

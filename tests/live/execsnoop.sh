# SPDX-License-Identifier: GPL-2.0-only
# tests/live/execsnoop.sh - execsnoop against execs whose argv and PIDs are known
#
# Workload: copies of tests/bin/ftt_exec (its dynamic build, whose --exec goes
# through the C library as the shell's execs do) under unique names. The
# arguments are taken at the call and must be exact even for a process that
# lives a millisecond. The rung a run must use is worked out from the kernel
# (cap_rungs in tests/lib.sh); every rung the kernel has is forced in turn.

# xs_prog NAME - a uniquely named copy of the exec workload; prints its path
xs_prog() { cp "$WORKLOADS/ftt_exec.dyn" "$TMP/$1" && echo "$TMP/$1"; }

# xs_argv_rung [RUNG] - the rung (default: the one used) takes argv, not only the file
xs_argv_rung() {
	case ${1:-$(cap_used)} in
	eprobe|kprobe|uprobe) return 0 ;;
	*) return 1 ;;
	esac
}

# xs_start ARGS... - start execsnoop -v (the rung named) with ARGS (slow in an emulated guest) or fail
xs_start() {
	rm -f "$TMP/out" "$TMP/err"	# a banner left by the last run is no start
	start_tool "$BIN/execsnoop" -v "$@" ||
		{ kill -0 $TOOL_PID 2>/dev/null && wait_for_line "$TMP/out" '^Tracing' 600; } ||
		{ stop_tool; fail "did not start: $(head -c 300 "$TMP/err")"; return 1; }
}

# xs_line PIDFILE-LINE REST - the exact line for "PID PPID" ($1) and ARGS ($2)
xs_line() {
	set -- $1 "$2"
	printf '%6d %6d %s' "$1" "$2" "$3"
}

# xs_once LINE - LINE (xs_line) is in $TMP/out exactly once
xs_once() {
	[ "$(grep -cxF -- "$1" "$TMP/out")" = 1 ] ||
		fail "wanted the row '$1' once; got: $(grep -F -- "${1##* }" "$TMP/out" | head -5)"
}

# t_default_argc - without -a, 20 entries of argv: 20 shown whole, 21 cut at
# 20 with [...]
t_default_argc() {
	p=$(xs_prog "ftx_argc_$$") || { fail "cannot copy the workload"; return 1; }
	xs_start || return 1
	xs_argv_rung || { stop_tool; skip "no rung that takes argv on this kernel ($(cap_rungs exec))"; return 0; }
	a18="a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 a14 a15 a16 a17 a18"
	"$p" --ids="$TMP/ids20" $a18
	"$p" --ids="$TMP/ids21" $a18 a19
	wait_for_line "$TMP/out" "ftx_argc_$$ --ids=$TMP/ids21" 50
	stop_tool || return 1
	want=$(xs_line "$(cat "$TMP/ids20")" "$p --ids=$TMP/ids20 $a18")
	grep -qxF -- "$want" "$TMP/out" || fail "20 entries: no line '$want'; got: $(grep "ftx_argc" "$TMP/out")"
	want=$(xs_line "$(cat "$TMP/ids21")" "$p --ids=$TMP/ids21 $a18 [...]")
	grep -qxF -- "$want" "$TMP/out" || fail "21 entries: no line '$want'; got: $(grep "ftx_argc" "$TMP/out")"
}

t_args() {
	p=$(xs_prog "ftx_args_$$") || { fail "cannot copy the workload"; return 1; }
	xs_start || return 1
	cap_check exec
	"$p" --ids="$TMP/ids" --sleep=300 one "two words" 'th*ree'
	wait_for_line "$TMP/out" "ftx_args_$$" 50
	stop_tool || return 1
	want=$(xs_line "$(cat "$TMP/ids")" "$p --ids=$TMP/ids --sleep=300 one two words th*ree")
	grep -qxF -- "$want" "$TMP/out" ||
		fail "no line '$want'; got: $(grep "ftx_args" "$TMP/out")"
	[ "$TOOL_RC" = 0 ] || fail "exit status $TOOL_RC after SIGINT"
	grep -qx '   PID   PPID ARGS' "$TMP/out" || fail "no PID PPID ARGS header"
	tail -n 1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...' at the end"
}

# t_empty_arg - an empty argument: older kernels store an empty string
# fetched by a probe as they store a fetch that failed (0 bytes), so the row
# is either the exact argv or the file and [?]; never the argv without it
t_empty_arg() {
	p=$(xs_prog "ftx_empty_$$") || { fail "cannot copy the workload"; return 1; }
	xs_start || return 1
	"$p" --ids="$TMP/ids" --sleep=300 one '' three
	wait_for_line "$TMP/out" "ftx_empty_$$" 50
	stop_tool || return 1
	want=$(xs_line "$(cat "$TMP/ids")" "$p --ids=$TMP/ids --sleep=300 one  three")
	unknown=$(xs_line "$(cat "$TMP/ids")" "$p [?]")
	grep -qxF -- "$want" "$TMP/out" || grep -qxF -- "$unknown" "$TMP/out" ||
		fail "neither '$want' nor '$unknown'; got: $(grep "ftx_empty" "$TMP/out")"
	set -- $(cat "$TMP/ids")
	[ "$(grep -c "^ *$1 " "$TMP/out")" = 1 ] || fail "not one row for PID $1: $(grep "^ *$1 " "$TMP/out")"
}

# t_ppid_unknown - a process forked before tracing and reaped before its exec
# is read (the tool is stopped meanwhile): its parent is unknown, and the row
# says ?, not the 0 that is a PID
t_ppid_unknown() {
	p=$(xs_prog "ftx_gone_$$") || { fail "cannot copy the workload"; return 1; }
	mkfifo "$TMP/go" || { fail "cannot make a fifo"; return 1; }
	( read -r x < "$TMP/go"; exec "$p" --ids="$TMP/ids" gone ) &
	child=$!
	xs_start || { echo go > "$TMP/go"; wait $child; return 1; }
	kill -STOP $TOOL_PID
	echo go > "$TMP/go"
	wait $child
	[ -e /proc/$child ] && fail "PID $child still in /proc after its wait"
	kill -CONT $TOOL_PID
	wait_for_line "$TMP/out" "ftx_gone_$$" 50
	stop_tool || return 1
	set -- $(cat "$TMP/ids")
	[ "$1" = "$child" ] || fail "the workload ran as PID $1, not the subshell's $child"
	args="$p --ids=$TMP/ids gone"
	xs_argv_rung || args="$p [?]"
	xs_once "$(printf '%6d %6s %s' "$1" '?' "$args")"
}

# t_thread_ppid - a process forks from a thread that is not its main one, and
# the child execs: its PPID is the process (as getppid() says), never the
# forking thread's ID
t_thread_ppid() {
	p=$(xs_prog "ftx_thr_$$") || { fail "cannot copy the workload"; return 1; }
	xs_start || return 1
	"$WORKLOADS/ftt_exec.dyn" --thread-fork=500 --ids="$TMP/ids" --exec "$p" "$p" --sleep=300 thr
	wait_for_line "$TMP/out" "ftx_thr_$$" 50
	stop_tool || return 1
	args="$p --sleep=300 thr"
	xs_argv_rung || args="$p [?]"
	xs_once "$(xs_line "$(cat "$TMP/ids")" "$args")"
}

# t_uid - the program changes its user right after its exec, while execsnoop
# is stopped: no event carries the UID, so -U shows ?, never the user the
# program took afterwards
t_uid() {
	p=$(xs_prog "ftx_uid_$$") || { fail "cannot copy the workload"; return 1; }
	xs_start -U || return 1
	kill -STOP $TOOL_PID
	"$p" --ids="$TMP/ids" --setuid=65534 --sleep=1000 u1 &
	w=$!
	sleep 0.5
	kill -CONT $TOOL_PID
	wait_for_line "$TMP/out" "ftx_uid_$$" 50
	wait $w
	stop_tool || return 1
	set -- $(cat "$TMP/ids")
	grep -Eq "^ +\\? +$1 +$2 $p " "$TMP/out" ||
		fail "wanted UID ? for PID $1; got: $(grep ftx_uid "$TMP/out")"
}

t_short() {
	p=$(xs_prog "ftx_short_$$") || { fail "cannot copy the workload"; return 1; }
	xs_start -a 3 || return 1
	cap_check exec
	xs_argv_rung || { stop_tool; skip "no rung that takes argv on this kernel ($(cap_rungs exec))"; return 0; }
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

# t_rexec - a PID's second exec is shown too (with -r or without: -r is
# accepted and changes nothing), each row with its own arguments
t_rexec() {
	p=$(xs_prog "ftx_rexec_$$") || { fail "cannot copy the workload"; return 1; }
	for r in "" -r; do
		rm -f "$TMP/ids"
		xs_start $r || return 1
		"$p" --ids="$TMP/ids" --exec "$p" "$p" --sleep=300 "second$r"
		wait_for_line "$TMP/out" "ftx_rexec_$$ --sleep=300 second$r\$" 30
		stop_tool || return 1
		pid=$(cut -d' ' -f1 "$TMP/ids")
		n=$(grep -c "^ *$pid .*ftx_rexec_$$" "$TMP/out")
		# the first exec's row: its own arguments, never the second program's
		want=$(xs_line "$(cat "$TMP/ids")" "$p --ids=$TMP/ids --exec $p $p --sleep=300 second$r")
		grep -qxF -- "$want" "$TMP/out" ||
			fail "${r:-without -r}: no line '$want'; got: $(grep "^ *$pid " "$TMP/out")"
		[ "$n" -eq 2 ] || fail "${r:-without -r}: $n lines for PID $pid, wanted 2"
		want=$(xs_line "$(cat "$TMP/ids")" "$p --sleep=300 second$r")
		grep -qxF -- "$want" "$TMP/out" || fail "${r:-without -r}: no line '$want'"
	done
}

# t_note - without -v, one plain stderr line when rows may show [?], or none
t_note() { cap_note_check execsnoop exec; }

t_name() {
	a=$(xs_prog "ftxa_$$") && b=$(xs_prog "ftxb_$$") || { fail "cannot copy"; return 1; }
	xs_start "ftxa_$$" || return 1
	grep -q "^Tracing exec()s issued by process name \"ftxa_$$\". Ctrl-C to end.\$" "$TMP/out" ||
		fail "banner: $(head -n 1 "$TMP/out")"
	"$b" --sleep=300 drop
	rm -f "$TMP/ids"
	"$a" --ids="$TMP/ids" --sleep=300 keep
	wait_for_line "$TMP/out" "ftxa_$$ --ids=.* --sleep=300 keep\$" 50
	stop_tool || return 1
	xs_once "$(xs_line "$(cat "$TMP/ids")" "$a --ids=$TMP/ids --sleep=300 keep")"
	grep -q " $b " "$TMP/out" && fail "other name shown"
	expect_error 2 'bad regular expression' "$BIN/execsnoop" 'ftx('
}

t_fail() {
	p=$(xs_prog "ftx_fail_$$") || { fail "cannot copy the workload"; return 1; }
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

# t_ppid - -P PPID: the execs of PPID's children only, not of its
# grandchildren, not of another process's
t_ppid() {
	p=$(xs_prog "ftx_ppid_$$") || { fail "cannot copy the workload"; return 1; }
	rm -f "$TMP/go" "$TMP/holder" && mkfifo "$TMP/go" || { fail "mkfifo"; return 1; }
	sh -c 'echo $$ > "$1/holder"; read x < "$1/go"
		"$2" --ids="$1/ids1" kid
		sh -c "\"\$0\" --ids=\"\$1\" grand" "$2" "$1/ids3"
		"$2" --ids="$1/ids4" last; exit 0' sh "$TMP" "$p" &
	h=$!
	n=0
	until [ -s "$TMP/holder" ] || [ $n -ge 100 ]; do sleep 0.1; n=$((n + 1)); done
	xs_start -P "$(cat "$TMP/holder")" || { echo go > "$TMP/go"; wait $h; return 1; }
	"$p" --ids="$TMP/ids2" other
	echo go > "$TMP/go"
	wait $h
	wait_for_line "$TMP/out" "ftx_ppid_$$ --ids=$TMP/ids4 last\$" 50
	stop_tool || return 1
	xs_once "$(xs_line "$(cat "$TMP/ids1")" "$p --ids=$TMP/ids1 kid")"
	xs_once "$(xs_line "$(cat "$TMP/ids4")" "$p --ids=$TMP/ids4 last")"
	! grep -Eq " (other|grand)\$" "$TMP/out" ||
		fail "-P $(cat "$TMP/holder"): shown another's or a grandchild's exec: $(grep -E " (other|grand)\$" "$TMP/out")"
}

# t_fail_ppid - a shell's child that fails its exec and exits at once: its
# PPID is the shell's, known from the fork's task_newtask, however soon the
# child is gone
t_fail_ppid() {
	xs_start -x || return 1
	xs_argv_rung || { stop_tool; skip "no rung that takes argv on this kernel ($(cap_rungs exec))"; return 0; }
	sh -c 'echo $$ > "$1"; "$2" "fpx_$3" 2> /dev/null; exit 0' sh "$TMP/shpid" "$TMP/nonexist_$$" $$
	wait_for_line "$TMP/out" "fpx_$$\$" 50
	stop_tool || return 1
	sh=$(cat "$TMP/shpid")
	grep -Eq "^ *[0-9]+ +$sh ENOENT +$TMP/nonexist_$$ fpx_$$\$" "$TMP/out" ||
		fail "the failed exec's row does not name the shell ($sh) as its parent: $(grep "fpx_$$" "$TMP/out")"
}

# t_fail_args - -x with -a 3: a failed exec's arguments, read while its caller
# still holds them: cut at three with "[...]", whole at three, and one longer
# than a first read (300 bytes) whole
t_fail_args() {
	p=$(xs_prog "ftx_fa_$$") || { fail "cannot copy the workload"; return 1; }
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
	p=$(xs_prog "ftx_cols_$$") || { fail "cannot copy the workload"; return 1; }
	xs_start -t -T -U || return 1
	"$p" --ids="$TMP/ids" --sleep=300 c1
	wait_for_line "$TMP/out" "ftx_cols_$$ --ids" 50
	stop_tool || return 1
	set -- $(cat "$TMP/ids")
	grep -qx 'TIME     TIMEs               UID    PID   PPID ARGS' "$TMP/out" ||
		fail "header: $(sed -n 2p "$TMP/out")"
	grep -Eq "^[0-2][0-9]:[0-5][0-9]:[0-5][0-9] [0-9]+\.[0-9]{6} +\\? +$1 +$2 $p " "$TMP/out" ||
		fail "line: $(grep ftx_cols "$TMP/out")"
}

t_duration() {
	p=$(xs_prog "ftx_dur_$$") || { fail "cannot copy the workload"; return 1; }
	xs_start -d 2 || return 1
	grep -q '^Tracing exec()s for 2 seconds (buffered)...$' "$TMP/out" || fail "banner"
	rm -f "$TMP/ids"
	"$p" --ids="$TMP/ids" --sleep=300 buffered
	wait_gone $TOOL_PID 100 || { stop_tool; fail "-d 2 did not end by itself"; return 1; }
	wait $TOOL_PID
	[ $? = 0 ] || fail "exit status"
	xs_once "$(xs_line "$(cat "$TMP/ids")" "$p --ids=$TMP/ids --sleep=300 buffered")"
}

t_head() {
	p=$(xs_prog "ftx_head_$$") || { fail "cannot copy the workload"; return 1; }
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
	# a closed pipe is a normal end
	[ "$(cat "$TMP/rc")" = 0 ] || fail "execsnoop | head -n 3: exit status $(cat "$TMP/rc"), wanted 0"
}

# t_cgroup - --cgroup, relative to the cgroup2 mount (cg_scene: a member
# and its child, a leaver, a joiner, a busy outsider, each exec'ing a link
# named for its role): exactly the execs of the member, its child, the
# leaver before it left and the joiner after it joined are shown
t_cgroup() {
	cg_scene_start || return $?
	cg_scene_trace xs_start "Tracing exec()s in cgroup $CG_REL. Ctrl-C to end." "cgbin/cg_joiner_in" \
		--cgroup "$CG_REL" || return 1
	cg_scene_check "$(grep -o 'cgbin/cg_[a-z_]*' "$TMP/out" | sed 's|.*/||')"
}

# t_show_cgroup_json - -j --show-cgroup (cg_scene, nothing scoped): each
# role's exec has the cgroup it ran in (cg_shown's path; the outsider's may
# be null for a run that began as tracing did), and "container" the ID of
# the docker-ID.scope the leaver and the joiner are in then, null for the
# member's cgroup and the one beside it the leaver moves to
t_show_cgroup_json() {
	cg_scene_start || return $?
	xs_start -j --show-cgroup || { cg_scene_end; return 1; }
	cg_scene_play
	wait_for_line "$TMP/out" 'cgbin/cg_joiner_in' 50
	cg_scene_end
	stop_tool
	id=$(echo "$CG_ID" | cut -c1-12)
	for r in cg_a cg_child cg_leaver_in cg_leaver_out cg_joiner_out cg_joiner_in cg_outside; do
		case $r in
		cg_leaver_in|cg_joiner_in)	want="/$CG_REL/$CG_SUB $id" ;;
		cg_a|cg_child|cg_leaver_out)	want="$(cg_shown $r) null" ;;
		*)				want="$(cg_self)" ;;	# this shell's
		esac
		got=$(jq -r --arg f "$TMP/cgbin/$r" 'select(.file == $f) | "\(.cgroup) \(.container)"' "$TMP/out" |
			sort -u | { [ $r = cg_outside ] && grep -v '^null null$' || cat; } | tr '\n' '|')
		case $r in cg_joiner_out|cg_outside) got=$(echo "$got" | sed 's/ [^ |]*|/|/g') ;; esac
		[ "$got" = "$want|" ] || fail "--show-cgroup: $r: '$got', wanted '$want'"
	done
}

t_badinput() {
	expect_error 2 '-a.*range' "$BIN/execsnoop" -a 33 || return 1
	expect_error 2 '-a' "$BIN/execsnoop" -a 0 || return 1
	expect_error 2 '-d' "$BIN/execsnoop" -d 0 || return 1
	expect_error 2 '-d' "$BIN/execsnoop" -d 1x || return 1
	expect_error 2 'unknown option' "$BIN/execsnoop" -q || return 1
	expect_error 2 'too many' "$BIN/execsnoop" a b || return 1
	"$BIN/execsnoop" -h | grep -q '^USAGE: execsnoop' || fail "-h"
}

# t_rungs - every capture rung this kernel has, forced in turn, with -x: a
# shell's exec, a failed exec through the C library, and a failed raw exec
# of a static program; each one row, with its argv where the rung takes argv
# from that kind of call, else its file (if taken) and [?]
t_rungs() {
	p=$(xs_prog "ftx_rung_$$") || { fail "cannot copy the workload"; return 1; }
	for r in $(cap_rungs exec); do
		rm -f "$TMP/ids0" "$TMP/ids1" "$TMP/ids2"
		export FTT_CAPTURE=$r
		xs_start -x || { unset FTT_CAPTURE; return 1; }
		unset FTT_CAPTURE
		cap_check exec "$r"
		"$p" --ids="$TMP/ids0" --sleep=200 "ok_$r" 'two words'
		"$p" --ids="$TMP/ids1" --sleep=200 --exec "$TMP/nx_$$" "lib_$r" x
		"$WORKLOADS/ftt_exec" --ids="$TMP/ids2" --sleep=200 --exec "$TMP/nx_$$" "raw_$r" y
		"$p" --sleep=200 "end_$r"
		wait_for_line "$TMP/out" "end_$r\$|ftx_rung_$$ \[\?\]\$" 50
		sleep 0.3
		stop_tool || return 1
		set -- $(cat "$TMP/ids0")
		if xs_argv_rung $r; then a="$p --ids=$TMP/ids0 --sleep=200 ok_$r two words"; else a="$p [?]"; fi
		want=$(printf '%6d %6d %-7s %s' "$1" "$2" 0 "$a")
		grep -qxF -- "$want" "$TMP/out" || fail "$r: no line '$want'; got: $(grep "^ *$1 " "$TMP/out")"
		[ "$(grep -c "^ *$1 " "$TMP/out")" = 1 ] || fail "$r: $(grep -c "^ *$1 " "$TMP/out") rows for PID $1"
		for k in 1 2; do
			set -- $(cat "$TMP/ids$k")
			case $r:$k in
			eprobe:*|kprobe:*|uprobe:1) a="$([ $k = 1 ] && echo lib || echo raw)_$r $([ $k = 1 ] && echo x || echo y)" ;;
			syscall:*) a="$TMP/nx_$$ [?]" ;;
			*) a="[?]" ;;
			esac
			want=$(printf '%6d %6d %-7s %s' "$1" "$2" ENOENT "$a")
			grep -qxF -- "$want" "$TMP/out" || fail "$r: no line '$want'; got: $(grep "^ *$1 " "$TMP/out")"
			n=$(grep -c "^ *$1 .*ENOENT" "$TMP/out")
			[ "$n" = 1 ] || fail "$r: $n failed-exec rows for PID $1"
		done
	done
}

# t_broken_rung - a rung this kernel offers but that reads wrong values
# fails its check when forced (cap_broken_check in tests/lib.sh)
t_broken_rung() { cap_broken_check execsnoop; }

# t_user_lib - a C library a user other than root owns is left out: no uprobe
# on it (user_lib_check in tests/lib.sh)
t_user_lib() { user_lib_check execsnoop execve; }

# t_hostile - arguments with terminal controls, a newline and a byte that is
# not UTF-8 are shown escaped, never raw
t_hostile() {
	p=$(xs_prog "ftx_ho_$$") || { fail "cannot copy the workload"; return 1; }
	xs_start || return 1
	cap_check exec
	"$p" --ids="$TMP/ids" --sleep=300 "$HOSTILE" "$(printf 'x\033[0m\tz')"
	wait_for_line "$TMP/out" "ftx_ho_$$" 50
	stop_tool || return 1
	if xs_argv_rung; then
		want=$(xs_line "$(cat "$TMP/ids")" "$p --ids=$TMP/ids --sleep=300 $HOSTILE_VIS x\\x1b[0m\\x09z")
	else
		want=$(xs_line "$(cat "$TMP/ids")" "$p [?]")
	fi
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'; got: $(grep -F "ftx_ho_$$" "$TMP/out")"
	vis_clean "$TMP/out" || fail "raw control or non-ASCII bytes in the output: $(LC_ALL=C grep -n '[^ -~]' "$TMP/out" | od -c | head -5)"
}

# t_json - -j -x -U: every stdout line a JSON object (the banner on stderr);
# the workload's exec with its exact PID, PPID and argv, and UID null, one argument
# a hostile string (ESC, a newline, a C1 CSI, a byte that is not UTF-8: it
# decodes to exactly those bytes, the last as the text \xff), and an exec
# that fails with ENOENT, its own argv
t_json() {
	p=$(xs_prog "ftx_json_$$") || { fail "cannot copy the workload"; return 1; }
	xs_start -j -x -U || return 1
	grep -q '^Tracing exec' "$TMP/err" || fail "-j: no banner on stderr"
	t0=$(date +%s)
	"$p" --ids="$TMP/ids" --sleep=300 one "two words" "$HOSTILE"
	"$p" --ids="$TMP/ids2" --sleep=300 --exec "$TMP/nonexist_$$" x "y z"
	t1=$(date +%s)
	wait_for_line "$TMP/out" "nonexist_$$" 50
	stop_tool || return 1
	json_check "$TMP/out" || return 1
	xs_argv_rung || { skip "no rung that takes argv on this kernel ($(cap_rungs exec))"; return 0; }
	set -- $(cat "$TMP/ids")
	jq -c --arg p "$p" --arg ids "--ids=$TMP/ids" --arg host "$(uname -n)" "select(.pid == $1 and
		.ppid == $2 and .uid == null and .ret == 0 and .error == null and .file == \$p and
		.args[0:5] == [\$p, \$ids, \"--sleep=300\", \"one\", \"two words\"] and
		(.args | length) == 6 and .more == false and .cut == false and
		.tool == \"execsnoop\" and .host == \$host)" "$TMP/out" > "$TMP/row"
	[ "$(wc -l < "$TMP/row")" = 1 ] ||
		{ fail "-j: $(wc -l < "$TMP/row") objects for the exec of PID $1; got: $(grep -a ftx_json "$TMP/out")"; return 1; }
	jq -j '.args[5]' "$TMP/row" > "$TMP/got"
	printf 'a\033[1A\nb\302\233c\\xff' > "$TMP/want"
	cmp -s "$TMP/got" "$TMP/want" ||
		fail "-j: the hostile argument decodes to '$(od -c "$TMP/got" | head -3)', want '$(od -c "$TMP/want" | head -3)'"
	json_time_ok "$(jq -r .time "$TMP/row")" "$t0" "$t1"
	set -- $(cat "$TMP/ids2")
	n=$(jq -c --arg f "$TMP/nonexist_$$" "select(.pid == $1 and .ppid == $2 and .ret == -1 and
		.error == \"ENOENT\" and .file == \$f and .args == [\"x\", \"y z\"])" "$TMP/out" | wc -l)
	[ "$n" = 1 ] || fail "-j: $n objects for the failed exec of PID $1; got: $(grep -a nonexist "$TMP/out")"
}

# t_json_head - -j | head -n 1: one whole object, and execsnoop ends (0)
t_json_head() {
	( while [ ! -e "$TMP/stop" ]; do /bin/true; sleep 0.05; done ) &
	loop=$!
	json_head_run 30 "$BIN/execsnoop" -j
	touch "$TMP/stop"
	wait $loop
	# (the first exec may be one in flight when tracing began: its parent,
	# gone before /proc was read, is unknown, null; never a guess)
	json_head_ok '.tool == "execsnoop" and (.pid | type) == "number" and
		((.ppid | type) == "number" or .ppid == null)'
}

# t_pcomm - --pcomm: the name of the parent at the exec, not at the fork: a
# shell named pca$$ forks a subshell, renames itself pcb$$, and only then
# does the subshell exec; the shell's own exec row names its parent
t_pcomm() {
	ln -s "$WORKLOADS/ftt_exec" "$TMP/pcc$$" || { fail "cannot link"; return 1; }
	start_tool "$BIN/execsnoop" --pcomm || { fail "did not start: $(cat "$TMP/err")"; return 1; }
	sh -c "printf pca$$ > /proc/\$\$/comm; ( sleep 0.3; exec $TMP/pcc$$ ) & sleep 0.1; printf pcb$$ > /proc/\$\$/comm; wait"
	wait_for_line "$TMP/out" " $TMP/pcc$$\$" 50
	stop_tool || return 1
	sed -n 2p "$TMP/out" | grep -Eq '^ +PID +PPID PCOMM +ARGS$' || fail "header: $(sed -n 2p "$TMP/out")"
	r=$(grep -E "^ *[0-9]+ +[0-9]+ [^ ]+ +$TMP/pcc$$\$" "$TMP/out")
	[ "$(echo "$r" | awk '{print $3}')" = "pcb$$" ] ||
		fail "--pcomm: the row of pcc$$ does not name its parent pcb$$ (renamed after the fork, before the exec): ${r:-none}; $(grep "pc[abc]$$" "$TMP/out")"
}

# t_exec_cmd - --exec: the shell's own exec first, then the command's program and
# that of a process the shell left behind; none of a process outside it; the
# run ends by itself
t_exec_cmd() {
	exec_run "$WORKLOADS/ftt_exec" "" "$BIN/execsnoop" || return 1
	sed -n 3p "$TMP/out" | grep -Eq "^ *[0-9]+ +[0-9]+ sh -c $TMP/xf$$ " ||
		fail "--exec: the first row is not the shell's exec: $(sed -n 3p "$TMP/out")"
	for n in xf:1 xl:1 xo:0; do
		c=$(grep -Ec "^ *[0-9]+ +[0-9?]+ $TMP/${n%:*}$$\$" "$TMP/out")
		[ "$c" = "${n#*:}" ] || fail "--exec: $c rows of ${n%:*}$$, not ${n#*:}: $(cat "$TMP/out")"
	done
}

# every exit path (tests/exits.sh)
exit_paths execsnoop

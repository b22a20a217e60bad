# SPDX-License-Identifier: GPL-2.0-only
# tests/live/killsnoop.sh - killsnoop against signals whose senders, targets and results are known
#
# Workload: tests/bin/ftt_kill, named ftk<PID>, starts a target child that
# blocks its signals, then sends it known signals by each of the six system
# calls (raw syscalls), fails with ESRCH (a reaped child, a pidfd of one) and
# with EPERM (as the user nobody, to its root target and to PID 1), and makes
# the kernel send signals (a child's SIGSEGV, a SIGPIPE); it prints each
# call's target and result, the ground truth the rows are compared with.

# the workload's actions: every call, ESRCH and EPERM
KS_ACTS="kill:T:10 tkill:T:12 tgkill:T:T:15 sigqueue:T:10 tgsigqueue:T:T:34 pidfd:T:1 pidfdgone:10 kill:D:10 uid:65534 kill:T:1 kill:1:0"

# ks_start ARGS... - start killsnoop with ARGS or fail
ks_start() {
	start_tool "$BIN/killsnoop" "$@" ||
		{ stop_tool_rc; fail "did not start: $(head -c 300 "$TMP/err")"; return 1; }
}

# ks_work NAME ACTIONS... - start the workload named NAME (ground truth in
# $TMP/NAME.truth), waiting for $TMP/go; sets W (its PID), TG (its target)
ks_work() {
	kn=$1
	shift
	rm -f "$TMP/go"
	"$WORKLOADS/ftt_kill" "--comm=$kn" "--go=$TMP/go" "$@" > "$TMP/$kn.truth" 2> "$TMP/$kn.err" &
	KS_BG="${KS_BG:-} $!"
	wait_for_line "$TMP/$kn.truth" '^target ' 100 || { fail "ftt_kill did not start: $(cat "$TMP/$kn.err")"; return 1; }
	set -- $(head -n 1 "$TMP/$kn.truth")
	TG=$2 W=$4
}

# ks_go - let the workloads act, and wait for them
ks_go() {
	touch "$TMP/go"
	for p in $KS_BG; do wait "$p" || fail "ftt_kill $p failed"; done
	KS_BG=
}

# ks_signal N - the SIGNAL column for signal N (names: -s)
ks_signal() {
	if [ "${KS_NAMES:-0}" = 1 ] && [ "$1" -ge 1 ] && [ "$1" -le 31 ]; then
		echo "SIG$(kill -l "$1")"
	else
		echo "$1"
	fi
}

# ks_rows NAME PID - the exact rows the workload NAME (process PID) makes, in
# order, from its ground truth (kernel rows only with KS_ALL=1)
ks_rows() {
	tail -n +2 "$TMP/$1.truth" | while read -r call tpid sig ret err; do
		if [ "$call" = kernel ]; then
			[ "${KS_ALL:-0}" = 1 ] || continue
			comm=$ret		# "kernel TPID SIG TCOMM -"
			[ "$comm" = - ] && comm=$1
			printf '%-16.16s %-6s %-8s %-10s %-4s\n' "$comm" - "$tpid" "$(ks_signal "$sig")" kernel
		else
			printf '%-16.16s %-6s %-8s %-10s %-4s\n' "$1" "$2" "$tpid" "$(ks_signal "$sig")" "$ret"
		fi
	done
}

# ks_wait_row ROW - wait for the line ROW in $TMP/out
ks_wait_row() {
	n=0
	while ! grep -qxF -- "$1" "$TMP/out" && [ $n -lt $((100 * SLOW)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

# ks_check NAME PID - the rows of the sender PID in $TMP/out are exactly ks_rows
ks_check() {
	ks_rows "$1" "$2" > "$TMP/want"
	awk -v p="$2" 'substr($0, 18, 6) + 0 == p' "$TMP/out" > "$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" ||
		fail "rows of $2 differ: $(diff "$TMP/want" "$TMP/got" | head -20 | tr '\n' '|')"
}

t_calls() {
	ks_start || return 1
	ks_work "ftk$$" $KS_ACTS || { stop_tool; return 1; }
	ks_go
	ks_wait_row "$(printf '%-16.16s %-6s %-8s %-10s %-4s' "ftk$$" "$W" "$TG" 9 0)"
	stop_tool || return 1
	head -n 2 "$TMP/out" | tail -n 1 | grep -qx 'COMM             PID    TPID     SIGNAL     RETURN' ||
		fail "header: $(sed -n 2p "$TMP/out")"
	ks_check "ftk$$" "$W"
	# the failures the workload met are among the rows
	grep -q "ESRCH" "$TMP/ftk$$.truth" && grep -q "EPERM" "$TMP/ftk$$.truth" ||
		fail "the workload met no ESRCH or no EPERM: $(cat "$TMP/ftk$$.truth")"
}

t_names() {
	ks_start -s || return 1
	ks_work "ftk$$" kill:T:1 kill:T:15 tgkill:T:T:10 kill:T:0 kill:T:34 kill:T:31 || { stop_tool; return 1; }
	ks_go
	ks_wait_row "$(printf '%-16.16s %-6s %-8s %-10s %-4s' "ftk$$" "$W" "$TG" SIGKILL 0)"
	stop_tool || return 1
	KS_NAMES=1 ks_check "ftk$$" "$W"
}

t_json() {
	ks_start -j || return 1
	t0=$(date +%s)
	ks_work "ftk$$" $KS_ACTS || { stop_tool; return 1; }
	ks_go
	t1=$(date +%s)
	wait_for_line "$TMP/out" "\"tpid\":$TG,\"signal\":9," 100
	stop_tool || return 1
	json_check "$TMP/out" || return 1
	tail -n +2 "$TMP/ftk$$.truth" | while read -r call tpid sig ret err; do
		case $call in
		sigqueue) call=rt_sigqueueinfo ;;
		tgsigqueue) call=rt_tgsigqueueinfo ;;
		pidfd) call=pidfd_send_signal ;;
		esac
		[ "$tpid" = "?" ] && tpid=null
		[ "$err" = - ] && err=null
		echo "ftk$$ $W $tpid $sig $ret $err $call false"
	done > "$TMP/want"
	jq -r --argjson p "$W" 'select(.pid == $p) |
		"\(.comm) \(.pid) \(.tpid) \(.signal) \(.ret) \(.error) \(.call) \(.kernel)"' \
		"$TMP/out" > "$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" ||
		fail "-j rows differ: $(diff "$TMP/want" "$TMP/got" | head -20 | tr '\n' '|')"
	json_time_ok "$(jq -r --argjson p "$W" 'select(.pid == $p) | .time' "$TMP/out" | head -n 1)" \
		"$t0" "$t1"
	[ "$(jq -r --argjson p "$W" 'select(.pid == $p and .signal == 15) | .signame' "$TMP/out")" = SIGTERM ] ||
		fail "-j: signame of SIGTERM"
}

# t_target - -p: only signals to the target, filtered in the kernel (the
# entry events' filters name it); a pidfd call of unknown target is counted
t_target() {
	ks_work "ftk$$" $KS_ACTS || return 1
	ks_start -p "$TG" || { ks_go; return 1; }
	f=$(cat "$(run_inst killsnoop "$TOOL_PID")/events/syscalls/sys_enter_kill/filter")
	case $f in *"pid == $TG "*) ;; *) fail "-p is not in the kernel filter: $f" ;; esac
	ks_go
	ks_wait_row "$(printf '%-16.16s %-6s %-8s %-10s %-4s' "ftk$$" "$W" "$TG" 9 0)"
	stop_tool || return 1
	grep -q "^Tracing kill()s issued to PID $TG\. Ctrl-C to end\.\$" "$TMP/out" || fail "banner: $(head -n 1 "$TMP/out")"
	ks_rows "ftk$$" "$W" | awk -v t="$TG" 'substr($0, 25, 8) + 0 == t && substr($0, 25, 1) != "?"' > "$TMP/want"
	awk 'NR > 2 && NF == 5' "$TMP/out" > "$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" ||
		fail "-p rows differ: $(diff "$TMP/want" "$TMP/got" | head -20 | tr '\n' '|')"
	grep -q "1 pidfd_send_signal calls whose target was not known" "$TMP/err" ||
		fail "no count of the pidfd call -p could not match: $(cat "$TMP/err")"
}

# t_name - -n: only the named sender, not a decoy doing the same
t_name() {
	ks_start -n "^ftk$$\$" || return 1
	ks_work "ftk$$" kill:T:10 tkill:T:12 kill:D:1 || { stop_tool; return 1; }
	w1=$W
	ks_work "ftd$$" kill:T:10 tkill:T:12 kill:D:1 || { stop_tool; return 1; }
	ks_go
	ks_wait_row "$(printf '%-16.16s %-6s %-8s %-10s %-4s' "ftk$$" "$w1" "$(sed -n '1s/target \([0-9]*\).*/\1/p' "$TMP/ftk$$.truth")" 9 0)"
	sleep 0.3
	stop_tool || return 1
	ks_rows "ftk$$" "$w1" > "$TMP/want"
	awk 'NR > 2 && NF == 5' "$TMP/out" > "$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" ||
		fail "-n rows differ: $(diff "$TMP/want" "$TMP/got" | head -20 | tr '\n' '|')"
}

# t_kernel - -a: the kernel's SIGSEGV to a faulting child and SIGPIPE to the
# writer, with RETURN kernel and no sender; the calls' signals are not shown twice
t_kernel() {
	ks_start -a || return 1
	ks_work "ftk$$" kill:T:10 segv pipe pidfd:T:12 || { stop_tool; return 1; }
	ks_go
	ks_wait_row "$(printf '%-16.16s %-6s %-8s %-10s %-4s' "ftk$$" "$W" "$TG" 9 0)"
	sleep 0.3
	stop_tool || return 1
	KS_ALL=1 ks_rows "ftk$$" "$W" > "$TMP/want"
	while IFS= read -r row; do
		[ "$(grep -cxF -- "$row" "$TMP/out")" = 1 ] || fail "wanted once: '$row'"
	done < "$TMP/want"
	# the call's signals are its rows', never kernel rows
	grep -E "^.{24}$TG +(10|12|9) +kernel" "$TMP/out" && fail "a call's signal shown as the kernel's"
	return 0
}

# t_kernel_json - -a -j: a kernel row has no sender, its target's name and code
t_kernel_json() {
	ks_start -a -j || return 1
	ks_work "ftk$$" segv || { stop_tool; return 1; }
	ks_go
	sleep 0.5
	stop_tool || return 1
	json_check "$TMP/out" || return 1
	c=$(sed -n 's/^kernel \([0-9]*\) 11 .*/\1/p' "$TMP/ftk$$.truth")
	got=$(jq -c --argjson c "$c" 'select(.tpid == $c and .signal == 11) |
		[.comm, .pid, .ret, .kernel, .tcomm, .code, .call]' "$TMP/out")
	[ "$got" = '[null,null,null,true,"ftksegv",1,null]' ] || fail "kernel SIGSEGV row: $got"
}

t_buffered() {
	ks_start -t -d 3 || return 1
	ks_work "ftk$$" kill:T:10 kill:D:10 || { stop_tool; return 1; }
	ks_go
	wait_gone "$TOOL_PID" $((60 * SLOW)) || { stop_tool; fail "-d 3 did not end"; return 1; }
	wait "$TOOL_PID"; rc=$?
	[ $rc = 0 ] || fail "exit status $rc"
	grep -q '^Tracing kill()s for 3 seconds (buffered)\.\.\.$' "$TMP/out" || fail "banner: $(head -n 1 "$TMP/out")"
	sed -n 2p "$TMP/out" | grep -qx 'TIMEs            COMM             PID    TPID     SIGNAL     RETURN' ||
		fail "header: $(sed -n 2p "$TMP/out")"
	ks_rows "ftk$$" "$W" > "$TMP/want"
	awk -v p="$W" 'substr($0, 35, 6) + 0 == p { if ($1 !~ /^[0-9]+\.[0-9]{6}$/) print "bad time " $1; print substr($0, 18) }' \
		"$TMP/out" > "$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" ||
		fail "-d -t rows differ: $(diff "$TMP/want" "$TMP/got" | head -20 | tr '\n' '|')"
}

t_bad_input() {
	expect_error 2 "-p: .*out of range" "$BIN/killsnoop" -p 0 || return 1
	expect_error 2 "-p: .*not a decimal" "$BIN/killsnoop" -p 1x || return 1
	expect_error 2 "use either -p or -n" "$BIN/killsnoop" -p 1 -n sh || return 1
	expect_error 2 "unexpected argument 'extra'" "$BIN/killsnoop" extra || return 1
	expect_error 2 "-n: " "$BIN/killsnoop" -n 'a(' || return 1
	expect_error 2 "control character" "$BIN/killsnoop" -n "$(printf 'a\nb')" || return 1
	expect_error 2 "unknown option" "$BIN/killsnoop" -Z || return 1
	expect_error 2 "-d: " "$BIN/killsnoop" -d 0 || return 1
}

# t_cgroup - --cgroup (cg_scene: a member and its child, a leaver, a joiner,
# a busy outsider, each sending signal 0 to itself under its own name, then
# SIGKILL to its target child): exactly the signals of the member, its
# child, the leaver before it left and the joiner after it joined are shown
t_cgroup() {
	CG_PROG=$WORKLOADS/ftt_kill CG_ARGS=kill:S:0
	cg_scene_start || return $?
	cg_scene_trace start_tool "Tracing kill()s in cgroup $CG_REL. Ctrl-C to end." \
		"^cg_joiner_in .* 9 " "$BIN/killsnoop" --cgroup "$CG_REL" || return 1
	cg_scene_check "$(awk 'NF == 5 && $4 == "0" { print $1 }' "$TMP/out")"
	# the rest of the member's rows: its one SIGKILL each
	n=$(awk 'NF == 5 && $4 == "9" && $1 ~ /^cg_(a|child|leaver_in|joiner_in)$/' "$TMP/out" | wc -l)
	[ "$n" -eq 4 ] || fail "--cgroup: $n SIGKILLs of the members shown, made 4: $(head -c 600 "$TMP/out")"
	expect_error 2 'use either --exec or --cgroup' "$BIN/killsnoop" --exec true --cgroup /
}

# t_show_cgroup - --show-cgroup (cg_scene, nothing scoped; each role sends
# signal 0 to itself): the sender's cgroup at each call (cg_shown), in a
# last column
t_show_cgroup() {
	CG_PROG=$WORKLOADS/ftt_kill CG_ARGS=kill:S:0
	cg_scene_start || return $?
	cg_scene_trace start_tool "Tracing kill()s. Ctrl-C to end." "^cg_joiner_in .* 9 " \
		"$BIN/killsnoop" --show-cgroup || return 1
	[ "$(sed -n 2p "$TMP/out")" = "$(printf '%-16s %-6s %-8s %-10s %4s CGROUP' COMM PID TPID SIGNAL RETURN)" ] ||
		fail "header: $(sed -n 2p "$TMP/out")"
	cg_shown_check "$(awk '$4 == "0" { print $1, $6 }' "$TMP/out")"
}

# t_exec_cmd - --exec: the signals the command's program sends and those of a
# process its shell left behind, shown; none of a process outside it; the
# run ends by itself
t_exec_cmd() {
	exec_run "$WORKLOADS/ftt_kill" "kill:D:0" "$BIN/killsnoop" || return 1
	exec_rows "" +
}

exit_paths killsnoop

# SPDX-License-Identifier: GPL-2.0-only
# tests/live/tcpretrans.sh - tcpretrans against retransmits the tests make on loopback
#
# Ground truth comes from $WORKLOADS/synflood: a listener with backlog 0 that never
# accepts, so later SYNs are dropped and retransmitted (state SYN_SENT); with -d an
# ESTABLISHED socket whose data the full listener drops (tail loss probe, then RTO).
# synflood prints the listener's port and the local ports of the sockets that will
# retransmit; the rows must name exactly those.

# tr_flood - run synflood ARGS in the background until it prints "ready";
# sets SF_PID, SF_LPORT (listener), SF_PORTS (retransmitting), SF_OTHER (not)
tr_flood() {
	"$WORKLOADS/synflood" "$@" > "$TMP/sf" 2> "$TMP/sf.err" &
	SF_PID=$!
	if ! wait_for_line "$TMP/sf" '^ready' 50; then
		kill $SF_PID 2>/dev/null
		wait $SF_PID 2>/dev/null
		return 1
	fi
	SF_LPORT=$(awk '$1 == "listen" { print $3 }' "$TMP/sf")
	SF_PORTS=$(awk '$1 == "syn_sent" || $1 == "established" { print $2 }' "$TMP/sf")
	SF_OTHER=$(awk '$1 == "other" { print $2 }' "$TMP/sf")
}

# tr_flood_end - stop the background synflood
tr_flood_end() {
	kill $SF_PID 2>/dev/null
	wait $SF_PID 2>/dev/null
}

# tr_has_v6 - the kernel has IPv6 (::1 comes up with lo)
tr_has_v6() { [ -e /proc/net/if_inet6 ]; }

# tr_rows - run the tool (args $1) around synflood (args $2), wait for a row
# marked $3 (R or L) for every retransmitting port, and check each one exactly:
# local address $4, remote address $4 with the listener's port, state $5
tr_rows() {
	targs=$1 fargs=$2 mark=$3 addr=$4 state=$5
	if ! start_tool "$BIN/tcpretrans" $targs; then
		stop_tool
		fail "tool did not start: $(cat "$TMP/err")"
		return 1
	fi
	if ! tr_flood $fargs; then
		stop_tool
		fail "synflood $fargs failed: $(cat "$TMP/sf.err")"
		return 1
	fi
	[ -n "$SF_PORTS" ] || { tr_flood_end; stop_tool; fail "synflood made no retransmitting socket: $(cat "$TMP/sf")"; return 1; }
	for p in $SF_PORTS; do
		wait_for_line "$TMP/out" ":$p +$mark> .*:$SF_LPORT " 100 || break
	done
	# stop the tool first: closing the sockets would add FIN_WAIT1 retransmits
	stop_tool || { tr_flood_end; return 1; }
	tr_flood_end
	[ "$TOOL_RC" = 0 ] || { fail "exit $TOOL_RC after SIGINT: $(cat "$TMP/err")"; return 1; }
	head -n 1 "$TMP/out" | grep -q '^Tracing TCP retransmits.* Ctrl-C to end\.$' ||
		{ fail "no banner: $(head -n 1 "$TMP/out")"; return 1; }
	sed -n 2p "$TMP/out" | grep -q '^TIME     PID    LADDR:LPORT          -- RADDR:RPORT          STATE *$' ||
		{ fail "header: $(sed -n 2p "$TMP/out")"; return 1; }
	tail -n 1 "$TMP/out" | grep -q '^Ending tracing\.\.\.$' || { fail "no 'Ending tracing...'"; return 1; }
	for p in $SF_PORTS; do
		re="^[0-2][0-9]:[0-5][0-9]:[0-5][0-9] [0-9]+ +$addr:$p +$mark> $addr:$SF_LPORT +$state *\$"
		grep -Eq "$re" "$TMP/out" ||
			{ fail "no row /$re/ in: $(grep "[RL]>" "$TMP/out" | head -5)"; return 1; }
	done
	for p in $SF_OTHER; do
		! grep -q ":$p  *[RL]> " "$TMP/out" || { fail "row for port $p, which did not retransmit"; return 1; }
	done
	# every row to the listener's port is in that state
	bad=$(grep ":$SF_LPORT " "$TMP/out" | grep -Ev " [RL]> .* $state *\$" | head -n 1)
	[ -z "$bad" ] || { fail "unexpected row: $bad"; return 1; }
}

t_syn_sent_ipv4() {
	tr_rows "" "-n 3 -t 60" R '127\.0\.0\.1' SYN_SENT
}

t_syn_sent_ipv6() {
	tr_has_v6 || { skip "no IPv6 in this kernel"; return 0; }
	tr_rows "" "-6 -n 3 -t 60" R '\[::1\]' SYN_SENT
}

t_established_ipv4() {
	tr_rows "" "-d -t 60" R '127\.0\.0\.1' ESTABLISHED
}

t_established_ipv6() {
	tr_has_v6 || { skip "no IPv6 in this kernel"; return 0; }
	tr_rows "" "-6 -d -t 60" R '\[::1\]' ESTABLISHED
}

# -l: tail loss probes, from a kprobe where the kernel has no TLP tracepoint
# tr_tlp FLOODARGS ADDR - tr_rows for tail loss probes, up to three tries:
# whether the kernel sends the probe before the RTO fires depends on timing,
# and a Debian 6.12 guest under TCG sent none in about one run in three (a
# tool that never shows them still fails all three)
tr_tlp() {
	try=1
	while :; do
		rm -f "$TMP/.why"
		tr_rows "-l" "$1" L "$2" ESTABLISHED && [ ! -s "$TMP/.why" ] && return 0
		[ $try -ge 3 ] && return 1
		echo "try $try: $(cat "$TMP/.why")"
		try=$((try + 1))
	done
}

t_tlp_ipv4() {
	if ! kernel_has events/tcp/tcp_send_loss_probe && ! kernel_has kprobe_events; then
		expect_error 1 '^tcpretrans: -l needs kprobes' "$BIN/tcpretrans" -l || return 1
		skip "no kprobes: -l refused with one line, as it should"
		return 0
	fi
	tr_tlp "-d -t 60" '127\.0\.0\.1'
}

# -l through a kprobe proves its reads of the socket at startup; where the
# check cannot run (its kprobe's enable refused, through faultinj.so), -l is
# refused with one line, exit 1, and nothing is traced
t_tlp_unproven() {
	if kernel_has events/tcp/tcp_send_loss_probe || ! kernel_has kprobe_events; then
		skip "-l uses no kprobe here (a tracepoint, or no kprobes)"
		return 0
	fi
	so=$WORKLOADS/faultinj.so
	[ -f "$so" ] || { skip "no $so"; return 0; }
	FTT_FAULT=write:tlp_proof/enable:1 FTT_FAULT_LOG=$TMP/faultlog LD_PRELOAD=$so \
		"$BIN/tcpretrans" -l > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	if ! wait_gone $pid 100; then
		kill -INT $pid
		wait $pid
		fail "-l not refused: it traced for 10 s ($(head -n 1 "$TMP/out"))"
		return 1
	fi
	wait $pid
	rc=$?
	grep -q '^loaded' "$TMP/faultlog" 2>/dev/null || { skip "faultinj.so not loaded (static build)"; return 0; }
	[ $rc = 1 ] || { fail "exit $rc, want 1; stderr: $(head -c 300 "$TMP/err")"; return 1; }
	[ "$(wc -l < "$TMP/err")" = 1 ] && grep -q '^tcpretrans: -l: cannot enable the socket check' "$TMP/err" ||
		{ fail "stderr: $(head -c 300 "$TMP/err")"; return 1; }
	! grep -q Tracing "$TMP/out" || { fail "it traced: $(head -c 200 "$TMP/out")"; return 1; }
}

t_tlp_ipv6() {
	if ! kernel_has events/tcp/tcp_send_loss_probe && ! kernel_has kprobe_events; then
		skip "no kprobes for -l"
		return 0
	fi
	tr_has_v6 || { skip "no IPv6 in this kernel"; return 0; }
	tr_tlp "-6 -d -t 60" '\[::1\]'
}

# -s: rows are followed by the kernel stack that retransmitted. The kernel
# itself records no stack for some events (tpoint -s, which prints the kernel's
# own text, shows the same), so the test waits for the first stack.
t_stacks() {
	r=0
	# the reference: the kernel's own stacks for the same event, in an
	# instance of the test's, read as the kernel prints them. It records
	# only while the tool does (on once the tool runs, off before it stops),
	# so that a stack it holds is one of an event the tool saw
	ref=$T/instances/tcpref-$$
	mkdir "$ref" || { fail "cannot make the reference instance $ref"; return 1; }
	echo 1 > "$ref/options/stacktrace" ||
		{ rmdir "$ref"; fail "cannot set up the reference instance"; return 1; }
	start_tool "$BIN/tcpretrans" -s || { stop_tool; rmdir "$ref"; fail "tool did not start: $(cat "$TMP/err")"; return 1; }
	echo 1 > "$ref/events/tcp/tcp_retransmit_skb/enable" ||
		{ stop_tool; rmdir "$ref"; fail "cannot enable the reference instance's event"; return 1; }
	tr_flood -n 3 -t 60 || {
		stop_tool; echo 0 > "$ref/events/tcp/tcp_retransmit_skb/enable"; rmdir "$ref"
		fail "synflood failed: $(cat "$TMP/sf.err")"; return 1
	}
	wait_for_line "$TMP/out" '^ => .*tcp_retransmit' 150 || r=1
	echo 0 > "$ref/tracing_on"
	stop_tool
	tr_flood_end
	cat "$ref/trace" > "$TMP/ref"
	echo 0 > "$ref/events/tcp/tcp_retransmit_skb/enable"
	rmdir "$ref"
	if [ "${r:-0}" = 1 ]; then
		# rows but no stack at all: on Linux 6.18 the kernel sometimes records
		# none for retransmits from an idle CPU's softirq for a whole run; a
		# skip only where the reference instance got no stack either
		if grep -q ' R> ' "$TMP/out" && ! grep '^ => ' "$TMP/out" | grep -vq '^ => \[?\]$'; then
			if grep -q '<stack trace>' "$TMP/ref"; then
				fail "the kernel recorded stacks (reference instance: $(grep -c '<stack trace>' "$TMP/ref")), tcpretrans -s showed none"
				return 1
			fi
			grep -q 'tcp_retransmit_skb:' "$TMP/ref" ||
				{ fail "the reference instance saw no retransmit while tcpretrans showed rows"; return 1; }
			skip "rows came, but the kernel recorded no stack for any of them, in a second instance too (see tcpretrans(8))"
			return 0
		fi
		fail "no stack with tcp_retransmit*: $(head -c 600 "$TMP/out")"
		return 1
	fi
	# every stack line follows a row or another stack line
	awk '/ R> /{ ok = 1; next } /^ => / { if (!ok) bad = 1; next } { ok = 0 }
	     END { exit bad }' "$TMP/out" || { fail "a stack line without its row"; return 1; }
	grep -q "R> 127\.0\.0\.1:$SF_LPORT " "$TMP/out" || { fail "no row for the listener"; return 1; }
}

# tr_row_stacks FILE - each row is followed by its stack lines (" => [?]"
# where the stack is unknown), and every stack line follows a row or another
# stack line: no row without its stack, no stack under another row
tr_row_stacks() {
	awk '/ [RL]> / { if (row) { print "row without its stack: " prev; bad = 1 }
			 row = 1; ok = 1; prev = $0; next }
	     /^ => / { if (!ok) { print "stack line without a row: " $0; bad = 1 }
		       row = 0; next }
	     { if (row) { print "row without its stack: " prev; bad = 1 }; row = 0; ok = 0 }
	     END { if (row) { print "row without its stack: " prev; bad = 1 }; exit bad }' "$1"
}

# -s with both CPUs retransmitting at once: a synflood pinned to each CPU,
# their SYN timers due together. The records of the two CPUs come merged by
# time, so a row of one CPU can come between the other's row and stack: each
# row must still have its own stack lines right under it.
t_stacks_two_cpus() {
	[ "$(nproc)" -ge 2 ] || { skip "one CPU: nothing to interleave"; return 0; }
	command -v taskset > /dev/null || { skip "no taskset"; return 0; }
	start_tool "$BIN/tcpretrans" -s || { stop_tool; fail "tool did not start: $(cat "$TMP/err")"; return 1; }
	for c in 0 1; do
		taskset -c $c "$WORKLOADS/synflood" -n 6 -t 60 > "$TMP/sf$c" 2> "$TMP/sf$c.err" &
		eval "sf$c=\$!"
	done
	ports=
	for c in 0 1; do
		wait_for_line "$TMP/sf$c" '^ready' 50 || { kill $sf0 $sf1; wait; stop_tool; fail "synflood on CPU $c: $(cat "$TMP/sf$c.err")"; return 1; }
		ports="$ports $(awk '$1 == "syn_sent" { print $2 }' "$TMP/sf$c")"
	done
	# the SYNs are sent again after 1, 3 and 7 s: wait for the third round
	for p in $ports; do
		wait_for_lines "$TMP/out" ":$p " 3 150
	done
	stop_tool
	kill $sf0 $sf1 2>/dev/null
	wait $sf0 $sf1 2>/dev/null
	for p in $ports; do
		grep -q ":$p +R> " "$TMP/out" || grep -Eq ":$p +R> " "$TMP/out" ||
			{ fail "no row for port $p"; return 1; }
	done
	echo "rows: $(grep -c ' R> ' "$TMP/out"), stack lines: $(grep -c '^ => ' "$TMP/out")," \
		"unknown: $(grep -c '^ => \[?\]$' "$TMP/out")"
	tr_row_stacks "$TMP/out" > "$TMP/bad" || { fail "$(head -n 3 "$TMP/bad")"; return 1; }
}

# | head -n 5: banner, header, three rows, then the tool ends by itself
t_head() {
	# three rows: a connection of an earlier test that still retransmits (a
	# FIN in FIN_WAIT1) may come first; the flood's own must be among them
	( "$BIN/tcpretrans" | head -n 5 > "$TMP/head"; echo done > "$TMP/head.done" ) 2> "$TMP/err" &
	hp=$!
	sleep 0.5
	tr_flood -n 2 -t 60 || { kill $hp; fail "synflood failed"; return 1; }
	wait_for_line "$TMP/head.done" done 100 || r=1
	tr_flood_end
	if [ "${r:-0}" = 1 ]; then
		pkill_tool=$(pgrep -P $hp 2>/dev/null)
		kill -INT $pkill_tool 2>/dev/null
		wait $hp
		fail "tcpretrans | head -n 5 did not end within 10 s"
		return 1
	fi
	wait $hp
	[ "$(wc -l < "$TMP/head")" -eq 5 ] || { fail "head got $(wc -l < "$TMP/head") lines"; return 1; }
	grep -q "R> 127\.0\.0\.1:$SF_LPORT " "$TMP/head" || { fail "no row in: $(cat "$TMP/head")"; return 1; }
}

t_bad_input() {
	expect_error 2 '^tcpretrans: unknown option -x' "$BIN/tcpretrans" -x || return 1
	expect_error 2 '^tcpretrans: unknown option --bogus' "$BIN/tcpretrans" --bogus || return 1
	expect_error 2 '^tcpretrans: unexpected argument' "$BIN/tcpretrans" 80 || return 1
	"$BIN/tcpretrans" -h > "$TMP/h" 2>&1 || { fail "-h exit $?"; return 1; }
	head -n 1 "$TMP/h" | grep -q '^USAGE: tcpretrans \[-hjls\]$' || { fail "-h: $(head -n 1 "$TMP/h")"; return 1; }
}

# t_json - -j: every stdout line a JSON object (the banner on stderr); a
# SYN_SENT retransmit for each of synflood's retransmitting ports, with the
# addresses, ports and state exact, and none for the others
t_json() {
	start_tool "$BIN/tcpretrans" -j || { stop_tool; fail "tool did not start: $(cat "$TMP/err")"; return 1; }
	grep -q '^Tracing TCP retransmits' "$TMP/err" || fail "-j: no banner on stderr"
	t0=$(date +%s)
	tr_flood -n 3 -t 60 || { stop_tool; fail "synflood failed: $(cat "$TMP/sf.err")"; return 1; }
	[ -n "$SF_PORTS" ] || { tr_flood_end; stop_tool; fail "synflood made no retransmitting socket"; return 1; }
	for p in $SF_PORTS; do
		wait_for_line "$TMP/out" "\"lport\":$p," 100 || break
	done
	stop_tool || { tr_flood_end; return 1; }
	tr_flood_end
	t1=$(date +%s)
	json_check "$TMP/out" || return 1
	for p in $SF_PORTS; do
		jq -c --arg host "$(uname -n)" "select(.lport == $p and .laddr == \"127.0.0.1\" and
			.raddr == \"127.0.0.1\" and .rport == $SF_LPORT and .type == \"R\" and
			.state == \"SYN_SENT\" and (.pid | type) == \"number\" and
			.tool == \"tcpretrans\" and .host == \$host)" "$TMP/out" > "$TMP/rows"
		[ -s "$TMP/rows" ] || { fail "-j: no object for port $p: $(head -c 600 "$TMP/out")"; return 1; }
		json_time_ok "$(jq -r .time "$TMP/rows" | head -n 1)" "$t0" "$t1" || return 1
	done
	for p in $SF_OTHER; do
		[ -z "$(jq -c "select(.lport == $p)" "$TMP/out")" ] || fail "-j: object for port $p, which did not retransmit"
	done
}

# t_json_head - -j | head -n 1: one whole object, and tcpretrans ends (0)
t_json_head() {
	tr_flood -n 3 -t 60 || { fail "synflood failed: $(cat "$TMP/sf.err")"; return 1; }
	json_head_run 60 "$BIN/tcpretrans" -j
	tr_flood_end
	json_head_ok '.tool == "tcpretrans" and .type == "R" and (.lport | type) == "number"'
}

# every exit path (tests/exits.sh)
exit_paths tcpretrans

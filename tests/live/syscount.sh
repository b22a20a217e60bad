# SPDX-License-Identifier: GPL-2.0-only
# tests/live/syscount.sh - syscount against calls a workload makes, known in number
#
# Workload: tests/bin/fcalls (static), copied under a name of the test's own
# and waiting on a FIFO ($TMP/go) until the test opens it; from then on it
# makes exactly the calls its arguments name (SC_ACTS): getppid (rare
# elsewhere), faccessat failing with ENOENT and with ENOTDIR, and reads of two
# sizes from /dev/zero. The ground truth is worked out from the arguments
# (sc_after): a count is exact, never "at least".
# Each test counts the way syscount chooses on this kernel: in the kernel
# where it has hist triggers, else in user space (said on stderr,
# sc_path_said). Where the kernel counts, the *_user tests run the same
# checks again with FTT_COUNT=user, so both ways are tested there; the
# kernel_* tests need the in-kernel way and skip without hist triggers.

SC_N=1234 SC_F1=17 SC_F2=9 SC_R1=40 SC_R2=25
SC_ACTS="getppid $SC_N fail $SC_F1 notdir $SC_F2 reads $SC_R1 1 reads $SC_R2 4096"
# the workload's calls after the go, as "CALL COUNT" (openat: see sc_calls_check):
# the wait's read and close, the actions', and exit_group
SC_AFTER="read $((1 + SC_R1 + SC_R2))
close 3
getppid $SC_N
faccessat $((SC_F1 + SC_F2))
openat 2
exit_group 1"
# all of them
SC_ALL=$((1 + SC_R1 + SC_R2 + 3 + SC_N + SC_F1 + SC_F2 + 2 + 1))

# sc_hist - the kernel has hist triggers (its tracing README documents them)
sc_hist() { grep -q 'hist:keys=' "$T/README" 2>/dev/null; }

# sc_names - the calls have names on this machine (the x86-64 table built in)
sc_names() {
	[ "$(uname -m)" = x86_64 ] && return 0
	skip "syscall names are x86-64's only (this is $(uname -m))"
	return 1
}

# sc_user - the kernel counts by default here: the test runs again in user
# space (FTT_COUNT=user); else skip, user space being the default
sc_user() {
	sc_hist && return 0
	skip "no hist triggers in this kernel: every other test counts in user space already"
	return 1
}

# sc_env - export FTT_COUNT=$SC_COUNT for the next run, if set
sc_env() {
	if [ -n "${SC_COUNT:-}" ]; then export FTT_COUNT="$SC_COUNT"; else unset FTT_COUNT; fi
}

# sc_start ARGS... - start syscount with ARGS (start_tool) or fail
sc_start() {
	sc_env
	start_tool "$BIN/syscount" "$@"
	rc=$?
	unset FTT_COUNT
	[ $rc = 0 ] && return 0
	stop_tool_rc
	fail "did not start: $(head -c 300 "$TMP/err")"
	return 1
}

# sc_bg TAG ARGS... - start syscount with ARGS in the background, output in
# $TMP/TAG.out and $TMP/TAG.err, and wait for its banner; sets BG (its PID)
sc_bg() {
	tag=$1
	shift
	sc_env
	"$BIN/syscount" "$@" > "$TMP/$tag.out" 2> "$TMP/$tag.err" &
	BG=$!
	unset FTT_COUNT
	wait_for_line "$TMP/$tag.out" '^Tracing' 200 && return 0
	kill -INT $BG 2>/dev/null
	wait $BG
	fail "$tag did not start: $(head -c 300 "$TMP/$tag.err")"
	return 1
}

# sc_bg_stop PID TAG - SIGINT to a run of sc_bg, which must end with 0
sc_bg_stop() {
	kill -INT "$1" 2>/dev/null
	if ! wait_gone "$1" 100; then
		kill -KILL "$1" 2>/dev/null
		fail "$2 did not end within 10 s of SIGINT"
	fi
	wait "$1"
	rc=$?
	[ $rc = 0 ] || fail "$2: exit status $rc: $(head -c 300 "$TMP/$2.err")"
}

# sc_rows [FILE] - the rows of the last summary in FILE (default $TMP/out):
# the lines after its header, up to a blank line
sc_rows() {
	awk '/^(CGROUP +)?(PID +)?(COMM +)?(SYSCALL +)?(ERROR +)?COUNT$/ { n = 0; on = 1; next }
	     on && /^$/ { on = 0 }
	     on { r[++n] = $0 }
	     END { for (i = 1; i <= n; i++) print r[i] }' "${1:-$TMP/out}"
}

# sc_count ROWS CALL - the COUNT of CALL's row in the file ROWS of -c rows (empty if none)
sc_count() { awk -v s="$2" '$1 == s && NF == 2 { print $2 }' "$1"; }

# sc_ascending ROWS - the last column of the rows in ROWS never goes down
sc_ascending() {
	awk '{ if ($NF + 0 < last) bad = 1; last = $NF + 0 } END { exit bad }' "$1" ||
		fail "rows not in ascending order of COUNT: $(tr '\n' '|' < "$1")"
}

# sc_path_said - stderr says "counting in user space" (once) exactly when the
# run counted there: with FTT_COUNT=user, or on a kernel without hist triggers
sc_path_said() {
	n=$(grep -c 'counting in user space' "${1:-$TMP/err}")
	if [ "${SC_COUNT:-}" = user ] || ! sc_hist; then
		[ "$n" = 1 ] || fail "stderr does not say once that it counts in user space: $(head -c 300 "${1:-$TMP/err}")"
	else
		[ "$n" = 0 ] || fail "counted in user space on a kernel with hist triggers: $(head -c 300 "${1:-$TMP/err}")"
	fi
}

# sc_calls_check ROWS - the -c rows of the workload's calls after the go, each
# exactly: openat may be one more (its open of the FIFO began after tracing
# did, if syscount was that quick), and nothing else
sc_calls_check() {
	echo "$SC_AFTER" | while read -r call n; do
		got=$(sc_count "$1" "$call")
		if [ "$call" = openat ]; then
			[ "$got" = "$n" ] || [ "$got" = $((n + 1)) ] ||
				fail "openat: counted '$got', made $n (or $((n + 1)))"
		else
			[ "$got" = "$n" ] || fail "$call: counted '$got', made $n: $(tr '\n' '|' < "$1")"
		fi
	done
	extra=$(awk '$1 !~ /^(read|close|getppid|faccessat|openat|exit_group)$/' "$1")
	[ -z "$extra" ] || fail "calls the workload did not make: $(echo "$extra" | tr '\n' '|')"
}

# t_calls - -c -p: every call of the process counted exactly, by name, in
# the original's columns and ascending order
t_calls() { sc_calls; }
t_calls_user() { sc_user || return 0; SC_COUNT=user; sc_calls; r=$?; SC_COUNT=; return $r; }
sc_calls() {
	sc_names || return 0
	fcalls_start "ftsc$$" $SC_ACTS || return 1
	sc_start -c -p "$W" || { fcalls_go; return 1; }
	fcalls_go
	stop_tool || return 1
	head -n 1 "$TMP/out" | grep -qx "Tracing PID $W\.\.\. Ctrl-C to end\." ||
		fail "banner: $(head -n 1 "$TMP/out")"
	[ "$(sed -n 2p "$TMP/out")" = "$(printf '%-17s %8s' SYSCALL COUNT)" ] ||
		fail "header: '$(sed -n 2p "$TMP/out")'"
	tail -n 1 "$TMP/out" | grep -qx 'Ending tracing\.\.\.' || fail "no 'Ending tracing...'"
	sc_rows > "$TMP/rows"
	sc_calls_check "$TMP/rows"
	sc_ascending "$TMP/rows"
	awk '{ if (sprintf("%-17s %8s", $1, $2) != $0) { print; exit 1 } }' "$TMP/rows" > "$TMP/bad" ||
		fail "a row not in %-17s %8s: '$(cat "$TMP/bad")'"
	sc_path_said
}

# t_failed - -cx -p: the failed calls only, a row per call and error, exact
t_failed() { sc_failed; }
t_failed_user() { sc_user || return 0; SC_COUNT=user; sc_failed; r=$?; SC_COUNT=; return $r; }
sc_failed() {
	sc_names || return 0
	fcalls_start "ftsc$$" $SC_ACTS || return 1
	sc_start -cx -p "$W" || { fcalls_go; return 1; }
	fcalls_go
	stop_tool || return 1
	head -n 1 "$TMP/out" | grep -qx "Tracing failed calls of PID $W\.\.\. Ctrl-C to end\." ||
		fail "banner: $(head -n 1 "$TMP/out")"
	[ "$(sed -n 2p "$TMP/out")" = "$(printf '%-17s %-15s %8s' SYSCALL ERROR COUNT)" ] ||
		fail "header: '$(sed -n 2p "$TMP/out")'"
	sc_rows > "$TMP/rows"
	printf '%-17s %-15s %8s\n' faccessat ENOTDIR "$SC_F2" faccessat ENOENT "$SC_F1" > "$TMP/want"
	cmp -s "$TMP/want" "$TMP/rows" ||
		fail "-x rows differ: $(diff "$TMP/want" "$TMP/rows" | tr '\n' '|')"
	sc_path_said
}

# t_verbose - -v and the default by name, -p: the process's every call after
# the go, under its name (and PID), in the original's columns
t_verbose() { sc_verbose; }
t_verbose_user() { sc_user || return 0; SC_COUNT=user; sc_verbose; r=$?; SC_COUNT=; return $r; }
sc_verbose() {
	fcalls_start "ftsc$$" $SC_ACTS || return 1
	sc_bg v -v -p "$W" || { fcalls_go; return 1; }
	v=$BG
	sc_bg d -p "$W" || { sc_bg_stop $v v; fcalls_go; return 1; }
	d=$BG
	fcalls_go
	sc_bg_stop $v v
	sc_bg_stop $d d
	[ "$(sed -n 2p "$TMP/v.out")" = "$(printf '%-6s %-16s %8s' PID COMM COUNT)" ] ||
		fail "-v header: '$(sed -n 2p "$TMP/v.out")'"
	[ "$(sed -n 2p "$TMP/d.out")" = "$(printf '%-16s %8s' COMM COUNT)" ] ||
		fail "header: '$(sed -n 2p "$TMP/d.out")'"
	for n in $SC_ALL $((SC_ALL + 1)); do
		printf '%-6s %-16s %8s\n' "$W" "ftsc$$" "$n" > "$TMP/want.v.$n"
		printf '%-16s %8s\n' "ftsc$$" "$n" > "$TMP/want.d.$n"
	done
	sc_rows "$TMP/v.out" > "$TMP/rows.v"
	sc_rows "$TMP/d.out" > "$TMP/rows.d"
	cmp -s "$TMP/rows.v" "$TMP/want.v.$SC_ALL" || cmp -s "$TMP/rows.v" "$TMP/want.v.$((SC_ALL + 1))" ||
		fail "-v rows: $(tr '\n' '|' < "$TMP/rows.v"), made $SC_ALL calls (or one more)"
	cmp -s "$TMP/rows.d" "$TMP/want.d.$SC_ALL" || cmp -s "$TMP/rows.d" "$TMP/want.d.$((SC_ALL + 1))" ||
		fail "rows: $(tr '\n' '|' < "$TMP/rows.d"), made $SC_ALL calls (or one more)"
	sc_path_said "$TMP/v.err"
}

# t_threads - -cvx: a process's threads are one row under its PID, and its
# child (and the child's thread) another under the child's: ftt_threads's 3
# waiting threads, main thread and 2 more threads (6 tasks), then its child
# and the child's thread (2), each close a descriptor that is not open
t_threads() { sc_threads; }
t_threads_user() { sc_user || return 0; SC_COUNT=user; sc_threads; r=$?; SC_COUNT=; return $r; }
sc_threads() {
	sc_names || return 0
	mkdir -p "$TMP/thr" && rm -f "$TMP/thr.go"
	"$WORKLOADS/ftt_threads" "$TMP/thr" 3 2 "$TMP/thr.go" > "$TMP/thr.out" 2> "$TMP/thr.err" &
	tw=$!
	if ! wait_for_line "$TMP/thr.err" '^ready' 100; then
		kill $tw 2>/dev/null
		fail "ftt_threads did not start: $(cat "$TMP/thr.err")"
		return 1
	fi
	sc_bg t -cvx -p "$tw" || { : > "$TMP/thr.go"; wait $tw; return 1; }
	t=$BG
	: > "$TMP/thr.go"
	wait $tw || fail "ftt_threads failed: $(cat "$TMP/thr.err")"
	sc_bg_stop $t t
	sc_rows "$TMP/t.out" | awk '$2 == "ftt_threads" && $3 == "close" && $4 == "EBADF" { print $1, $5 }' \
		| sort -n -k 2 > "$TMP/thr.rows"
	set -- $(cat "$TMP/thr.rows")
	[ $# = 4 ] && [ "$2" = 2 ] && [ "$3" = "$tw" ] && [ "$4" = 6 ] && [ "$1" != "$tw" ] &&
		grep -qx "t$1" "$TMP/thr.out" ||
		fail "close EBADF rows (PID COUNT): $(tr '\n' '|' < "$TMP/thr.rows"), want $tw 6 and the child's PID 2; tasks: $(tr '\n' ' ' < "$TMP/thr.out")"
}

# t_names - a process renamed halfway, counted three ways side by side
# (syscount, -v, -cv), system-wide: the ways agree with each other exactly;
# in user space each call is counted under the name at the call, in the
# kernel a thread's calls under its last name in the trace
t_names() { sc_names_test; }
t_names_user() { sc_user || return 0; SC_COUNT=user; sc_names_test; r=$?; SC_COUNT=; return $r; }
sc_names_test() {
	sc_names || return 0
	a="ftsa$$" b="ftsb$$" m=567
	cp "$WORKLOADS/fcalls" "$TMP/$a" || { fail "cannot copy fcalls"; return 1; }
	sc_bg d || return 1
	d=$BG
	sc_bg v -v || { sc_bg_stop $d d; return 1; }
	v=$BG
	sc_bg cv -cv || { sc_bg_stop $d d; sc_bg_stop $v v; return 1; }
	cv=$BG
	"$TMP/$a" getppid "$SC_N" comm "$b" getppid $m > /dev/null 2>&1 &
	w=$!
	wait $w || fail "fcalls failed"
	sc_bg_stop $d d
	sc_bg_stop $v v
	sc_bg_stop $cv cv
	[ "$(sed -n 2p "$TMP/cv.out")" = "$(printf '%-6s %-16s %-17s %8s' PID COMM SYSCALL COUNT)" ] ||
		fail "-cv header: '$(sed -n 2p "$TMP/cv.out")'"
	# getppid by name, as each way counts it
	got=$(sc_rows "$TMP/cv.out" | awk -v w=$w '$1 == w && $3 == "getppid" { print $2 "=" $4 }' | sort | tr '\n' ' ')
	if [ "${SC_COUNT:-}" = user ] || ! sc_hist; then
		want="$a=$SC_N $b=$m "
	else
		want="$b=$((SC_N + m)) "
	fi
	[ "$got" = "$want" ] || fail "-cv getppid rows of $w: '$got', wanted '$want'"
	if grep -q 'events lost' "$TMP/d.err" "$TMP/v.err" "$TMP/cv.err"; then
		skip "events were lost: the three runs cannot be compared"
		return 0
	fi
	# the three ways agree: per PID and name (-v against -cv), per name (all three)
	for n in "$a" "$b"; do
		sv=$(sc_rows "$TMP/v.out" | awk -v w=$w -v n="$n" '$1 == w && $2 == n { s += $3 } END { print s + 0 }')
		scv=$(sc_rows "$TMP/cv.out" | awk -v w=$w -v n="$n" '$1 == w && $2 == n { s += $4 } END { print s + 0 }')
		[ "$sv" = "$scv" ] || fail "$n ($w): -v counted $sv, -cv $scv"
		sd=$(sc_rows "$TMP/d.out" | awk -v n="$n" '$1 == n { s += $2 } END { print s + 0 }')
		scv=$(sc_rows "$TMP/cv.out" | awk -v n="$n" '$2 == n { s += $4 } END { print s + 0 }')
		[ "$sd" = "$scv" ] || fail "$n: counted $sd by name, $scv by -cv"
	done
	sc_path_said "$TMP/cv.err"
}

# t_top - -t 3: the three largest rows only, ascending, the largest last
t_top() {
	sc_names || return 0
	fcalls_start "ftsc$$" $SC_ACTS || return 1
	sc_start -c -t 3 -p "$W" || { fcalls_go; return 1; }
	fcalls_go
	stop_tool || return 1
	head -n 1 "$TMP/out" | grep -qx "Tracing PID $W\. Top 3 only\.\.\. Ctrl-C to end\." ||
		fail "banner: $(head -n 1 "$TMP/out")"
	sc_rows > "$TMP/rows"
	printf '%-17s %8s\n' faccessat $((SC_F1 + SC_F2)) read $((1 + SC_R1 + SC_R2)) getppid "$SC_N" > "$TMP/want"
	cmp -s "$TMP/want" "$TMP/rows" || fail "-t 3 rows: $(tr '\n' '|' < "$TMP/rows")"
}

# t_json - -cxj: one object at the end, its counts as the text lists them
t_json() {
	sc_names || return 0
	fcalls_start "ftsc$$" $SC_ACTS || return 1
	t0=$(date +%s)
	sc_start -cxj -p "$W" || { fcalls_go; return 1; }
	fcalls_go
	stop_tool || return 1
	t1=$(date +%s)
	json_check "$TMP/out" || return 1
	[ "$(wc -l < "$TMP/out")" = 1 ] || fail "-j: $(wc -l < "$TMP/out") lines, wanted one object"
	got=$(jq -r '.counts | map("\(.syscall) \(.error) \(.errno) \(.count)") | join(",")' "$TMP/out")
	[ "$got" = "faccessat ENOTDIR 20 $SC_F2,faccessat ENOENT 2 $SC_F1" ] || fail "-j counts: $got"
	jq -e '.tool == "syscount" and (.counts | length == 2) and (.counts[0].nr | type == "number")
		and .counts[0].nr == .counts[1].nr and (.counts[0] | has("comm") | not)' \
		"$TMP/out" > /dev/null || fail "-j object: $(cat "$TMP/out")"
	json_time_ok "$(jq -r .time "$TMP/out")" "$t0" "$t1"
	grep -qx "Tracing failed calls of PID $W\.\.\. Ctrl-C to end\." "$TMP/err" ||
		fail "-j: no banner on stderr: $(head -c 300 "$TMP/err")"
	grep -qx 'Ending tracing\.\.\.' "$TMP/err" || fail "-j: no 'Ending tracing...' on stderr"
}

# t_json_names - -vj: a process's row has its PID and name
t_json_names() {
	fcalls_start "ftsc$$" $SC_ACTS || return 1
	sc_start -vj -p "$W" || { fcalls_go; return 1; }
	fcalls_go
	stop_tool || return 1
	json_check "$TMP/out" || return 1
	got=$(jq -r --argjson w "$W" '.counts[] | select(.pid == $w) | "\(.comm) \(.count)"' "$TMP/out")
	[ "$got" = "ftsc$$ $SC_ALL" ] || [ "$got" = "ftsc$$ $((SC_ALL + 1))" ] ||
		fail "-vj: '$got', made $SC_ALL calls (or one more) as ftsc$$"
}

# t_command - a command run and counted, with its children: it ends when the
# command does; the command's own exec counts
t_command() {
	sc_names || return 0
	sc_env
	timeout -k 10 $((60 * SLOW)) "$BIN/syscount" -c "$WORKLOADS/fcalls" getppid 777 fail 5 \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	unset FTT_COUNT
	[ $rc = 0 ] || { fail "exit status $rc: $(head -c 300 "$TMP/err")"; return 1; }
	head -n 1 "$TMP/out" | grep -qxF "Tracing while running: \"$WORKLOADS/fcalls getppid 777 fail 5\"..." ||
		fail "banner: $(head -n 1 "$TMP/out")"
	sc_rows > "$TMP/rows"
	for want in "getppid 777" "faccessat 5" "execve 1"; do
		set -- $want
		[ "$(sc_count "$TMP/rows" "$1")" = "$2" ] ||
			fail "$1: counted '$(sc_count "$TMP/rows" "$1")', made $2: $(tr '\n' '|' < "$TMP/rows")"
	done
	# a shell and the two commands it starts: their failed calls, exactly
	sc_env
	timeout -k 10 $((60 * SLOW)) "$BIN/syscount" -cx sh -c \
		"$WORKLOADS/fcalls notdir 300; $WORKLOADS/fcalls notdir 200 getppid 1" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	unset FTT_COUNT
	[ $rc = 0 ] || { fail "sh -c: exit status $rc: $(head -c 300 "$TMP/err")"; return 1; }
	got=$(sc_rows | awk '$1 == "faccessat" && $2 == "ENOTDIR" { print $3 }')
	[ "$got" = 500 ] || fail "children: faccessat ENOTDIR counted '$got', made 500: $(sc_rows | tr '\n' '|')"
}

# t_command_user - t_command in user space, where the kernel counts by default
t_command_user() { sc_user || return 0; SC_COUNT=user; t_command; r=$?; SC_COUNT=; return $r; }

# t_ia32 - a 32-bit program's calls reach raw_syscalls with the i386 table's
# numbers: its 777 calls of number 64 (getppid there, semget in the x86-64
# table) are never named semget, and beside it a 64-bit program's calls are
# named. In user space each call is taken with its thread's program at the
# call (32bit:64); the kernel counts by thread only, and the 32-bit program's
# thread ran the shell first (?:64)
t_ia32() { sc_ia32; }
t_ia32_user() { sc_user || return 0; SC_COUNT=user; sc_ia32; r=$?; SC_COUNT=; return $r; }
sc_ia32() {
	sc_names || return 0
	[ -x "$WORKLOADS/ftt_ia32" ] || { skip "no 32-bit workload (not an x86-64 build)"; return 0; }
	"$WORKLOADS/ftt_ia32" 2> /dev/null || { skip "this kernel runs no 32-bit programs"; return 0; }
	sc_env
	timeout -k 10 $((60 * SLOW)) "$BIN/syscount" -c sh -c \
		"$WORKLOADS/ftt_ia32; $WORKLOADS/fcalls fail 55" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	unset FTT_COUNT
	[ $rc = 0 ] || { fail "exit status $rc: $(head -c 300 "$TMP/err")"; return 1; }
	sc_rows > "$TMP/rows"
	if grep -q 'in user space' "$TMP/err"; then want="32bit:64"; else want="?:64"; fi
	[ "$(sc_count "$TMP/rows" "$want")" = 777 ] ||
		fail "$want: counted '$(sc_count "$TMP/rows" "$want")', made 777: $(tr '\n' '|' < "$TMP/rows")"
	[ "$(sc_count "$TMP/rows" faccessat)" = 55 ] ||
		fail "faccessat: counted '$(sc_count "$TMP/rows" faccessat)', made 55: $(tr '\n' '|' < "$TMP/rows")"
	! grep -q '^semget ' "$TMP/rows" || fail "the 32-bit calls named semget: $(tr '\n' '|' < "$TMP/rows")"
}

# t_interval - -i 1: a summary per second, each with the calls of its own
# second: two bursts 1.5 s apart add up to exactly what was made
t_interval() {
	sc_names || return 0
	fcalls_start "ftsc$$" getppid 300 sleep 1.5 getppid 200 || return 1
	sc_start -c -i 1 -p "$W" || { fcalls_go; return 1; }
	fcalls_go
	sleep 1.2
	stop_tool || return 1
	head -n 1 "$TMP/out" | grep -qx "Tracing PID $W\. Output every 1 seconds\.\.\. Ctrl-C to end\." ||
		fail "banner: $(head -n 1 "$TMP/out")"
	[ "$(grep -cE '^\[[0-9]{2}:[0-9]{2}:[0-9]{2}\]$' "$TMP/out")" -ge 3 ] ||
		fail "fewer than 3 timed summaries: $(tr '\n' '|' < "$TMP/out")"
	tot=$(awk '$1 == "getppid" && NF == 2 { s += $2; n++ } END { print s + 0 " " n + 0 }' "$TMP/out")
	set -- $tot
	[ "$1" = 500 ] || fail "getppid over the summaries: $1, made 500: $(tr '\n' '|' < "$TMP/out")"
	[ "$2" -ge 2 ] || fail "the two bursts are in $2 summary (1.5 s apart)"
}

# t_duration - -d 2, everything: the workload's calls are among them, and the
# run ends by itself
t_duration() {
	sc_names || return 0
	sc_start -c -d 2 || return 1
	"$WORKLOADS/fcalls" getppid "$SC_N" || fail "fcalls failed"
	wait_gone "$TOOL_PID" $((300 * SLOW)) || { stop_tool_rc; fail "-d 2 did not end"; return 1; }
	wait "$TOOL_PID"
	rc=$?
	[ $rc = 0 ] || fail "exit status $rc: $(head -c 300 "$TMP/err")"
	head -n 1 "$TMP/out" | grep -qx 'Tracing for 2 seconds\.\.\.' || fail "banner: $(head -n 1 "$TMP/out")"
	n=$(sc_rows | awk '$1 == "getppid" { print $2 }')
	# others may call getppid meanwhile (a shell sets $PPID with it), not 200 times
	[ -n "$n" ] && [ "$n" -ge "$SC_N" ] && [ "$n" -lt $((SC_N + 200)) ] ||
		fail "getppid counted '$n', the workload made $SC_N"
	tail -n 1 "$TMP/out" | grep -qx 'Ending tracing\.\.\.' || fail "no 'Ending tracing...'"
}

# t_kernel_path - where the kernel has hist triggers it counts: one trigger
# in the run's instance, the event not enabled (nothing copied), nothing
# said on stderr; the counts exact
t_kernel_path() {
	sc_hist || { skip "no hist triggers in this kernel (user space is what the other tests count in)"; return 0; }
	sc_names || return 0
	fcalls_start "ftsc$$" $SC_ACTS || return 1
	sc_start -c -p "$W" || { fcalls_go; return 1; }
	I=$(run_inst syscount "$TOOL_PID")
	trig=$(cat "$I/events/raw_syscalls/sys_enter/trigger" 2>/dev/null)
	case $trig in
	*"hist:keys=common_pid,id:vals=hitcount"*"if common_pid != $TOOL_PID"*) ;;
	*) fail "no hist trigger keyed by thread and id, without syscount itself: '$trig'" ;;
	esac
	case $(cat "$I/events/raw_syscalls/sys_enter/enable" 2>/dev/null) in
	0*) ;;
	*) fail "raw_syscalls:sys_enter is enabled: its records are copied" ;;
	esac
	fcalls_go
	stop_tool || return 1
	[ ! -s "$TMP/err" ] || fail "stderr: $(head -c 300 "$TMP/err")"
	sc_rows > "$TMP/rows"
	sc_calls_check "$TMP/rows"
}

# t_kernel_refused - FTT_COUNT=kernel where the kernel has no hist triggers:
# one line, exit 1
t_kernel_refused() {
	sc_hist && { skip "this kernel has hist triggers"; return 0; }
	export FTT_COUNT=kernel
	expect_error 1 '^syscount: FTT_COUNT=kernel: no hist triggers' "$BIN/syscount" -c -d 1
	rc=$?
	unset FTT_COUNT
	return $rc
}

# t_user_copies - FTT_COUNT=user: the event is enabled in the run's instance
# (every call copied), and stderr says so once, before the banner
t_user_copies() {
	SC_COUNT=user
	sc_start -c -d 30
	rc=$?
	SC_COUNT=
	[ $rc = 0 ] || return 1
	I=$(run_inst syscount "$TOOL_PID")
	[ "$(cat "$I/events/raw_syscalls/sys_enter/enable" 2>/dev/null)" = 1 ] ||
		fail "raw_syscalls:sys_enter not enabled in $I"
	stop_tool || return 1
	[ "$(head -n 1 "$TMP/err")" = "syscount: counting in user space (FTT_COUNT=user): every call is copied" ] ||
		fail "stderr: $(head -c 300 "$TMP/err")"
}

t_bad_input() {
	expect_error 2 "pick one of -p PID, -d seconds and a command" "$BIN/syscount" -p $$ -d 1 || return 1
	expect_error 2 "pick one of" "$BIN/syscount" -d 1 true || return 1
	expect_error 2 "pick one of" "$BIN/syscount" -p $$ true || return 1
	expect_error 2 "command 'no-such-command-ftt': not found" "$BIN/syscount" -c no-such-command-ftt || return 1
	expect_error 2 "command '/etc/passwd': not allowed to run it" "$BIN/syscount" /etc/passwd || return 1
	expect_error 2 "command '-x': not found" "$BIN/syscount" -- -x || return 1
	expect_error 2 "-t: .*out of range" "$BIN/syscount" -t 0 || return 1
	expect_error 2 "-t: .*not a" "$BIN/syscount" -t x || return 1
	expect_error 2 "-d: .*out of range" "$BIN/syscount" -d 0 || return 1
	expect_error 2 "-i: 'abc' is not a number" "$BIN/syscount" -i abc || return 1
	expect_error 2 "-p: .*out of range" "$BIN/syscount" -p 0 || return 1
	expect_error 1 "-p: no process with PID" "$BIN/syscount" -p 4194304 || return 1
	expect_error 2 "unknown option -Z" "$BIN/syscount" -Z || return 1
	expect_error 2 "option -t needs an argument" "$BIN/syscount" -t || return 1
	expect_error 2 "FTT_COUNT must be user or kernel" env FTT_COUNT=both "$BIN/syscount" -d 1 || return 1
}

# t_cgroup - --cgroup, counted in user space (cg_scene: each role runs
# fcalls prio 50, 50 sched_get_priority_max calls, which nothing else
# makes): by name, exactly the member, its child, the leaver before it
# left, the joiner after it joined, and their shells (sh); with -c, the
# four runs' 200 calls, none of the outsider's
t_cgroup() {
	sc_names || return 0
	CG_PROG=$WORKLOADS/fcalls CG_ARGS="prio 50"
	cg_scene_start || return $?
	sc_bg d --cgroup "$CG_REL" || { cg_scene_end; return 1; }
	d=$BG
	sc_bg c -c --cgroup "$CG_REL" || { sc_bg_stop $d d; cg_scene_end; return 1; }
	c=$BG
	cg_scene_play
	cg_scene_end
	sc_bg_stop $d d
	sc_bg_stop $c c
	[ "$(head -n 1 "$TMP/d.out")" = "Tracing in cgroup $CG_REL... Ctrl-C to end." ] ||
		fail "banner: $(head -n 1 "$TMP/d.out")"
	for e in d c; do
		grep -q '^syscount: counting in user space (--cgroup follows each call' "$TMP/$e.err" ||
			fail "$e: stderr does not say it counts in user space: $(head -c 300 "$TMP/$e.err")"
	done
	cat "$TMP/d.err" "$TMP/c.err" > "$TMP/err"
	cg_scene_check "$(sc_rows "$TMP/d.out" | awk '$1 != "sh" { print $1 }')"
	sc_rows "$TMP/c.out" > "$TMP/c.rows"
	n=$(sc_count "$TMP/c.rows" sched_get_priority_max)
	[ "$n" = 200 ] || fail "-c: sched_get_priority_max counted '$n', made 200 inside: $(tr '\n' '|' < "$TMP/c.rows")"
	expect_error 2 'use either --cgroup or -p' "$BIN/syscount" --cgroup / -p 1 || return 1
	expect_error 2 'use either --cgroup or a command' "$BIN/syscount" --cgroup / true || return 1
	expect_error 1 'FTT_COUNT=kernel: --cgroup follows' env FTT_COUNT=kernel "$BIN/syscount" --cgroup "$(cg_root)"
}

# t_show_cgroup - -c --show-cgroup (cg_scene, nothing scoped; each role runs
# fcalls prio 50): sched_get_priority_max counted by the cgroup each call was
# made in: exactly 100 in the member's (cg_a, cg_child), 100 in the
# docker-ID.scope's, shown as its ID (the leaver before it left, the joiner
# after it joined), 50 in the cgroup the leaver moved to; in user space
t_show_cgroup() {
	sc_names || return 0
	CG_PROG=$WORKLOADS/fcalls CG_ARGS="prio 50"
	cg_scene_start || return $?
	sc_bg c -c --show-cgroup || { cg_scene_end; return 1; }
	c=$BG
	cg_scene_play
	cg_scene_end
	sc_bg_stop $c c
	[ "$(sed -n 2p "$TMP/c.out")" = "$(printf '%-12s %-17s %8s' CGROUP SYSCALL COUNT)" ] ||
		fail "header: $(sed -n 2p "$TMP/c.out")"
	grep -q '^syscount: counting in user space (--show-cgroup follows each call' "$TMP/c.err" ||
		fail "stderr does not say it counts in user space: $(head -c 300 "$TMP/c.err")"
	got=$(sc_rows "$TMP/c.out" | awk '$2 == "sched_get_priority_max" { print $1 "=" $3 }' | sort |
		grep -E "^(/$CG_REL|/${CG_REL}_out|$(cg_shown cg_joiner_in))=" | tr '\n' ' ')
	want=$(printf '%s\n' "/$CG_REL=100" "/${CG_REL}_out=50" "$(cg_shown cg_joiner_in)=100" | sort |
		tr '\n' ' ')
	[ "$got" = "$want" ] || fail "-c --show-cgroup: '$got', wanted '$want': $(tr '\n' '|' < "$TMP/c.out" | head -c 600)"
}

# t_exec_cmd - --exec: the calls of the command's program and of a process
# its shell left behind, counted; none of a process outside it; the run ends
# by itself
t_exec_cmd() {
	: > "$TMP/xe_file"
	exec_run "$WORKLOADS/ftt_open" "$TMP/xe_file" "$BIN/syscount" || return 1
	exec_rows "" +
}

exit_paths syscount

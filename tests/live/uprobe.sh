# SPDX-License-Identifier: GPL-2.0-only
# tests/live/uprobe.sh - uprobe against functions whose calls the tests make
#
# Workload: tests/bin/ftt_ucall (static, a fixed-address executable) and
# tests/bin/ftt_ucall.dyn (position-independent, on the system's C library).
# With N given it calls, for i = 1..N, ftt_ufunc(i, 1000 + i) (returns
# 8i + 1000), ftt_usect(i) (in a section of its own, ftt_text; returns i*i)
# and the C library's getenv(NAME). It prints its PID and the addresses of
# both functions as linked or running: the ground truth the rows are
# compared with, exactly, in order.

# up_able - does the kernel have uprobes? (else the reason, for skip)
up_able() {
	kernel_has uprobe_events && return 0
	echo "kernel has no uprobes: no uprobe_events"
	return 1
}

# up_work NAME BIN N ENVNAME - start BIN (ftt_ucall or ftt_ucall.dyn) as the
# workload NAME, waiting for $TMP/go.NAME; sets UP_PID, UP_FUNC, UP_SECT
up_work() {
	rm -f "$TMP/go.$1"
	"$WORKLOADS/$2" "--go=$TMP/go.$1" "$3" "$4" > "$TMP/$1.truth" 2> "$TMP/$1.err" &
	eval "UP_BG_$1=\$!"
	wait_for_line "$TMP/$1.truth" '^sect ' 100 || { fail "$2 did not start: $(cat "$TMP/$1.err")"; return 1; }
	UP_PID=$(sed -n 's/^pid //p' "$TMP/$1.truth")
	UP_FUNC=$(sed -n 's/^func //p' "$TMP/$1.truth")
	UP_SECT=$(sed -n 's/^sect //p' "$TMP/$1.truth")
}

# up_go NAME - let the workload NAME call, and wait for it to end
up_go() {
	touch "$TMP/go.$1"
	eval "wait \$UP_BG_$1" || fail "workload $1 failed: $(cat "$TMP/$1.err")"
	grep -q '^done ' "$TMP/$1.truth" || fail "workload $1 did not finish"
}

# up_start CMD... - start uprobe (banner on stderr with -j) or fail
up_start() {
	start_tool "$@" ||
		{ stop_tool_rc; fail "did not start: $(head -c 300 "$TMP/err")"; return 1; }
}

# up_rows PID - "NAME: (WHERE) FIELDS" of PID's rows in $TMP/out, in order
up_rows() {
	sed -n "s/^ *.*-$1 *\[[0-9]\{3\}\] [^ ]*  *[0-9]*\.[0-9]\{6\}: \(.*\)\$/\1/p" "$TMP/out"
}

# up_same WANT GOT WHAT - the two files are the same, else a failure showing both
up_same() {
	cmp -s "$1" "$2" && return 0
	fail "$3: got '$(head -c 400 "$2" | tr '\n' '|')', wanted '$(head -c 400 "$1" | tr '\n' '|')'"
}

# t_entry_symtab - a fixed-address executable's function, known from .symtab
# only: each of 5 calls with both arguments, at the address the program has
t_entry_symtab() {
	why=$(up_able) || { skip "$why"; return 0; }
	up_work a ftt_ucall 5 FTTU_NONE_$$ || return 1
	up_start "$BIN/uprobe" "p:$WORKLOADS/ftt_ucall:ftt_ufunc a=%di:s64 b=%si:s64" || return 1
	up_go a
	wait_for_lines "$TMP/out" "-$UP_PID " 5
	stop_tool || return 1
	for i in 1 2 3 4 5; do echo "ftt_ufunc: ($UP_FUNC) a=$i b=$((1000 + i))"; done > "$TMP/want"
	up_rows "$UP_PID" > "$TMP/got"
	up_same "$TMP/want" "$TMP/got" "entry rows"
	off=$(printf '0x%x' $((UP_FUNC - 0x400000)))
	head -1 "$TMP/out" | grep -qxF "Tracing uprobe ftt_ufunc (p:ftt_ufunc $WORKLOADS/ftt_ucall:$off a=%di:s64 b=%si:s64). Ctrl-C to end." ||
		fail "banner: $(head -1 "$TMP/out") (wanted the offset $off)"
	grep -q "ftt_ucall-$UP_PID " "$TMP/out" || fail "no row named ftt_ucall"
	tail -1 "$TMP/out" | grep -qx 'Ending tracing...' || fail "no 'Ending tracing...'"
	# under an emulated CPU the stop's half second may not read every
	# naming event (the stream says how many): nothing else on stderr
	! grep -v 'events recorded before the stop were not read' "$TMP/err" > /dev/null ||
		fail "stderr: $(cat "$TMP/err")"
}

# t_return_pie - a position-independent executable, on return: $retval of
# each call (8i + 1000), the function's running address
t_return_pie() {
	why=$(up_able) || { skip "$why"; return 0; }
	up_work b ftt_ucall.dyn 4 FTTU_NONE_$$ || return 1
	up_start "$BIN/uprobe" "r:$WORKLOADS/ftt_ucall.dyn:ftt_ufunc rv=\$retval:s64" || return 1
	up_go b
	wait_for_lines "$TMP/out" "-$UP_PID " 4
	stop_tool || return 1
	for i in 1 2 3 4; do echo "$((8 * i + 1000))"; done > "$TMP/want"
	up_rows "$UP_PID" | sed -n "s/^ftt_ufunc: (0x[0-9a-f]* <- $UP_FUNC) rv=\\(.*\\)/\\1/p" > "$TMP/got"
	up_same "$TMP/want" "$TMP/got" "return values (function at $UP_FUNC)"
	[ "$(up_rows "$UP_PID" | wc -l)" = 4 ] || fail "not 4 rows: $(cat "$TMP/out")"
}

# t_own_section - a function in a section other than .text (ftt_text), with
# a probe name of one's own: each call's argument
t_own_section() {
	why=$(up_able) || { skip "$why"; return 0; }
	up_work c ftt_ucall 3 FTTU_NONE_$$ || return 1
	up_start "$BIN/uprobe" "p:mysect:$WORKLOADS/ftt_ucall:ftt_usect x=%di:u32" || return 1
	up_go c
	wait_for_lines "$TMP/out" "-$UP_PID " 3
	stop_tool || return 1
	for i in 1 2 3; do echo "mysect: ($UP_SECT) x=$i"; done > "$TMP/want"
	up_rows "$UP_PID" > "$TMP/got"
	up_same "$TMP/want" "$TMP/got" "ftt_usect rows"
	grep -q "ftt_uprobe_${TOOL_PID}_[0-9]*/mysect" "$T/uprobe_events" && fail "probe left after the end"
	return 0
}

# t_raw_address - a probe at the address the program says its function
# has: its second argument, the default name SEG_0xADDR
t_raw_address() {
	why=$(up_able) || { skip "$why"; return 0; }
	up_work d ftt_ucall 3 FTTU_NONE_$$ || return 1
	up_start "$BIN/uprobe" "p:$WORKLOADS/ftt_ucall:$UP_FUNC b=%si:s64" || return 1
	up_go d
	wait_for_lines "$TMP/out" "-$UP_PID " 3
	stop_tool || return 1
	for i in 1 2 3; do echo "SEG_$UP_FUNC: ($UP_FUNC) b=$((1000 + i))"; done > "$TMP/want"
	up_rows "$UP_PID" > "$TMP/got"
	up_same "$TMP/want" "$TMP/got" "raw address rows"
}

# t_libc_string - getenv() in the C library the PIE workload maps ("libc"),
# its string argument, filtered in the kernel on a name of this test's
t_libc_string() {
	why=$(up_able) || { skip "$why"; return 0; }
	up_work e ftt_ucall.dyn 4 "FTTU_S_$$" || return 1
	lib=$(awk '$6 ~ /\/libc\.so\.6$/ { print $6; exit }' "/proc/$UP_PID/maps")
	up_start "$BIN/uprobe" 'p:libc:getenv s=+0(%di):string' "s ~ \"FTTU_S_$$*\"" || return 1
	grep -q "(p:getenv[_0-9]* $lib:0x" "$TMP/out" || fail "banner does not name $lib: $(head -1 "$TMP/out")"
	up_go e
	wait_for_lines "$TMP/out" "-$UP_PID " 4
	stop_tool || return 1
	for i in 1 2 3 4; do echo "s=\"FTTU_S_$$\""; done > "$TMP/want"
	up_rows "$UP_PID" | sed -n 's/^getenv: (0x[0-9a-f]*) //p' > "$TMP/got"
	up_same "$TMP/want" "$TMP/got" "getenv rows"
	[ "$(grep -c "FTTU_S_$$" "$TMP/out")" = 4 ] || fail "rows of other processes: $(grep "FTTU_S_$$" "$TMP/out")"
}

# t_libc_retval_pid - r:libc with -p: the string getenv() returned, through
# $retval, for the one process; the same calls of a second process not shown
t_libc_retval_pid() {
	why=$(up_able) || { skip "$why"; return 0; }
	export FTTU_V=value_$$
	up_work f ftt_ucall.dyn 3 FTTU_V || { unset FTTU_V; return 1; }
	p1=$UP_PID
	up_work g ftt_ucall.dyn 3 FTTU_V || { unset FTTU_V; return 1; }
	p2=$UP_PID
	unset FTTU_V
	up_start "$BIN/uprobe" -p "$p1" 'r:libc:getenv v=+0($retval):string' "v == \"value_$$\"" || return 1
	up_go f
	up_go g
	wait_for_lines "$TMP/out" "-$p1 " 3
	stop_tool || return 1
	for i in 1 2 3; do echo "v=\"value_$$\""; done > "$TMP/want"
	up_rows "$p1" | sed -n 's/^getenv: (0x[0-9a-f]* <- 0x[0-9a-f]*) //p' > "$TMP/got"
	up_same "$TMP/want" "$TMP/got" "-p $p1: getenv return rows"
	[ "$(grep -c "value_$$" "$TMP/out")" = 3 ] || fail "-p: rows of other processes: $(grep "value_$$" "$TMP/out")"
	! grep -q -- "-$p2 " "$TMP/out" || fail "-p $p1: the other workload ($p2) shown"
}

# t_pid_filter - -p on a probe of the workload's own function: all 4 calls of
# one process, none of the same program's other run
t_pid_filter() {
	why=$(up_able) || { skip "$why"; return 0; }
	up_work h ftt_ucall 4 FTTU_NONE_$$ || return 1
	p1=$UP_PID
	up_work i ftt_ucall 4 FTTU_NONE_$$ || return 1
	p2=$UP_PID
	up_start "$BIN/uprobe" -p "$p2" "p:$WORKLOADS/ftt_ucall:ftt_ufunc a=%di:s64" || return 1
	up_go h
	up_go i
	wait_for_lines "$TMP/out" "-$p2 " 4
	stop_tool || return 1
	for i in 1 2 3 4; do echo "ftt_ufunc: ($UP_FUNC) a=$i"; done > "$TMP/want"
	up_rows "$p2" > "$TMP/got"
	up_same "$TMP/want" "$TMP/got" "-p $p2 rows"
	[ "$(grep -c ': ftt_ufunc: ' "$TMP/out")" = 4 ] || fail "-p $p2: rows of others: $(cat "$TMP/out")"
}

# t_stacks - -s: each hit, then its user stack (this workload has no frame
# pointers: the probed address); no stack of any other event
t_stacks() {
	why=$(up_able) || { skip "$why"; return 0; }
	up_work j ftt_ucall 3 FTTU_NONE_$$ || return 1
	up_start "$BIN/uprobe" -s "p:$WORKLOADS/ftt_ucall:ftt_usect" || return 1
	up_go j
	wait_for_lines "$TMP/out" "-$UP_PID " 6
	sleep 0.3
	stop_tool || return 1
	frame=$(printf ' =>  <%016x>' $((UP_SECT)))
	for i in 1 2 3; do echo "ftt_usect: ($UP_SECT)"; echo "<user stack trace>"; echo "$frame"; done > "$TMP/want"
	awk -v p="-$UP_PID " 'index($0, p) { keep = 1; sub(/.*[0-9]\.[0-9][0-9][0-9][0-9][0-9][0-9]: /, ""); print; next }
		/^ => / { if (keep) print; next } { keep = 0 }' "$TMP/out" > "$TMP/got"
	up_same "$TMP/want" "$TMP/got" "-s rows and stacks"
	[ "$(grep -c '<user stack trace>' "$TMP/out")" = 3 ] || fail "stacks of other events: $(grep -c '<user stack trace>' "$TMP/out") stacks"
}

# t_json - -j on return: one object per call, its return value (i*i) as a
# number, the addresses in hex; the banner on stderr
t_json() {
	why=$(up_able) || { skip "$why"; return 0; }
	up_work k ftt_ucall 3 FTTU_NONE_$$ || return 1
	t0=$(date +%s)
	up_start "$BIN/uprobe" -j "r:$WORKLOADS/ftt_ucall:ftt_usect rv=\$retval:s32" || return 1
	up_go k
	t1=$(date +%s)
	wait_for_lines "$TMP/out" "\"pid\":$UP_PID," 3
	stop_tool || return 1
	json_check "$TMP/out" || return 1
	! grep -q '^Tracing\|^Ending' "$TMP/out" || fail "-j: banner or ending on stdout"
	jq -r "select(.tool == \"uprobe\" and .pid == $UP_PID and .comm == \"ftt_ucall\" and
		.event == \"ftt_usect\" and .func == \"$UP_SECT\" and (.ret_ip | test(\"^0x[0-9a-f]+$\")) and
		(.timestamp | type) == \"number\") | .fields.rv" "$TMP/out" > "$TMP/got"
	printf '1\n4\n9\n' > "$TMP/want"
	up_same "$TMP/want" "$TMP/got" "-j return values"
	json_time_ok "$(jq -r "select(.pid == $UP_PID) | .time" "$TMP/out" | head -1)" "$t0" "$t1"
}

# t_list - -l: the file's functions, each once, and nothing in tracefs
t_list() {
	tracefs_snapshot > "$TMP/l.before"
	"$BIN/uprobe" -l "$WORKLOADS/ftt_ucall" > "$TMP/out" 2> "$TMP/err" || fail "-l: exit $?: $(cat "$TMP/err")"
	tracefs_snapshot > "$TMP/l.after"
	snapshot_compare "$TMP/l.before" "$TMP/l.after" > /dev/null || fail "-l changed tracefs: $(diff "$TMP/l.before" "$TMP/l.after" | head -5)"
	for f in ftt_ufunc ftt_usect main; do
		[ "$(grep -cx "$f" "$TMP/out")" = 1 ] || fail "-l: $f not listed once"
	done
	sort -c "$TMP/out" 2>/dev/null || sort -C "$TMP/out" || fail "-l: not sorted"
	[ "$(sort -u "$TMP/out" | wc -l)" = "$(wc -l < "$TMP/out")" ] || fail "-l: a name twice"
	[ ! -s "$TMP/err" ] || fail "-l stderr: $(cat "$TMP/err")"
}

# t_view - -v: the probe's format, its field by name and type
t_view() {
	why=$(up_able) || { skip "$why"; return 0; }
	"$BIN/uprobe" -v "p:upview:$WORKLOADS/ftt_ucall:ftt_ufunc a=%di:s32" > "$TMP/out" 2> "$TMP/err" ||
		fail "-v: exit $?: $(cat "$TMP/err")"
	grep -q '^name: upview$' "$TMP/out" || fail "-v: no format: $(cat "$TMP/out")"
	grep -q 'field:s32 a;' "$TMP/out" || fail "-v: no field a"
	grep -q 'field:unsigned long __probe_ip;' "$TMP/out" || fail "-v: no __probe_ip"
	# the name as a word of its own: 'p:NAME TARGET:SYMBOL ARGS'
	"$BIN/uprobe" -v "p:upview2 $WORKLOADS/ftt_ucall:ftt_ufunc b=+0(%si):string" > "$TMP/out" 2> "$TMP/err" ||
		fail "-v 'p:NAME TARGET:SYMBOL': exit $?: $(cat "$TMP/err")"
	grep -q '^name: upview2$' "$TMP/out" || fail "-v 'p:NAME TARGET:SYMBOL': $(head -3 "$TMP/out")"
	grep -q 'field:__data_loc char\[\] b;' "$TMP/out" || fail "-v: no string field b"
}

# up_refused RC ERE ARGS... - expect_error, and tracefs exactly as before
up_refused() {
	tracefs_snapshot > "$TMP/r.before"
	expect_error "$@" || return 1
	tracefs_snapshot > "$TMP/r.after"
	shift 2
	snapshot_compare "$TMP/r.before" "$TMP/r.after" > /dev/null || fail "'$*' changed tracefs: $(diff "$TMP/r.before" "$TMP/r.after" | head -5)"
}

# t_bad_input - every refusal in one line, with its status, nothing changed
t_bad_input() {
	u=$BIN/uprobe w=$WORKLOADS/ftt_ucall
	printf 'not an ELF file\n' > "$TMP/text"
	up_refused 2 'should start with p: or r:' "$u" "x:$w:ftt_ufunc" || return 1
	up_refused 2 'control character' "$u" "$(printf 'p:%s:ftt_ufunc\n-:uprobes/x' "$w")" || return 1
	up_refused 2 'control character' "$u" "p:$w:ftt_ufunc" "$(printf 'a == 1\n0')" || return 1
	up_refused 2 'is not a name' "$u" "p:bad-name:$w:ftt_ufunc" || return 1
	up_refused 2 'is not a symbol name' "$u" "p:$w:ftt_u;func" || return 1
	up_refused 2 'TARGET:SYMBOL' "$u" "p:ftt_ufunc" || return 1
	up_refused 2 'is not an address' "$u" "p:$w:0xzz" || return 1
	up_refused 2 'no \$argN.*%di' "$u" "p:$w:ftt_ufunc x=\$arg1" || return 1
	up_refused 2 'either -p or -L|-p.*-L' "$u" -p 1 -L 1 "p:$w:ftt_ufunc" || return 1
	up_refused 2 'missing uprobe definition' "$u" || return 1
	up_refused 1 "cannot open $TMP/nonexistent: " "$u" "p:$TMP/nonexistent:ftt_ufunc" || return 1
	up_refused 1 'cannot open ftt_no_such_program: .*not in PATH' "$u" "p:ftt_no_such_program:main" || return 1
	up_refused 1 'is not a 64-bit little-endian ELF' "$u" "p:$TMP/text:main" || return 1
	up_refused 1 "no function ftt_nosuch in $w" "$u" "p:$w:ftt_nosuch" || return 1
	up_refused 1 'address 0x10 is in no executable segment' "$u" "p:$w:0x10" || return 1
	up_refused 1 'no C library .* has a function ftt_nosuch' "$u" "p:libc:ftt_nosuch" || return 1
	up_refused 1 'is not a 64-bit' "$u" -l "$TMP/text" || return 1
}

# t_kernel_error - fetch arguments the kernel refuses: its reason from
# error_log, the definition named, status 2, no probe left
t_kernel_error() {
	why=$(up_able) || { skip "$why"; return 0; }
	w=$WORKLOADS/ftt_ucall
	up_refused 2 "^uprobe: kernel refused uprobe 'p:$w:ftt_ufunc x=%nosuchreg' \\($w:0x[0-9a-f]+\\): .+" \
		"$BIN/uprobe" "p:$w:ftt_ufunc x=%nosuchreg" || return 1
	up_refused 2 "^uprobe: kernel refused uprobe 'p:$w:ftt_ufunc x=\\\$retval' .*: .+" \
		"$BIN/uprobe" "p:$w:ftt_ufunc x=\$retval"
}

# t_unsafe_file - a file in a directory anyone can write to, and a file a
# user other than root owns, are refused (nothing changed); -F probes the
# first with a warning, and traces it
t_unsafe_file() {
	why=$(up_able) || { skip "$why"; return 0; }
	d=$(mktemp -d /tmp/ftt-uprobe.XXXXXX) || { fail "mktemp"; return 1; }
	chmod 777 "$d" && cp "$WORKLOADS/ftt_ucall" "$d/" || { fail "cannot copy"; rm -rf "$d"; return 1; }
	up_refused 1 "$d/ftt_ucall could have been written by a user other than root \\(in $d, writable by its group or others\\): refused, -F" \
		"$BIN/uprobe" "p:$d/ftt_ucall:ftt_ufunc"
	mkdir "$d/own" && chmod 755 "$d/own" && cp "$WORKLOADS/ftt_ucall" "$d/own/" && chmod 755 "$d" &&
		chown 65534 "$d/own/ftt_ucall" || { fail "cannot chown"; rm -rf "$d"; return 1; }
	up_refused 1 "owned by uid 65534, not root" "$BIN/uprobe" "p:$d/own/ftt_ucall:ftt_ufunc"
	chmod 777 "$d"
	rm -f "$TMP/go.x"
	"$d/ftt_ucall" "--go=$TMP/go.x" 2 X > "$TMP/x.truth" &
	xp=$!
	start_tool "$BIN/uprobe" -F "p:$d/ftt_ucall:ftt_ufunc a=%di:s64" ||
		{ stop_tool_rc; fail "-F did not start: $(cat "$TMP/err")"; touch "$TMP/go.x"; wait $xp; rm -rf "$d"; return 1; }
	touch "$TMP/go.x"
	wait $xp
	wait_for_lines "$TMP/out" "-$xp " 2
	stop_tool
	[ "$(grep -c "ftt_ucall-$xp .*ftt_ufunc: (0x[0-9a-f]*) a=[12]\$" "$TMP/out")" = 2 ] || fail "-F: rows: $(cat "$TMP/out")"
	[ "$(wc -l < "$TMP/err")" = 1 ] && grep -q "could have been written by a user other than root" "$TMP/err" ||
		fail "-F: not one warning: $(cat "$TMP/err")"
	rm -rf "$d"
}

# t_sigkill_reaped - the probe is in the run's own group, not "uprobes";
# after a SIGKILL the next run removes it
t_sigkill_reaped() {
	why=$(up_able) || { skip "$why"; return 0; }
	up_start "$BIN/uprobe" "p:$WORKLOADS/ftt_ucall:ftt_ufunc" || return 1
	grep -q "^p:ftt_uprobe_${TOOL_PID}_[0-9]*/ftt_ufunc " "$T/uprobe_events" || fail "probe not in the run's group: $(cat "$T/uprobe_events")"
	grep -q '^p:uprobes/' "$T/uprobe_events" && fail "a probe in the uprobes group"
	kill -KILL $TOOL_PID
	wait $TOOL_PID 2>/dev/null
	grep -q "ftt_uprobe_${TOOL_PID}_" "$T/uprobe_events" || { skip "nothing left to reap"; return 0; }
	"$BIN/uprobe" -v "p:$WORKLOADS/ftt_ucall:ftt_usect" > /dev/null 2>&1
	! grep -q "ftt_uprobe_${TOOL_PID}_" "$T/uprobe_events" || fail "probe of the killed run not reaped"
	! run_inst uprobe $TOOL_PID > /dev/null || fail "instance of the killed run not reaped"
}

# t_cgroup - --cgroup, relative to the cgroup2 mount (cg_scene: a member
# and its child, a leaver, a joiner, a busy outsider, each exec'ing
# ftt_open as a link named for its role): exactly the main() calls of the
# member, its child, the leaver before it left and the joiner after it joined
t_cgroup() {
	kernel_has uprobe_events || { skip "no uprobe_events"; return 0; }
	cg_scene_start || return $?
	cg_scene_trace start_tool "Tracing uprobe main (.*) in cgroup $CG_REL. Ctrl-C to end." \
		"^ *cg_joiner_in-" "$BIN/uprobe" --cgroup "$CG_REL" "p:$WORKLOADS/ftt_open:main" || return 1
	cg_scene_check "$(cg_task_comms)"
}

# t_exec_cmd - --exec: the calls of the command's program and of a process its
# shell left behind, two each; none of a process outside it; the run ends
# by itself
t_exec_cmd() {
	exec_run "$WORKLOADS/ftt_ucall" "2 HOME" "$BIN/uprobe" "p:$WORKLOADS/ftt_ucall:ftt_usect" || return 1
	exec_rows "" 2
}

# every exit path (tests/exits.sh)
exit_paths uprobe

# tests/live/opensnoop.sh - opensnoop against opens whose paths and results are known
#
# Workload: tests/bin/ftt_open, named with spaces, opening a file whose name has
# a space and a path that does not exist. In probe mode the path is read in the
# kernel and must be exact; in /proc mode (the tool says so on stderr) it is a
# best-effort read from the caller's memory and carries the " [?]" mark.

# os_start ARGS... - start opensnoop with ARGS (slow in an emulated guest) or fail
os_start() {
	rm -f "$TMP/out" "$TMP/err"	# a banner left by the last run is no start
	start_tool "$BIN/opensnoop" "$@" ||
		{ kill -0 $TOOL_PID 2>/dev/null && wait_for_line "$TMP/out" '^Tracing' 600; } ||
		{ stop_tool; fail "did not start: $(head -c 300 "$TMP/err")"; return 1; }
}

# os_mark - the suffix a path read from user memory carries in /proc mode
os_mark() { grep -q 'no kprobes or event probes' "$TMP/err" && echo ' [?]'; }

# os_files - a file with a space in its name, and a missing path
os_files() {
	mkdir -p "$TMP/d" && echo data > "$TMP/d/a file" && F="$TMP/d/a file" && M="$TMP/d/missing_$$"
}

# os_line COMM PID FD PATH - the exact output line
os_line() { printf '%-16.16s %-6s %4s %s' "$1" "$2" "$3" "$4"; }

t_open() {
	os_files
	os_start || return 1
	"$HELPERS/ftt_open" "--comm=ft op $$" --hold=300 "$F" "$M" > "$TMP/res" &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "missing_$$" 50
	stop_tool || return 1
	m=$(os_mark)
	fd=$(grep " $F\$" "$TMP/res" | cut -d' ' -f1)
	want=$(os_line "ft op $$" $h "0x$fd" "$F$m")
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'; got: $(grep " $h " "$TMP/out")"
	want=$(os_line "ft op $$" $h -1 "$M$m")
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'"
	grep -qx 'COMM             PID      FD FILE' "$TMP/out" || fail "header"
	[ "$TOOL_RC" = 0 ] || fail "exit status $TOOL_RC after SIGINT"
}

# t_wiped_buffer - the caller zeroes the path right after the open (a reused
# buffer): in /proc mode the empty string left in memory is no path, and the
# row names the file the new FD holds; in probe mode the kernel read it at the call
t_wiped_buffer() {
	os_files
	os_start || return 1
	"$HELPERS/ftt_open" --comm=ftwipe --wipe --hold=1500 "$F" > "$TMP/res" &
	h=$!
	wait_for_line "$TMP/out" "^ftwipe " 50
	wait $h
	stop_tool || return 1
	fd=$(cut -d' ' -f1 "$TMP/res")
	want=$(os_line ftwipe $h "0x$fd" "$(readlink -f "$F")$(os_mark)")
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'; got: $(grep " $h " "$TMP/out")"
}

# t_exec_after_open - the shell opens the output redirect (FD 3, moved to 1),
# then execs the workload, whose own open gets FD 3: in /proc mode neither the
# shell's memory nor its FD 3 is there to read any more, and the redirect's row
# must not claim the workload's file
t_exec_after_open() {
	os_files
	os_start || return 1
	"$HELPERS/ftt_open" --comm=ftexec --hold=1500 "$F" > "$TMP/res" &
	h=$!
	wait_for_line "$TMP/out" "^ftexec " 50
	wait $h
	stop_tool || return 1
	n=$(grep -cF -- " $h " "$TMP/out")
	k=$(grep -F -- " $h " "$TMP/out" | grep -cF -- "$(readlink -f "$F")")
	[ "$k" = 1 ] || fail "$k rows of PID $h name '$F', want 1; got: $(grep -F " $h " "$TMP/out")"
	grep -F -- " $h " "$TMP/out" | grep -qF -- "$TMP/res" || [ -n "$(os_mark)" ] ||
		fail "no row for the shell's open of '$TMP/res'; got: $(grep -F " $h " "$TMP/out")"
	[ "$n" -ge 2 ] || fail "$n rows for PID $h, want the redirect's and the workload's"
}

t_calls() {
	os_files
	os_start -e || return 1
	for c in --open --openat --openat2; do
		"$HELPERS/ftt_open" --comm=ftcalls --hold=1000 --flags=02000000 $c "$F$c" "$F" > "$TMP/res$c" &
		wait $!
	done
	wait_for_line "$TMP/out" "openat2" 100
	stop_tool || return 1
	m=$(os_mark | sed 's/\[?\]/\\[\\?\\]/')
	for c in --open --openat --openat2; do
		grep -q "^-38 " "$TMP/res$c" && continue	# no such syscall on this arch
		# kprobe mode shows the kernel's flags, O_LARGEFILE added
		grep -Eq "^ftcalls +[0-9]+ +-1 02[01]00000 $F$c$m\$" "$TMP/out" ||
			fail "$c: no failed open of '$F$c' with flags 02000000"
		grep -Eq "^ftcalls +[0-9]+ +0x[0-9a-f]+ 02[01]00000 $F$m\$" "$TMP/out" ||
			fail "$c: no open of '$F'"
	done
	grep -q ' FLAGS    FILE$' "$TMP/out" || fail "no FLAGS header"
}

t_failed() {
	os_files
	os_start -x || return 1
	"$HELPERS/ftt_open" --comm=ftfail --hold=300 "$F" "$M" > /dev/null &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "missing_$$" 50
	stop_tool || return 1
	want=$(printf '%-16.16s %-6s %7s %s' ftfail $h ENOENT "$M$(os_mark)")
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'"
	grep -q "a file" "$TMP/out" && fail "successful open shown with -x"
	grep -qx 'COMM             PID         FD FILE' "$TMP/out" || fail "header"
}

t_pid() {
	os_files
	for opt in -p -L; do
		rm -f "$TMP/go"
		"$HELPERS/ftt_open" --comm=ftkeep --go="$TMP/go" --hold=200 "$F" > /dev/null &
		k=$!
		"$HELPERS/ftt_open" --comm=ftdrop --go="$TMP/go" --hold=200 "$F" > /dev/null &
		d=$!
		os_start $opt $k || { touch "$TMP/go"; return 1; }
		touch "$TMP/go"
		grep -q "^Tracing open()s issued by $([ $opt = -p ] && echo PID || echo TID) $k. Ctrl-C to end.\$" "$TMP/out" ||
			fail "$opt banner: $(head -n 1 "$TMP/out")"
		wait $k $d
		wait_for_line "$TMP/out" "^ftkeep " 50
		stop_tool || return 1
		grep -q "^ftkeep  *$k " "$TMP/out" || fail "$opt: open of PID $k not shown"
		grep -q "ftdrop" "$TMP/out" && fail "$opt: other process shown"
	done
	expect_error 2 'either -p or -L' "$BIN/opensnoop" -p 1 -L 1
}

t_name() {
	os_files
	os_start -n "ftna$$" || return 1
	"$HELPERS/ftt_open" --comm="ftnb$$" --hold=200 "$F" > /dev/null
	"$HELPERS/ftt_open" --comm="ftna$$" --hold=200 "$F" > /dev/null
	wait_for_line "$TMP/out" "^ftna$$ " 50
	stop_tool || return 1
	grep -q "^ftna$$ .* $F" "$TMP/out" || fail "matching name not shown"
	grep -q "ftnb$$" "$TMP/out" && fail "other name shown"
	return 0
}

t_filename() {
	os_files
	echo x > "$TMP/d/other_$$"
	os_start "a fil" || return 1
	grep -q "for filenames containing \"a fil\". Ctrl-C to end.\$" "$TMP/out" || fail "banner"
	"$HELPERS/ftt_open" --comm=ftfile --hold=300 "$TMP/d/other_$$" "$F" > /dev/null
	wait_for_line "$TMP/out" "a file" 50
	stop_tool || return 1
	grep -q "^ftfile .* $F" "$TMP/out" || fail "matching path not shown"
	grep -q "other_$$" "$TMP/out" && fail "other path shown"
	return 0
}

t_columns() {
	os_files
	os_start -t -T || return 1
	"$HELPERS/ftt_open" --comm=ftcols --hold=300 "$F" > /dev/null
	wait_for_line "$TMP/out" "^[0-9:]+ [0-9.]+ +ftcols " 50
	stop_tool || return 1
	grep -qx 'TIME     TIMEs            COMM             PID      FD FILE' "$TMP/out" ||
		fail "header: $(sed -n 2p "$TMP/out")"
	grep -Eq "^[0-2][0-9]:[0-5][0-9]:[0-5][0-9] [0-9]+\.[0-9]{6} +ftcols " "$TMP/out" ||
		fail "line: $(grep ftcols "$TMP/out")"
}

t_duration() {
	os_files
	os_start -d 2 -n ftdur || return 1
	grep -q 'for 2 seconds (buffered)...$' "$TMP/out" || fail "banner"
	"$HELPERS/ftt_open" --comm=ftdur --hold=300 "$F" > /dev/null
	wait_gone $TOOL_PID 100 || { stop_tool; fail "-d 2 did not end by itself"; return 1; }
	wait $TOOL_PID
	[ $? = 0 ] || fail "exit status"
	grep -q "^ftdur .* $F" "$TMP/out" || fail "event missing"
}

t_head() {
	rm -f "$TMP/rc"
	( "$BIN/opensnoop" 2>/dev/null & echo $! > "$TMP/pid"; wait $!; echo $? > "$TMP/rc" ) |
		head -n 3 > "$TMP/h" &
	n=0
	while [ ! -s "$TMP/rc" ] && [ $n -lt 300 ]; do
		"$HELPERS/ftt_open" --hold=100 /etc/passwd > /dev/null
		n=$((n + 1))
	done
	wait_for_line "$TMP/rc" . 50 || {
		kill -INT "$(cat "$TMP/pid")"; wait_for_line "$TMP/rc" . 100
		fail "opensnoop | head -n 3 did not end"; return 1; }
	[ "$(wc -l < "$TMP/h")" -eq 3 ] || fail "head got $(wc -l < "$TMP/h") lines"
}

t_badinput() {
	expect_error 2 '-d' "$BIN/opensnoop" -d 0 || return 1
	expect_error 2 'bad regular expression' "$BIN/opensnoop" -n 'a(' || return 1
	expect_error 2 'bad regular expression' "$BIN/opensnoop" '[' || return 1
	expect_error 2 'too many' "$BIN/opensnoop" a b || return 1
	expect_error 1 'no process' "$BIN/opensnoop" -p 4194000 || return 1
	expect_error 2 'unknown option' "$BIN/opensnoop" -Z || return 1
	"$BIN/opensnoop" -h | grep -q '^USAGE: opensnoop' || fail "-h"
}

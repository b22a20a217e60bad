# SPDX-License-Identifier: GPL-2.0-only
# tests/live/opensnoop.sh - opensnoop against opens whose paths and results are known
#
# Workload: tests/bin/ftt_open, named with spaces, opening a file whose name has
# a space and a path that does not exist. Its dynamic build with --libc opens
# through the C library, which every capture rung sees (uprobes included); the
# static build's raw syscalls are seen only by the kernel-side rungs, and show
# [?] otherwise. The rung a run must use is worked out from the kernel
# (cap_rungs in tests/lib.sh), never from the tool's output; every rung the
# kernel has is forced in turn (FTT_CAPTURE) and checked against the workload.

# OPEN: the open workload that goes through the C library
OPEN="$WORKLOADS/ftt_open.dyn --libc"

# os_start ARGS... - start opensnoop -v (the rung named) with ARGS (slow in an emulated guest) or fail
os_start() {
	rm -f "$TMP/out" "$TMP/err"	# a banner left by the last run is no start
	start_tool "$BIN/opensnoop" -v "$@" ||
		{ kill -0 $TOOL_PID 2>/dev/null && wait_for_line "$TMP/out" '^Tracing' 600; } ||
		{ stop_tool; fail "did not start: $(head -c 300 "$TMP/err")"; return 1; }
}

# os_raw PATH - how the row of a raw-syscall open of PATH shows its path under
# the rung the run used: exact from the kernel-side rungs, else unknown
os_raw() {
	case $(cap_used) in
	syscall|eprobe|kprobe) echo "$1" ;;
	*) echo "[?]" ;;
	esac
}

# t_note - without -v, one plain stderr line when rows may show [?], or none
t_note() { cap_note_check opensnoop open; }

# os_files - a file with a space in its name, and a missing path
os_files() {
	mkdir -p "$TMP/d" && echo data > "$TMP/d/a file" && F="$TMP/d/a file" && M="$TMP/d/missing_$$"
}

# os_line COMM PID FD PATH - the exact output line
os_line() { printf '%-16.16s %-6s %4s %s' "$1" "$2" "$3" "$4"; }

# os_once COMM PID RES PATH - the row of PID's open of PATH (its descriptor
# from the workload's RES file) is in $TMP/out exactly once
os_once() {
	fd=$(grep " $4\$" "$3" | cut -d' ' -f1)
	want=$(os_line "$1" "$2" "0x$fd" "$4")
	[ -n "$fd" ] && [ "$(grep -cxF -- "$want" "$TMP/out")" = 1 ] ||
		fail "wanted the row '$want' once (the workload's fd: '${fd:-none}'); rows of PID $2: $(grep " $2 " "$TMP/out" | head -5)"
}

t_open() {
	os_files
	os_start || return 1
	cap_check open
	$OPEN "--comm=ft op $$" --hold=300 "$F" "$M" > "$TMP/res" &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "missing_$$" 50
	stop_tool || return 1
	fd=$(grep " $F\$" "$TMP/res" | cut -d' ' -f1)
	want=$(os_line "ft op $$" $h "0x$fd" "$F")
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'; got: $(grep " $h " "$TMP/out")"
	want=$(os_line "ft op $$" $h -1 "$M")
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'"
	grep -qx 'COMM             PID      FD FILE' "$TMP/out" || fail "header"
	[ "$TOOL_RC" = 0 ] || fail "exit status $TOOL_RC after SIGINT"
}

# t_wiped_buffer - the caller zeroes the path right after the open (a reused
# buffer): the path was taken at the call, so the row still names it
t_wiped_buffer() {
	os_files
	os_start || return 1
	$OPEN --comm=ftwipe --wipe --hold=1500 "$F" > "$TMP/res" &
	h=$!
	wait_for_line "$TMP/out" "^ftwipe " 50
	wait $h
	stop_tool || return 1
	fd=$(cut -d' ' -f1 "$TMP/res")
	want=$(os_line ftwipe $h "0x$fd" "$F")
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'; got: $(grep " $h " "$TMP/out")"
}

# t_exec_after_open - the shell opens the output redirect (FD 3, moved to 1),
# then execs the workload, whose own open gets FD 3: each row names its own file
t_exec_after_open() {
	os_files
	os_start || return 1
	$OPEN --comm=ftexec --hold=1500 "$F" > "$TMP/res" &
	h=$!
	wait_for_line "$TMP/out" "^ftexec " 50
	wait $h
	stop_tool || return 1
	fd=$(cut -d' ' -f1 "$TMP/res")
	n=$(grep -cF -- " $h " "$TMP/out")
	want=$(os_line ftexec $h "0x$fd" "$F")
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'; got: $(grep -F " $h " "$TMP/out")"
	k=$(grep -F -- " $h " "$TMP/out" | grep -cF -- "$F")
	[ "$k" = 1 ] || fail "$k rows of PID $h name '$F', want 1"
	grep -F -- " $h " "$TMP/out" | grep -qF -- " $TMP/res" ||
		fail "no row for the shell's open of '$TMP/res'; got: $(grep -F " $h " "$TMP/out")"
	[ "$n" -ge 2 ] || fail "$n rows for PID $h, want the redirect's and the workload's"
}

# t_calls - open, openat and openat2 as raw syscalls, with flags: the
# kernel-side rungs show each path; the others cannot see raw syscalls, and
# show [?] (open's and openat's flags come from the tracepoint still)
t_calls() {
	os_files
	os_start -e || return 1
	rows=0
	for c in --open --openat --openat2; do
		"$WORKLOADS/ftt_open" --comm=ftcalls --hold=1000 --flags=02000000 $c "$F$c" "$F" > "$TMP/res$c" &
		wait $!
		grep -q "^-38 " "$TMP/res$c" || rows=$((rows + 2))
	done
	k=0
	while [ "$(grep -c '^ftcalls ' "$TMP/out")" -lt $rows ] && [ $k -lt $((100 * SLOW)) ]; do
		sleep 0.1
		k=$((k + 1))
	done
	stop_tool || return 1
	for c in --open --openat --openat2; do
		grep -q "^-38 " "$TMP/res$c" && continue	# no such syscall on this arch
		# kprobes show the kernel's flags, O_LARGEFILE added; openat2's flags
		# are behind a pointer the syscall event does not follow
		fl='02[01]00000'
		[ $c = --openat2 ] && [ "$(os_raw x)" != x ] && fl='\?       '
		for r in "-1 $(os_raw "$F$c")" "0x[0-9a-f]+ $(os_raw "$F")"; do
			sed -nE "s/^ftcalls +[0-9]+ +${r%% *} $fl //p" "$TMP/out" | grep -qxF -- "${r#* }" ||
				fail "$c: no row '${r%% *} $fl ${r#* }'; got: $(grep '^ftcalls' "$TMP/out")"
		done
	done
	[ "$(grep -c '^ftcalls ' "$TMP/out")" = $rows ] || fail "$(grep -c '^ftcalls ' "$TMP/out") rows for $rows opens"
	grep -q ' FLAGS    FILE$' "$TMP/out" || fail "no FLAGS header"
}

t_failed() {
	os_files
	os_start -x || return 1
	$OPEN --comm=ftfail --hold=300 "$F" "$M" > /dev/null &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "missing_$$" 50
	stop_tool || return 1
	want=$(printf '%-16.16s %-6s %7s %s' ftfail $h ENOENT "$M")
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'"
	grep -q "a file" "$TMP/out" && fail "successful open shown with -x"
	grep -qx 'COMM             PID         FD FILE' "$TMP/out" || fail "header"
}

t_pid() {
	os_files
	for opt in -p -L; do
		rm -f "$TMP/go"
		$OPEN --comm=ftkeep --go="$TMP/go" --hold=200 "$F" > "$TMP/res" &
		k=$!
		$OPEN --comm=ftdrop --go="$TMP/go" --hold=200 "$F" > /dev/null &
		d=$!
		os_start $opt $k || { touch "$TMP/go"; return 1; }
		touch "$TMP/go"
		grep -q "^Tracing open()s issued by $([ $opt = -p ] && echo PID || echo TID) $k. Ctrl-C to end.\$" "$TMP/out" ||
			fail "$opt banner: $(head -n 1 "$TMP/out")"
		wait $k $d
		wait_for_line "$TMP/out" "^ftkeep " 50
		stop_tool || return 1
		os_once ftkeep $k "$TMP/res" "$F"
		grep -q "ftdrop" "$TMP/out" && fail "$opt: other process shown"
	done
	expect_error 2 'either -p or -L' "$BIN/opensnoop" -p 1 -L 1
}

# os_rows FILE - "TID FD PATH" for each row of opensnoop's output
os_rows() {
	awk 'NF == 4 && $2 ~ /^[0-9]+$/ { print $2, $3, $4 }' "$1"
}

# t_pid_threads - -p: each of 1000 threads, the threads started after
# opensnoop was, a child and its thread open a path naming their TID: every
# open shown with its path, none of a process that does the same at the
# same time
t_pid_threads() {
	thr_start 1000 20 || return 1
	os_start -p $THR_PID || { kill -KILL $THR_PID $DEC_PID; wait $THR_PID $DEC_PID; return 1; }
	thr_trace os_rows || return 1
	while read -r t; do echo "$t -1 $TMP/thr/t$t"; done < "$TMP/thr.tids" > "$TMP/want"
	thr_compare "$TMP/got" "$TMP/want" "opensnoop -p"
	grep -q "$TMP/dec/" "$TMP/out" && fail "the other process's opens shown"
	return 0
}

t_name() {
	os_files
	os_start -n "ftna$$" || return 1
	$OPEN --comm="ftnb$$" --hold=200 "$F" > /dev/null
	$OPEN --comm="ftna$$" --hold=200 "$F" > "$TMP/res" &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "^ftna$$ " 50
	stop_tool || return 1
	os_once "ftna$$" $h "$TMP/res" "$F"
	grep -q "ftnb$$" "$TMP/out" && fail "other name shown"
	return 0
}

# t_comm_at_open - a process started before opensnoop opens a file and
# renames itself right after, while opensnoop is stopped: the row names it as
# it was at the open, never as it is when the row is read
t_comm_at_open() {
	os_files
	$OPEN --comm="ftca$$" --go="$TMP/go" --hold=2000 "$F" --comm="ftcb$$" > "$TMP/res" &
	h=$!
	sleep 0.3
	os_start || { touch "$TMP/go"; wait $h; return 1; }
	kill -STOP $TOOL_PID
	touch "$TMP/go"
	sleep 1
	kill -CONT $TOOL_PID
	wait $h
	wait_for_line "$TMP/out" " $h .*a file" 50
	stop_tool || return 1
	os_once "ftca$$" $h "$TMP/res" "$F"
}

t_filename() {
	os_files
	echo x > "$TMP/d/other_$$"
	os_start "a fil" || return 1
	grep -q "for filenames containing \"a fil\". Ctrl-C to end.\$" "$TMP/out" || fail "banner"
	$OPEN --comm=ftfile --hold=300 "$TMP/d/other_$$" "$F" > "$TMP/res" &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "a file" 50
	stop_tool || return 1
	os_once ftfile $h "$TMP/res" "$F"
	grep -q "other_$$" "$TMP/out" && fail "other path shown"
	return 0
}

t_columns() {
	os_files
	os_start -t -T || return 1
	$OPEN --comm=ftcols --hold=300 "$F" > /dev/null
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
	$OPEN --comm=ftdur --hold=300 "$F" > "$TMP/res" &
	h=$!
	wait $h
	wait_gone $TOOL_PID 100 || { stop_tool; fail "-d 2 did not end by itself"; return 1; }
	wait $TOOL_PID
	[ $? = 0 ] || fail "exit status"
	os_once ftdur $h "$TMP/res" "$F"
}

# t_stdin_closed - started with stdin closed (<&-): descriptor 0 is /dev/null
# while it runs, never a file of its own it could take for "none" or write to
# by mistake; the open is shown exactly, Ctrl-C ends it with status 0, and
# tracefs is left as it was (checked after every test)
t_stdin_closed() {
	os_files
	rm -f "$TMP/out" "$TMP/err"
	"$BIN/opensnoop" -n ftstd <&- > "$TMP/out" 2> "$TMP/err" &
	p=$!
	wait_for_line "$TMP/out" '^Tracing' 600 || { kill $p; fail "did not start: $(cat "$TMP/err")"; return 1; }
	fd0=$(readlink "/proc/$p/fd/0")
	$OPEN --comm=ftstd --hold=300 "$F" > "$TMP/res" &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "ftstd" 50
	kill -INT $p
	wait $p
	rc=$?
	[ "$fd0" = /dev/null ] || fail "descriptor 0 while running: '$fd0', wanted /dev/null"
	[ $rc = 0 ] || fail "exit status $rc: $(cat "$TMP/err")"
	fd=$(grep " $F\$" "$TMP/res" | cut -d' ' -f1)
	want=$(os_line ftstd $h "0x$fd" "$F")
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'; got: $(grep " $h " "$TMP/out")"
}

t_head() {
	rm -f "$TMP/rc"
	( "$BIN/opensnoop" 2>/dev/null & echo $! > "$TMP/pid"; wait $!; echo $? > "$TMP/rc" ) |
		head -n 3 > "$TMP/h" &
	n=0
	while [ ! -s "$TMP/rc" ] && [ $n -lt 300 ]; do
		"$WORKLOADS/ftt_open" --hold=100 /etc/passwd > /dev/null
		n=$((n + 1))
	done
	wait_for_line "$TMP/rc" . 50 || {
		kill -INT "$(cat "$TMP/pid")"; wait_for_line "$TMP/rc" . 100
		fail "opensnoop | head -n 3 did not end"; return 1; }
	[ "$(wc -l < "$TMP/h")" -eq 3 ] || fail "head got $(wc -l < "$TMP/h") lines"
	# a closed pipe is a normal end
	[ "$(cat "$TMP/rc")" = 0 ] || fail "opensnoop | head -n 3: exit status $(cat "$TMP/rc"), wanted 0"
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

# t_cgroup - --cgroup, relative to the cgroup2 mount (cg_scene: a member
# and its child, a leaver, a joiner, a busy outsider, each opening a file
# under its own name): exactly the opens of the member, its child, the
# leaver before it left and the joiner after it joined are shown
t_cgroup() {
	cg_scene_start || return $?
	cg_scene_trace os_start "Tracing open()s in cgroup $CG_REL. Ctrl-C to end." "^cg_joiner_in " \
		--cgroup "$CG_REL" || return 1
	cg_scene_check "$(awk 'NF >= 4 && $2 ~ /^[0-9]+$/ { print $1 }' "$TMP/out")"
}

# t_show_cgroup - --show-cgroup (cg_scene, nothing scoped): every role's
# opens show the cgroup it was in at the open (cg_shown): the member's path,
# the container ID of the docker-ID.scope below it, the cgroup beside it for the leaver
# once out, this shell's cgroup for the joiner before it joined and the
# outsider (or ?, for a run of the outsider that began as tracing did, with
# no event to tell where it was); the column comes before FILE
t_show_cgroup() {
	cg_scene_start || return $?
	cg_scene_trace os_start "Tracing open()s. Ctrl-C to end." "^cg_joiner_in " --show-cgroup ||
		return 1
	[ "$(sed -n 2p "$TMP/out")" = "$(printf '%-16s %-6s %4s %-12s FILE' COMM PID FD CGROUP)" ] ||
		fail "header: $(sed -n 2p "$TMP/out")"
	cg_shown_check "$(awk '{ print $1, $4 }' "$TMP/out")"
}

# t_cgroup_refused - --cgroup's refusals: one line, and nothing traced
t_cgroup_refused() {
	cg=$(cg_root) || { skip "$cg"; return 0; }
	expect_error 1 "^opensnoop: --cgroup ftt_no_such_$$: no such cgroup under $cg\$" \
		"$BIN/opensnoop" --cgroup "ftt_no_such_$$" || return 1
	expect_error 1 "^opensnoop: --cgroup /proc: not in the cgroup v2 hierarchy \\($cg\\)\$" \
		"$BIN/opensnoop" --cgroup /proc || return 1
	expect_error 2 'use either -p or --cgroup' "$BIN/opensnoop" -p 1 --cgroup / || return 1
	expect_error 2 'use either --exec or --cgroup' "$BIN/opensnoop" --exec true --cgroup / || return 1
	# in a cgroup namespace of its own the events' paths are not the mount's
	if unshare -C true 2>/dev/null; then
		expect_error 1 '^opensnoop: --show-cgroup: this process is in a cgroup namespace of its own' \
			unshare -C "$BIN/opensnoop" --show-cgroup
	fi
}

# t_rungs - every capture rung this kernel has, forced in turn: the rung is
# the one asked for, each open of the workload is exactly one row, a C library
# open shows its path (unknown only with none), a raw syscall its path from a
# kernel-side rung and [?] from the others, and a pattern never matches [?]
t_rungs() {
	os_files
	for r in $(cap_rungs open); do
		export FTT_CAPTURE=$r
		os_start || { unset FTT_CAPTURE; return 1; }
		unset FTT_CAPTURE
		cap_check open "$r"
		$OPEN --comm=ftrung --hold=200 "$F" "$M" "$F" > "$TMP/res" &
		h=$!
		"$WORKLOADS/ftt_open" --comm=ftraw --hold=200 "$M" > /dev/null &
		w=$!
		wait $h $w
		k=0
		while [ "$(grep -cE "^ftr(ung|aw) " "$TMP/out")" -lt 4 ] && [ $k -lt $((50 * SLOW)) ]; do
			sleep 0.1
			k=$((k + 1))
		done
		stop_tool || return 1
		p=$F q=$M
		[ $r = none ] && p='[?]' q='[?]'
		for fd in $(grep " $F\$" "$TMP/res" | cut -d' ' -f1); do
			want=$(os_line ftrung $h "0x$fd" "$p")
			grep -qxF -- "$want" "$TMP/out" || fail "$r: no line '$want'; got: $(grep -F " $h " "$TMP/out")"
		done
		want=$(os_line ftrung $h -1 "$q")
		grep -qxF -- "$want" "$TMP/out" || fail "$r: no line '$want'"
		want=$(os_line ftraw $w -1 "$(os_raw "$M")")
		grep -qxF -- "$want" "$TMP/out" || fail "$r: no line '$want'; got: $(grep -F " $w " "$TMP/out")"
		# the workloads' own opens, once each (before it names itself, the
		# dynamic loader opens libraries, and the shell the redirect)
		n=$(grep -c "^ftrung  *$h " "$TMP/out")
		[ "$n" = 3 ] || fail "$r: $n rows for the 3 opens of PID $h"
		n=$(grep -c "^ftraw  *$w " "$TMP/out")
		[ "$n" = 1 ] || fail "$r: $n rows for the 1 open of PID $w"
	done
	# a pattern is matched against paths taken at the call only
	export FTT_CAPTURE=none
	os_start -n ftpat "missing_$$" || { unset FTT_CAPTURE; return 1; }
	unset FTT_CAPTURE
	$OPEN --comm=ftpat --hold=100 "$M" > /dev/null
	sleep 0.5
	stop_tool || return 1
	grep -q '^ftpat' "$TMP/out" && fail "none: a pattern matched an unknown path"
	grep -q '1 opens with no path taken at the call were not matched' "$TMP/err" ||
		fail "none: no count of the opens the pattern could not match: $(cat "$TMP/err")"
}

# t_broken_rung - a rung this kernel offers but that reads wrong values
# fails its check when forced (cap_broken_check in tests/lib.sh)
t_broken_rung() { cap_broken_check opensnoop; }

# t_user_lib - a C library a user other than root owns is left out: no uprobe
# on it (user_lib_check in tests/lib.sh)
t_user_lib() { user_lib_check opensnoop open64; }

# t_container - a process under another root with a C library of its own (a
# copy, so another inode: what a container has), running before opensnoop
# starts: with uprobes, its library is probed too and its opens show their
# paths as it passed them
t_container() {
	case " $(cap_rungs open) " in
	*" uprobe "*) ;;
	*) skip "no uprobes on this kernel"; return 0 ;;
	esac
	r=$TMP/root
	mkdir -p "$r/data" "$r/bin" && echo x > "$r/data/file" && cp "$WORKLOADS/ftt_open.dyn" "$r/bin/" ||
		{ fail "cannot make $r"; return 1; }
	libs=$(ldd "$WORKLOADS/ftt_open.dyn" 2>/dev/null | grep -o '/[^ ]*')
	[ -n "$libs" ] || libs="/lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2"
	for l in $libs; do
		mkdir -p "$r$(dirname "$l")" && cp -L "$l" "$r$l" || { fail "cannot copy $l"; return 1; }
	done
	chroot "$r" /bin/ftt_open.dyn --comm=ftctr --go=/go --libc /data/file /data/missing > "$TMP/res" &
	h=$!
	sleep 0.3
	export FTT_CAPTURE=uprobe
	os_start || { unset FTT_CAPTURE; touch "$r/go"; return 1; }
	unset FTT_CAPTURE
	touch "$r/go"
	wait $h
	wait_for_line "$TMP/out" "^ftctr .*missing" 50
	stop_tool || return 1
	fd=$(grep " /data/file\$" "$TMP/res" | cut -d' ' -f1)
	want=$(os_line ftctr $h "0x$fd" /data/file)
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'; got: $(grep -F " $h " "$TMP/out")"
	want=$(os_line ftctr $h -1 /data/missing)
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'"
}

# ns_lib MAKER - a container with a C library of its own, owned by the uid its
# user namespace maps root to, that MAKER (root or nobody) made, running
# before opensnoop starts on the uprobe rung: root's container is probed (its
# opens show their paths, nothing is left out), a user's (rootless) container
# is left out in one stderr line and its opens show [?]
ns_lib() {
	command -v perl > /dev/null || { skip "no perl to enter a user namespace"; return 0; }
	[ "$1" = root ] || nobody_runs || { skip "no setpriv that runs a process as nobody"; return 0; }
	[ "$1" = root ] && { run=; uid=100000; } ||
		{ run="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"; uid=$(id -u nobody); }
	d=$(mktemp -d /tmp/ftt-ns.XXXXXX) && chmod 755 "$d" && r=$d/root &&
		mkdir -p "$r/data" "$r/bin" && echo x > "$r/data/file" && cp "$WORKLOADS/ftt_open.dyn" "$r/bin/" ||
		{ fail "cannot make $r"; return 1; }
	libs=$(ldd "$WORKLOADS/ftt_open.dyn" 2>/dev/null | grep -o '/[^ ]*')
	[ -n "$libs" ] || libs="/lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2"
	for l in $libs; do
		mkdir -p "$r$(dirname "$l")" && cp -L "$l" "$r$l" || { fail "cannot copy $l"; rm -rf "$d"; return 1; }
	done
	chown -R "$uid:$uid" "$r"
	# unshare(CLONE_NEWUSER | CLONE_NEWNS), wait for the maps, become the
	# namespace's root, chroot, exec
	NS_GO=$d/mapped NS_ROOT=$r $run perl -e '
		syscall(272, 0x10020000) == 0 or die "unshare: $!\n";
		select(undef, undef, undef, 0.05) until -e $ENV{NS_GO};
		syscall(119, 0, 0, 0) == 0 && syscall(117, 0, 0, 0) == 0 or die "setresuid: $!\n";
		chroot($ENV{NS_ROOT}) && chdir("/") or die "chroot: $!\n";
		exec(@ARGV) or die "exec: $!\n";' /bin/ftt_open.dyn --comm=ftns --go=/go --libc /data/file > "$TMP/res" &
	h=$!
	n=0
	while [ "$(readlink /proc/$h/ns/user)" = "$(readlink /proc/self/ns/user)" ] && [ $n -lt 100 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	echo "0 $uid 1" > "/proc/$h/uid_map" && echo "0 $uid 1" > "/proc/$h/gid_map" && touch "$d/mapped" ||
		{ fail "cannot map the namespace's root"; kill $h; wait $h; rm -rf "$d"; return 1; }
	n=0
	until grep -q " $r/.*libc\.so\.6\$\| /lib/.*libc\.so\.6\$" "/proc/$h/maps" 2>/dev/null || [ $n -gt 100 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	export FTT_CAPTURE=uprobe
	os_start || { unset FTT_CAPTURE; touch "$r/go"; wait $h; rm -rf "$d"; return 1; }
	unset FTT_CAPTURE
	touch "$r/go"
	wait $h
	wait_for_line "$TMP/out" " $h " 50
	stop_tool || { rm -rf "$d"; return 1; }
	fd=$(grep " /data/file\$" "$TMP/res" | cut -d' ' -f1)
	n=$(grep -c "left out the C library .*libc\.so\.6 mapped by PID $h " "$TMP/err")
	if [ "$1" = root ]; then
		want=$(os_line ftns $h "0x$fd" /data/file)
		[ "$n" = 0 ] || fail "root's container's library left out: $(grep 'left out' "$TMP/err")"
	else
		want=$(os_line ftns $h "0x$fd" "[?]")
		[ "$n" = 1 ] || fail "$n stderr lines say the user's container's library was left out: $(head -c 600 "$TMP/err")"
	fi
	[ -n "$fd" ] && grep -qxF -e "$want" "$TMP/out" ||
		fail "no line '$want'; got: $(grep -F " $h " "$TMP/out")"
	rm -rf "$d"
}

# t_ns_root - a container root made, its library owned by its root: probed
t_ns_root() { ns_lib root; }

# t_ns_user - a container a user made (rootless), its library owned by its
# root, that is by that user: left out
t_ns_user() { ns_lib nobody; }

# t_hostile - a process name and a path with terminal controls, a newline and
# a byte that is not UTF-8 are shown escaped, whole, never raw
t_hostile() {
	mkdir -p "$TMP/d" && hp="$TMP/d/p$(printf '\033]0;t\007\nq')$$" && echo x > "$hp" ||
		{ fail "cannot make the file"; return 1; }
	os_start || return 1
	cap_check open
	$OPEN "--comm=$HOSTILE" --hold=300 "$hp" > "$TMP/res" &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "q$$\$" 50
	stop_tool || return 1
	fd=$(head -n 1 "$TMP/res" | cut -d' ' -f1)
	want="$HOSTILE_VIS $(printf '%-6s %4s' $h "0x$fd") $TMP/d/p\\x1b]0;t\\x07\\x0aq$$"
	grep -qxF -- "$want" "$TMP/out" || fail "no line '$want'; got: $(grep -F "q$$" "$TMP/out")"
	vis_clean "$TMP/out" || fail "raw control or non-ASCII bytes in the output: $(LC_ALL=C grep -n '[^ -~]' "$TMP/out" | od -c | head -5)"
}

# t_json - -j: every stdout line a JSON object (the banner on stderr); the
# workload's opens as objects with its exact name, PID, FD and path, a path
# with a control byte, a newline and a byte that is not UTF-8 included (that
# byte decodes to the text \xff, as the man page says), a failed open with
# its error, and the time of the open on the wall clock
t_json() {
	os_files
	B="$TMP/d/b$(printf '\001\nq\377')" && : > "$B" || { fail "cannot make the hostile file"; return 1; }
	os_start -j || return 1
	grep -q '^Tracing open' "$TMP/err" || fail "-j: no banner on stderr"
	t0=$(date +%s)
	$OPEN "--comm=ft js $$" --hold=300 "$F" "$B" "$M" > "$TMP/res" &
	h=$!
	wait $h
	t1=$(date +%s)
	wait_for_line "$TMP/out" "missing_$$" 50
	stop_tool || return 1
	json_check "$TMP/out" || return 1
	jq -c "select(.pid == $h)" "$TMP/out" > "$TMP/rows"
	fd=$(head -n 1 "$TMP/res" | cut -d' ' -f1)
	bfd=$(sed -n 2p "$TMP/res" | cut -d' ' -f1)
	[ "$bfd" -ge 0 ] || { fail "the workload could not open the hostile file ($bfd)"; return 1; }
	# the hostile path as the JSON decodes it: the byte that is not UTF-8 as
	# the text \xff (built here, not by sed: busybox sed knows no \xNN)
	BJ="$TMP/d/b$(printf '\001\nq')\\xff"
	for want in "$F $fd null" "$BJ $bfd null" "$M -1 \"ENOENT\""; do
		p=${want% * *} rest=${want#"$p "}
		n=$(jq --arg p "$p" --arg c "ft js $$" --arg host "$(uname -n)" \
			"select(.file == \$p and .comm == \$c and .fd == ${rest% *} and .error == ${rest#* } and
			 .host == \$host and .tool == \"opensnoop\" and .cut == false)" "$TMP/rows" | jq -s length)
		[ "$n" = 1 ] || fail "-j: $n objects for the open of '$p' (fd ${rest% *}); PID $h's: $(cat "$TMP/rows")"
	done
	jq -r .time "$TMP/rows" | while read -r t; do json_time_ok "$t" "$t0" "$t1"; done
	[ "$TOOL_RC" = 0 ] || fail "exit status $TOOL_RC after SIGINT"
}

# t_json_head - -j | head -n 1: one whole object, and opensnoop ends (0)
t_json_head() {
	os_files
	( while [ ! -e "$TMP/stop" ]; do cat "$F" > /dev/null; sleep 0.05; done ) &
	loop=$!
	json_head_run 30 "$BIN/opensnoop" -j
	touch "$TMP/stop"
	wait $loop
	json_head_ok '.tool == "opensnoop" and (.pid | type) == "number"'
}

# t_json_buffered - -j -d: the objects come at the end, the banner and the
# ending on stderr, and the open in the window is there
t_json_buffered() {
	os_files
	"$BIN/opensnoop" -j -d $((2 * SLOW)) > "$TMP/out" 2> "$TMP/err" &
	p=$!
	wait_for_line "$TMP/err" '^Tracing open' 200 || { fail "no banner on stderr"; wait $p; return 1; }
	$OPEN --comm=ftjsbuf "$F" > "$TMP/res"
	wait $p || fail "exit status $? with -d"
	json_check "$TMP/out" || return 1
	[ "$(jq -c --arg f "$F" 'select(.comm == "ftjsbuf" and .file == $f)' "$TMP/out" | wc -l)" = 1 ] ||
		fail "-j -d: no object for the open of '$F': $(grep -a ftjsbuf "$TMP/out") $(cat "$TMP/res")"
	grep -q '^Ending tracing' "$TMP/err" || fail "-j -d: no ending on stderr"
}

# t_pidns - a run in a PID namespace of its own (its own /proc, the host's
# tracefs) sees none of the PIDs tracing records: it refuses in one line, and
# the host's live run keeps its instance and goes on tracing
t_pidns() {
	command -v unshare > /dev/null || { skip "no unshare"; return 0; }
	unshare -p -f --mount-proc true 2> /dev/null || { skip "cannot make a PID namespace"; return 0; }
	os_files
	os_start || return 1
	inst=$(run_inst opensnoop $TOOL_PID) || { stop_tool; fail "no instance for the host run"; return 1; }
	ls -d "$inst"* > "$TMP/insts"
	expect_error 1 'PID namespace' unshare -p -f --mount-proc "$BIN/opensnoop" -d 1
	expect_error 1 'PID namespace' unshare -p -f --mount-proc "$BIN/opensnoop" -p 1
	ls -d "$inst"* 2> /dev/null | cmp -s - "$TMP/insts" ||
		fail "the host run's instances changed: $(ls -d "$inst"* 2> /dev/null | tr '\n' ' '), were: $(tr '\n' ' ' < "$TMP/insts")"
	$OPEN --comm=ftns --hold=300 "$F" > "$TMP/res" &
	h=$!
	wait $h
	wait_for_line "$TMP/out" "^ftns " 50
	stop_tool || return 1
	os_once ftns $h "$TMP/res" "$F"
}

# t_exec_cmd - --exec: the command's first open and that of a process its shell
# left behind, shown; none of a process outside it; the run ends by itself
t_exec_cmd() {
	: > "$TMP/xe_file"
	exec_run "$WORKLOADS/ftt_open" "$TMP/xe_file" "$BIN/opensnoop" || return 1
	exec_rows "" 1
}

# every exit path (tests/exits.sh)
exit_paths opensnoop

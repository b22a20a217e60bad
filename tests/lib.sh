# SPDX-License-Identifier: GPL-2.0-only
# tests/lib.sh - shared helpers for the live tests (POSIX sh, busybox ash and dash)
#
# A test file tests/live/<tool>.sh defines functions named t_<name>; the runner calls
# each one with a fresh tracefs snapshot and compares the state afterwards. Each
# file is read in a subshell of its own: what it defines is its own, and another
# file may use the same names.
# Inside a test: T (tracefs dir), BIN (the suite's binaries), WORKLOADS (tests/bin:
# the programs built from tests/workloads and tests/preload), TMP (a private scratch dir).
# A test returns 0 to pass; it calls fail "why" / skip "why" to say otherwise.

T=${T:-/sys/kernel/tracing}
# SLOW multiplies every wait limit (an emulated guest is several times slower);
# a passing wait returns as soon as its condition holds, so a big limit is cheap
SLOW=${SLOW:-1}

# fail - record why the current test failed (the test should then return 1)
fail() { echo "$*" >> "$TMP/.why"; return 1; }

# skip - mark the current test skipped with a reason
skip() { echo "$*" > "$TMP/.skip"; return 0; }

# tracefs_snapshot - print the tracefs state a tool must leave as it found it;
# the instances and probes of tool runs that are still running (another test
# or a user's session, not the run under test, which has ended) are left out.
# A run's instances are "ftt-TOOL-PID-START" and "ftt-TOOL-PID-START-WHAT"
# (older versions: "ftt-TOOL-PID"), its probe groups "ftt_TOOL_PID_START".
tracefs_snapshot() {
	pat=
	for p in $(ls "$T/instances" 2>/dev/null | sed -n 's/^ftt-[a-z0-9]*-\([0-9][0-9]*\)\(-.*\)\{0,1\}$/\1/p'
		   cat "$T/kprobe_events" "$T/dynamic_events" "$T/synthetic_events" 2>/dev/null |
			grep -o 'ftt_[a-z0-9]*_[0-9][0-9]*' | sed 's/.*_//'); do
		kill -0 "$p" 2>/dev/null && pat="$pat|ftt[-_][a-z0-9]+[-_]$p([^0-9]|\$)"
	done
	if [ -n "$pat" ]; then
		tracefs_snapshot_all | grep -Ev "${pat#|}"
	else
		tracefs_snapshot_all
	fi
}

# snapshot_runs FILE - the PIDs of the tool runs named in a snapshot
snapshot_runs() {
	grep -oE 'ftt[-_][a-z0-9]+[-_][0-9]+' "$1" | sed 's/.*[-_]//' | sort -u
}

# snapshot_compare BEFORE AFTER - compare two snapshots around a test; the
# runs already there before it began are not the test's (a run in another
# PID namespace, which kill -0 cannot see, ending during the test): their
# lines are left out of both. Prints the differences; status 1 if any.
snapshot_compare() {
	pat=
	for p in $(snapshot_runs "$1"); do
		pat="$pat|ftt[-_][a-z0-9]+[-_]$p([^0-9]|\$)"
	done
	if [ -z "$pat" ]; then
		cmp -s "$1" "$2" && return 0
		diff "$1" "$2"
		return 1
	fi
	grep -Ev "${pat#|}" "$1" > "$1.own"
	grep -Ev "${pat#|}" "$2" > "$2.own"
	cmp -s "$1.own" "$2.own" && return 0
	diff "$1.own" "$2.own"
	return 1
}

# snapshot_retake - take again the state the test runner compares with at the
# end ($TMP/.before), for a test that must first change what the kernel never
# changes back: the first use of the top-level buffer expands it for good
snapshot_retake() {
	tracefs_snapshot > "$TMP/.before"
}

# tracefs_snapshot_all - every line of the state, running tool runs included:
# the top-level settings files, the instances, every event filter and trigger
# that is set, the enabled systems, the per-CPU buffer sizes, and the user's
# own instances (not the tools' ftt-*) with their settings and filters. One
# process (tests/workloads/tfsnap.c): under an emulated CPU, a shell version's
# sixty processes cost seconds a test.
tracefs_snapshot_all() {
	"${WORKLOADS:?tests/bin, where the workloads are built}/tfsnap" "$T"
}

# kernel_has - true if tracefs has the given file (a feature check)
kernel_has() { [ -e "$T/$1" ]; }

# cap_rungs KIND - the capture rungs (common/ladder.h) this kernel has for
# KIND (open or exec), best first, from its tracefs files alone: what a run
# must use is worked out here, never taken from the tool. A guest may declare
# a rung that its kernel offers but that reads wrong values (CAP_BROKEN, e.g.
# "eprobe"): it is left out, and forcing it must fail the tool's check.
cap_rungs() {
	sc=
	grep -q ' __filename_val;' "$T/events/syscalls/sys_enter_openat/format" 2>/dev/null && sc=syscall
	# the README lists event probes on kernels that refuse them: make one
	ep=
	if [ -e "$T/dynamic_events" ] &&
	   echo "e:ftt_cap_$$/t syscalls.sys_enter_openat" >> "$T/dynamic_events" 2>/dev/null; then
		echo "-:ftt_cap_$$/t" >> "$T/dynamic_events"
		ep=eprobe
	fi
	kp=
	[ -e "$T/kprobe_events" ] && grep -q ustring "$T/README" && kp=kprobe
	# exec's kprobes sit on __x64_sys_execve, which kernels that call the
	# syscall functions inlined never enter: see whether an exec hits one
	[ "$1" = exec ] && [ -n "$kp" ] && ! kprobe_fires __x64_sys_execve && kp=
	up=
	[ -e "$T/uprobe_events" ] && grep -q ustring "$T/README" && up=uprobe
	case $1 in
	open) set -- $sc $ep $kp $up none ;;
	exec) set -- $ep $kp $up $sc none ;;
	esac
	for r in "$@"; do
		case " ${CAP_BROKEN:-} " in *" $r "*) continue ;; esac
		printf '%s ' "$r"
	done
	echo
}

# kprobe_fires FUNC - a kprobe of the test's own on FUNC, enabled in an
# instance of its own, is hit by an exec (kprobe_profile counts the hits)
kprobe_fires() {
	g=ftt_capk_$$
	echo "p:$g/f $1" >> "$T/kprobe_events" 2>/dev/null || return 1
	mkdir "$T/instances/$g" || { echo "-:$g/f" >> "$T/kprobe_events"; return 1; }
	echo 1 > "$T/instances/$g/events/$g/f/enable"
	/bin/sh -c : 2>/dev/null
	echo 0 > "$T/instances/$g/events/$g/f/enable"
	hits=$(awk -v e="$g/f" '$1 == e || $1 == "f" { print $2 }' "$T/kprobe_profile")
	rmdir "$T/instances/$g"
	echo "-:$g/f" >> "$T/kprobe_events"
	[ "${hits:-0}" -gt 0 ]
}

# cap_best KIND - the rung a run without FTT_CAPTURE must use for KIND
cap_best() { set -- $(cap_rungs "$1"); echo "$1"; }

# cap_used - the rung the tool that ran said it used (its stderr in $TMP/err)
cap_used() { sed -n 's/.*(capture rung \([a-z]*\).*/\1/p' "$TMP/err" | head -n 1; }

# cap_check KIND [RUNG] - the tool used RUNG (default: the best for KIND), or fail
cap_check() {
	want=${2:-$(cap_best "$1")}
	got=$(cap_used)
	[ "$got" = "$want" ] || fail "capture rung '$got', want '$want' (this kernel: $(cap_rungs "$1"))"
}

# cap_note KIND - the one stderr line (less "TOOL: ") a run without -v
# must print for KIND on this kernel (common/ladder.c ladder_note), empty
# for none: said when rows may show [?] (uprobes, none, an exec's syscall
# event) or when a better rung failed its check (one CAP_BROKEN names)
cap_note() {
	best=$(cap_best "$1")
	what=paths
	order="syscall eprobe kprobe uprobe none"
	[ "$1" = exec ] && what=arguments order="eprobe kprobe uprobe syscall none"
	refused=
	for r in $order; do
		[ "$r" = "$best" ] && break
		case " ${CAP_BROKEN:-} " in *" $r "*) refused=1 ;; esac
	done
	tail="; -v says why"
	[ -n "$refused" ] && tail=" (a better way failed its check; -v says which)"
	case $best in
	uprobe) echo "$what taken by uprobes on the C library: calls that bypass it (static programs, the dynamic loader) show [?]$tail" ;;
	none) echo "$what not taken on this kernel: rows show [?]$tail" ;;
	syscall) if [ "$1" = exec ]; then
			echo "arguments not in this kernel's exec event: rows show the file and [?]$tail"
		elif [ -n "$refused" ]; then
			echo "$what taken by the syscall events' own strings$tail"
		fi ;;
	eprobe) [ -z "$refused" ] || echo "$what taken by event probes on the syscall entry tracepoints$tail" ;;
	kprobe) [ -z "$refused" ] || echo "$what taken by kprobes$tail" ;;
	esac
}

# cap_note_check TOOL KIND - TOOL run for a second without -v prints the
# line cap_note gives, or no such line
cap_note_check() {
	want=$(cap_note "$2")
	"$BIN/$1" -d 1 > "$TMP/out" 2> "$TMP/err" || { fail "exit status $?: $(head -c 300 "$TMP/err")"; return 1; }
	got=$(grep -E "^$1: (paths|arguments) |capture rung|better rungs" "$TMP/err")
	[ "$got" = "${want:+$1: $want}" ] ||
		fail "without -v, stderr said '$got', want '${want:+$1: $want}' (this kernel: $(cap_rungs "$2"))"
}

# cap_broken_check TOOL - each rung declared broken on this kernel
# (CAP_BROKEN, per guest) fails TOOL's check when forced: one line, exit 1
cap_broken_check() {
	[ -n "${CAP_BROKEN:-}" ] || { skip "no rung declared broken on this kernel"; return 0; }
	for r in $CAP_BROKEN; do
		export FTT_CAPTURE=$r
		expect_error 1 "FTT_CAPTURE=$r: failed its check" "$BIN/$1" -d 1
		rc=$?
		unset FTT_CAPTURE
		[ $rc = 0 ] || return 1
	done
}

# code_byte PID LIB SYM - the first byte (two hex digits) of SYM's code in
# PID's memory, where PID maps LIB (its path as in PID's maps); empty if unknown
code_byte() {
	v=$(readelf -W --dyn-syms "$2" 2>/dev/null | awk -v s="$3" '$4 == "FUNC" && index($8, s "@@") == 1 { print $2; exit }')
	b=$(awk -v f="$2" '$6 == f && $3 == "00000000" { sub(/-.*/, "", $1); print $1; exit }' "/proc/$1/maps")
	[ -n "$v" ] && [ -n "$b" ] || return 0
	dd if="/proc/$1/mem" bs=1 count=1 skip=$((0x$b + 0x$v)) iflag=skip_bytes 2>/dev/null | od -An -tx1 | tr -d ' \n'
}

# nobody_runs - setpriv can run a process as the user nobody
nobody_runs() {
	[ "$(setpriv --reuid=nobody --regid="$(id -g nobody 2>/dev/null)" --clear-groups id -u 2>/dev/null)" = "$(id -u nobody 2>/dev/null)" ]
}

# user_lib_check TOOL SYM - a C library that a user other than root owns (its
# own copy of libc.so.6 in its own directory, mapped by its own process before
# TOOL starts on the uprobe rung) is never probed: TOOL says so in one stderr
# line, none of TOOL's uprobes is on that file, and SYM's code in that process
# keeps its first byte, while root's C library in a second process of the same
# user gets the breakpoint (0xcc)
user_lib_check() {
	case " $(cap_rungs open) " in
	*" uprobe "*) ;;
	*) skip "no uprobes on this kernel"; return 0 ;;
	esac
	command -v readelf > /dev/null || { skip "no readelf to find $2 in the library"; return 0; }
	nobody_runs || { skip "no setpriv that runs a process as nobody"; return 0; }
	sys=$(ldd "$WORKLOADS/ftt_open.dyn" 2>/dev/null | grep -o '/[^ ]*/libc\.so\.6')
	[ -n "$sys" ] || sys=/lib/x86_64-linux-gnu/libc.so.6
	d=$(mktemp -d /tmp/ftt-ulib.XXXXXX) && chmod 755 "$d" && cp "$WORKLOADS/ftt_open.dyn" "$d/" &&
		mkdir "$d/lib" && chown nobody "$d/lib" || { fail "cannot make $d"; return 1; }
	nob="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
	$nob cp "$sys" "$d/lib/libc.so.6" || { fail "nobody cannot copy $sys"; rm -rf "$d"; return 1; }
	$nob env LD_LIBRARY_PATH="$d/lib" "$d/ftt_open.dyn" --comm=ftulib --go="$d/go" --libc "$d/none" > /dev/null &
	u=$!
	$nob "$d/ftt_open.dyn" --comm=ftslib --go="$d/go" --libc "$d/none" > /dev/null &
	r=$!
	sleep 0.3
	id=$(stat -c %d:%i "$d/lib/libc.so.6")
	grep -q " $d/lib/libc.so.6\$" "/proc/$u/maps" || { fail "the user's process does not map its library"; touch "$d/go"; wait; rm -rf "$d"; return 1; }
	ub0=$(code_byte $u "$d/lib/libc.so.6" "$2")
	export FTT_CAPTURE=uprobe
	start_tool "$BIN/$1" || { unset FTT_CAPTURE; fail "did not start: $(head -c 300 "$TMP/err")"; touch "$d/go"; wait; rm -rf "$d"; return 1; }
	unset FTT_CAPTURE
	n=$(grep -c "left out.*$d/lib/libc\.so\.6" "$TMP/err")
	[ "$n" = 1 ] || fail "$n stderr lines say $d/lib/libc.so.6 was left out: $(head -c 600 "$TMP/err")"
	probed=0
	for f in $(awk -v g="^p:ftt_$1_${TOOL_PID}_" '$1 ~ g { sub(/:0x[0-9a-f]*$/, "", $2); print $2 }' "$T/uprobe_events"); do
		probed=$((probed + 1))
		case $f in /proc/self/*) f=/proc/$TOOL_PID/${f#/proc/self/} ;; esac
		fid=$(stat -L -c %d:%i "$f" 2>/dev/null) || { fail "cannot tell which file the uprobe on $f is on"; continue; }
		[ "$fid" != "$id" ] || fail "a uprobe on the user's library: $f"
	done
	[ $probed -gt 0 ] || fail "no uprobe of $1 in uprobe_events"
	ub=$(code_byte $u "$d/lib/libc.so.6" "$2")
	rl=$(awk '$6 ~ /\/libc\.so\.6$/ { print $6; exit }' "/proc/$r/maps")
	rb=$(code_byte $r "$rl" "$2")
	[ -n "$ub0" ] && [ "$ub" = "$ub0" ] && [ "$ub" != cc ] ||
		fail "$2 in the user's library: first byte '$ub0' before $1, '$ub' while it runs"
	[ "$rb" = cc ] || fail "$2 in root's library: first byte '$rb' while $1 runs, no breakpoint"
	stop_tool
	touch "$d/go"
	wait $u $r
	rm -rf "$d"
}

# wait_for_line - wait up to $3 tenths of a second for file $1 to match ERE $2
wait_for_line() {
	n=0
	while [ $n -lt $((${3:-50} * SLOW)) ]; do
		grep -Eq "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# fcalls_start NAME ACTIONS... - start the workload fcalls as $TMP/NAME (so
# named), waiting on the FIFO $TMP/go, then making ACTIONS; sets W (its PID)
fcalls_start() {
	wn=$1
	shift
	cp "$WORKLOADS/fcalls" "$TMP/$wn" || { fail "cannot copy fcalls"; return 1; }
	rm -f "$TMP/go"
	mkfifo "$TMP/go" || { fail "cannot make the FIFO $TMP/go"; return 1; }
	"$TMP/$wn" wait "$TMP/go" "$@" > "$TMP/w.out" 2> "$TMP/w.err" &
	W=$!
	wait_for_line "$TMP/w.out" '^waiting$' 100 && return 0
	kill $W 2>/dev/null
	fail "fcalls did not start: $(cat "$TMP/w.err")"
	return 1
}

# fcalls_go - let fcalls_start's workload act (open the FIFO for writing), and wait for it
fcalls_go() {
	# shellcheck disable=SC2016
	timeout 10 sh -c ': > "$1"' sh "$TMP/go" || fail "the workload did not open its FIFO"
	wait $W || fail "fcalls failed: $(cat "$TMP/w.err")"
}

# wait_for_lines FILE STRING COUNT [TENTHS] - wait up to TENTHS (default 100)
# tenths of a second, times SLOW, for COUNT lines of FILE holding STRING
wait_for_lines() {
	n=0
	while [ "$(grep -cF -- "$2" "$1" 2>/dev/null)" -lt "$3" ] && [ $n -lt $((${4:-100} * SLOW)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

# fg_top - does this kernel graph only at the top level (no function_graph
# or no set_graph_function in an instance)? funcgraph runs there, or refuses
# to take a top level someone else uses
fg_top() {
	d=$T/instances/ftt_fgtop_$$
	mkdir "$d" || return 0
	grep -qw function_graph "$d/available_tracers" && [ -e "$d/set_graph_function" ]
	r=$?
	rmdir "$d"
	[ $r -ne 0 ]
}

# fl_kernel - does funclatency time one function in the kernel here (no -p):
# kprobes, synthetic events and hist triggers with .buckets; no graph then
fl_kernel() {
	[ -e "$T/kprobe_events" ] && [ -e "$T/synthetic_events" ] && grep -q '\.buckets' "$T/README"
}

# ftrace_able TRACER - can this kernel run the function tracer TRACER
# (function, function_graph), with function tracing allowed? Else the
# reason, for skip
ftrace_able() {
	if ! grep -qw "$1" "$T/available_tracers"; then
		echo "kernel has no $1 tracer (refusal tested in t_refusal)"
		return 1
	fi
	if ! head -1 "$T/set_ftrace_filter" > /dev/null 2>&1; then
		echo "kernel refuses function tracing (refusal tested in t_refusal)"
		return 1
	fi
}

# kcount_able - can this kernel count functions in the kernel (kprobe hits
# or the function profiler, and a readable function list)? Else the reason
kcount_able() {
	if ! kernel_has kprobe_events && ! kernel_has function_profile_enabled; then
		echo "kernel has no kprobes and no function profiler (refusal tested in t_refusal)"
		return 1
	fi
	if ! head -1 "$T/available_filter_functions" > /dev/null 2>&1; then
		echo "kernel refuses available_filter_functions (refusal tested in t_refusal)"
		return 1
	fi
}

# banner_wait PID - wait for a tool's "Tracing" line (on stderr with -j) in
# $TMP/out or $TMP/err while PID runs
banner_wait() {
	n=0
	while [ $n -lt 300 ]; do
		grep -q '^Tracing' "$TMP/out" "$TMP/err" 2>/dev/null && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# cg_root - the cgroup2 mount point, or (status 1) why there is none. In a
# guest with nothing mounted on /sys/fs/cgroup, the hierarchy is mounted
# there first (the guests' init mounts no cgroup filesystem)
cg_root() {
	m=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	if [ -z "$m" ] && [ -d /sys/fs/cgroup ] && [ -z "$(ls -A /sys/fs/cgroup 2>/dev/null)" ]; then
		mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null && m=/sys/fs/cgroup
	fi
	[ -n "$m" ] || { echo "no cgroup v2 hierarchy mounted"; return 1; }
	echo "$m"
}

# stopped PID... - wait until each PID is stopped (state T); 1 if one is not
# within 10 s (times SLOW)
stopped() {
	for p in "$@"; do
		n=0
		until [ "$(sed 's/.*) \(.\).*/\1/' "/proc/$p/stat" 2>/dev/null)" = T ]; do
			[ $n -lt $((100 * SLOW)) ] || return 1
			sleep 0.1
			n=$((n + 1))
		done
	done
}

# cg_scene_start - the --cgroup tests' scene, stopped before it plays: in a
# cgroup the test makes under the cgroup2 mount (CG_DIR; CG_REL, its path
# from the mount), a member from the start (its shell in CG_DIR), a leaver
# (in CG_DIR/sub, where sub is CG_SUB, named as a container's cgroup is:
# docker-ID.scope), and outside a joiner and a busy process. Each runs
# ftt_open, as $TMP/cgbin/ROLE (a link) with --comm=ROLE, on a file: one
# exec and one open a role: cg_a and its child cg_child, cg_leaver_in then
# (moved out, to CG_DIR_out beside CG_DIR) cg_leaver_out, cg_joiner_out then
# (moved into CG_DIR/sub)
# cg_joiner_in, and cg_outside over and over. CG_PROG, when set, is the
# program instead, and CG_ARGS its arguments (words with no blank in them:
# ftt_kill kill:S:0, a signal each); or CG_ARGS_FN, a function that prints
# a role's arguments given its name. Status 2 with a skip if there is no
# cgroup2 mount
cg_scene_start() {
	CG_ROOT=$(cg_root) || { skip "$CG_ROOT"; return 2; }
	CG_REL=ftt_test_$$
	CG_DIR=$CG_ROOT/$CG_REL
	CG_ID=4f2a1b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8
	CG_SUB=docker-$CG_ID.scope
	mkdir "$CG_DIR" "$CG_DIR/$CG_SUB" "${CG_DIR}_out" ||
		{ fail "cannot make cgroups in $CG_ROOT"; return 1; }
	[ -n "${CG_ARGS:-}${CG_ARGS_FN:-}" ] || echo x > "$TMP/cg_file"
	b=$TMP/cgbin
	mkdir -p "$b"
	for r in cg_a cg_child cg_leaver_in cg_leaver_out cg_joiner_out cg_joiner_in cg_outside; do
		ln -sf "${CG_PROG:-$WORKLOADS/ftt_open}" "$b/$r"
		if [ -n "${CG_ARGS_FN:-}" ]; then
			eval "a_$r=\$($CG_ARGS_FN $r)"
		else
			eval "a_$r=\${CG_ARGS:-\$TMP/cg_file}"
		fi
	done
	# shellcheck disable=SC2016,SC2154
	sh -c 'echo $$ > "$1/cgroup.procs" && kill -STOP $$ && "$2/cg_a" --comm=cg_a $3 &&
		("$2/cg_child" --comm=cg_child $4)' sh "$CG_DIR" "$b" "$a_cg_a" "$a_cg_child" \
		> /dev/null &
	CG_A=$!
	# shellcheck disable=SC2016,SC2154
	sh -c 'echo $$ > "$1/cgroup.procs" && kill -STOP $$ &&
		"$2/cg_leaver_in" --comm=cg_leaver_in $3 && kill -STOP $$ &&
		"$2/cg_leaver_out" --comm=cg_leaver_out $4' sh "$CG_DIR/$CG_SUB" "$b" "$a_cg_leaver_in" \
		"$a_cg_leaver_out" > /dev/null &
	CG_L=$!
	# shellcheck disable=SC2016,SC2154
	sh -c 'kill -STOP $$ && "$1/cg_joiner_out" --comm=cg_joiner_out $2 && kill -STOP $$ &&
		"$1/cg_joiner_in" --comm=cg_joiner_in $3' sh "$b" "$a_cg_joiner_out" \
		"$a_cg_joiner_in" > /dev/null &
	CG_J=$!
	# shellcheck disable=SC2016,SC2154
	sh -c 'while :; do "$1/cg_outside" --comm=cg_outside $2; done' sh "$b" "$a_cg_outside" \
		> /dev/null 2>&1 &
	CG_B=$!
	stopped $CG_A $CG_L $CG_J && return 0
	fail "the scene's processes did not stop"
	cg_scene_end
	return 1
}

# cg_scene_play - the member, the leaver and the joiner run their first
# parts; the leaver moves out, the joiner in (below); both run the rest
cg_scene_play() {
	kill -CONT $CG_A $CG_L $CG_J
	wait $CG_A
	stopped $CG_L $CG_J || fail "the leaver or the joiner did not stop again"
	echo $CG_L > "${CG_DIR}_out/cgroup.procs" && echo $CG_J > "$CG_DIR/$CG_SUB/cgroup.procs" ||
		fail "cannot move the leaver out or the joiner in"
	kill -CONT $CG_L $CG_J
	wait $CG_L $CG_J
}

# cg_io_args ROLE - iowrite's arguments for a role of cg_scene: one 4 KiB
# O_DIRECT write on DEV1 (blk_setup) at a block of its own, from sector
# 12288 on, in the middle of the device where no probe reads (roles that run
# at once at one sector would leave whose I/O was whose unknown)
cg_io_args() {
	n=0
	for r in cg_a cg_child cg_leaver_in cg_leaver_out cg_joiner_out cg_joiner_in cg_outside; do
		[ "$r" = "$1" ] && break
		n=$((n + 1))
	done
	echo "$DEV1 $((12288 + 8 * n)) 4096 1"
}

# cg_shown ROLE - the CGROUP column --show-cgroup gives a role of cg_scene:
# the member's cgroup's path from the root, the container ID (12 digits) of
# the one below it, the cgroup beside it (CG_DIR_out) for the leaver once
# out, this shell's cgroup for the joiner before it joins and for the outsider
cg_shown() {
	case $1 in
	cg_a|cg_child)			echo "/$CG_REL" ;;
	cg_leaver_in|cg_joiner_in)	echo "$CG_ID" | cut -c1-12 ;;
	cg_leaver_out)			echo "/${CG_REL}_out" ;;
	*)				cg_column "$(cg_self)" ;;
	esac
}

# cg_shown_check PAIRS [CUT] - the "ROLE CGROUP" lines PAIRS, from a tool's
# rows (ROLE as it shows the name: cut at CUT bytes, if given), are exactly
# cg_shown's for every role, once each; the outsider's ? is left out (a run
# of it that began as tracing did has no event to tell where it was)
cg_shown_check() {
	printf '%s\n' "$1" | awk '$1 ~ /^cg_/ && !($1 == "cg_outside" && $2 == "?")' |
		sort -u > "$TMP/shown"
	for r in cg_a cg_child cg_leaver_in cg_leaver_out cg_joiner_out cg_joiner_in cg_outside; do
		echo "$(echo $r | cut -c1-"${2:-64}") $(cg_shown $r)"
	done | sort > "$TMP/want"
	cmp -s "$TMP/want" "$TMP/shown" ||
		fail "--show-cgroup: $(diff "$TMP/want" "$TMP/shown" | grep '^[<>]' | tr '\n' '|')"
}

# cg_self - this shell's cgroup v2 path
cg_self() { sed -n 's/^0:://p' /proc/self/cgroup; }

# cg_column PATH - the CGROUP column for PATH: the ID (12 digits) of the
# last container named in it, else PATH
cg_column() {
	echo "$1" | sed -E 's#^.*/(docker-|cri-containerd-|crio-|libpod-)?([0-9a-f]{12})[0-9a-f]{52}(\.scope)?(/.*)?$#\2#'
}

# cg_scene_end - the scene's processes gone, its cgroups removed
cg_scene_end() {
	kill -KILL $CG_A $CG_L $CG_J $CG_B 2>/dev/null
	wait $CG_A $CG_L $CG_J $CG_B 2>/dev/null
	rmdir "$CG_DIR/$CG_SUB" "$CG_DIR" "${CG_DIR}_out" || fail "cannot remove the test's cgroups"
}

# cg_scene_trace START BANNER WAIT TOOL ARGS... - the scene (cg_scene_start
# first) played under TOOL ARGS: START starts the tool and waits for its
# banner (start_tool, or a test file's own), whose first line must match
# BANNER (grep -x); once WAIT (a grep pattern) is in its output the tool is
# stopped. Status 1 if it did not start or stop as it should
cg_scene_trace() {
	cg_start=$1 cg_banner=$2 cg_wait=$3
	shift 3
	if ! $cg_start "$@"; then
		cg_scene_end
		fail "did not start: $(head -c 300 "$TMP/err")"
		return 1
	fi
	head -n 1 "$TMP/out" | grep -qx -- "$cg_banner" || fail "banner: $(head -n 1 "$TMP/out")"
	cg_scene_play
	wait_for_line "$TMP/out" "$cg_wait" 50
	cg_scene_end
	stop_tool
}

# cg_task_comms - the task names of the kernel-text rows ("NAME-PID [CPU] ...") in TMP/out
cg_task_comms() {
	sed -n 's/^ *\([^ ].*\)-[0-9]\{1,\} *\[[0-9]\{3\}\].*/\1/p' "$TMP/out"
}

# cg_scene_check ROLES - the roles the tool showed, one a line: exactly
# cg_a, cg_child, cg_joiner_in and cg_leaver_in, once each; and stderr
# (TMP/err) says no event was left out as unknown
cg_scene_check() {
	got=$(printf '%s\n' "$1" | grep . | sort | tr '\n' ' ')
	[ "$got" = "cg_a cg_child cg_joiner_in cg_leaver_in " ] ||
		fail "--cgroup: shown $(printf '%s\n' "$1" | grep . | sort | uniq -c |
			awk '{ printf "%s%s x%d", (NR > 1 ? ", " : ""), $2, $1 }' | head -c 300), wanted cg_a, cg_child, cg_joiner_in, cg_leaver_in once each"
	! grep -q 'not shown' "$TMP/err" || fail "--cgroup: events left out as unknown: $(cat "$TMP/err")"
}

# fcalls_stopped ARGS... - fcalls ARGS, stopped before it starts (PID in FC):
# the test lets it go with kill -CONT once the tool is tracing
fcalls_stopped() {
	sh -c 'kill -STOP $$; exec "$0" "$@"' "$WORKLOADS/fcalls" "$@" &
	FC=$!
	n=0
	until [ "$(sed 's/.*) \(.\).*/\1/' "/proc/$FC/stat" 2>/dev/null)" = T ]; do
		[ $n -lt 100 ] || { kill -KILL $FC; fail "the workload did not stop"; return 1; }
		sleep 0.1
		n=$((n + 1))
	done
}

# legend_same - the flags legend of a tool's -H in $TMP/out is, byte for
# byte, the one the kernel's own trace file of an empty instance gives
legend_same() {
	I=$T/instances/ftt_test_head_$$
	mkdir "$I" || { fail "cannot create $I"; return 1; }
	sed -n '/_-----=> irqs-off/,/^#  *| |/p' "$I/trace" > "$TMP/kernel.legend"
	rmdir "$I"
	sed -n '/_-----=> irqs-off/,/^#  *| |/p' "$TMP/out" > "$TMP/ours.legend"
	[ -s "$TMP/kernel.legend" ] || { fail "no legend in the kernel's trace file"; return 1; }
	cmp -s "$TMP/kernel.legend" "$TMP/ours.legend" ||
		fail "-H legend differs from the kernel's: $(diff "$TMP/kernel.legend" "$TMP/ours.legend" | head -6)"
}

# traced_run BESIDE TOOL ARGS... - TOOL ARGS (with -d: it must end by itself,
# status 0) while the stopped fcalls (fcalls_stopped, PID in FC) runs: FC
# goes on once TOOL's banner is out, and with BESIDE (fcalls's arguments, or
# "") another fcalls (PID in DC) does that beside it; stdout in $TMP/out,
# stderr in $TMP/err
traced_run() {
	beside=$1
	shift
	rm -f "$TMP/out" "$TMP/err"
	"$@" > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	banner_wait $pid || { kill $pid; kill -KILL $FC; fail "did not start: $(cat "$TMP/err")"; return 1; }
	DC=
	# shellcheck disable=SC2086
	[ -n "$beside" ] && { "$WORKLOADS/fcalls" $beside & DC=$!; }
	kill -CONT $FC
	wait $FC $DC
	wait_gone $pid 300 || { kill -KILL $pid; fail "$1 did not end by itself (-d)"; return 1; }
	wait $pid || { fail "exit status $?: $(cat "$TMP/err")"; return 1; }
}

# stuck_why PID - where a process that did not end is: its state, the kernel
# function it waits in and the top of its kernel stack (for a FAIL line)
stuck_why() {
	[ -d "/proc/$1" ] || { echo "gone"; return; }
	echo "state $(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)," \
		"wchan $(cat "/proc/$1/wchan" 2>/dev/null)," \
		"stack: $(head -n 6 "/proc/$1/stack" 2>/dev/null | awk '{ print $2 }' | tr '\n' ' ')"
}

# proc_start PID - when PID started (field 22 of /proc/PID/stat), the START
# in the names of a run's instance (ftt-TOOL-PID-START) and probe group
proc_start() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }

# run_inst TOOL PID - the path of run PID's instance, ftt-TOOL-PID-START (the
# run may be gone); nothing and false if there is none
run_inst() {
	for d in "$T/instances/ftt-$1-$2-"*; do
		case ${d#"$T/instances/ftt-$1-$2-"} in '' | *[!0-9]*) continue ;; esac
		[ -d "$d" ] && { echo "$d"; return 0; }
	done
	return 1
}

# wait_gone - wait up to $2 tenths of a second for PID $1 to exit
wait_gone() {
	n=0
	while [ $n -lt $((${2:-50} * SLOW)) ]; do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# start_tool - run a tool in the background, output in $TMP/out and $TMP/err;
# waits until it prints its "Tracing" banner (or exits). Sets TOOL_PID.
start_tool() {
	# a banner left from an earlier start must not be taken for this one's:
	# the shell truncates the files only once the child runs
	rm -f "$TMP/out" "$TMP/err"
	"$@" > "$TMP/out" 2> "$TMP/err" &
	TOOL_PID=$!
	n=0
	while [ $n -lt $((200 * SLOW)) ]; do
		grep -q 'Tracing\|Counting' "$TMP/out" "$TMP/err" 2>/dev/null && return 0
		kill -0 $TOOL_PID 2>/dev/null || return 1
		sleep 0.05
		n=$((n + 1))
	done
	return 1
}

# stop_tool - SIGINT the background tool and wait for it; sets TOOL_RC. A tool
# stopped by SIGINT exits 0: any other status is a failure, said with stderr
stop_tool() {
	stop_tool_rc || return 1
	[ "$TOOL_RC" = 0 ] || { fail "exit status $TOOL_RC after SIGINT: $(head -c 300 "$TMP/err" 2>/dev/null)"; return 1; }
}

# stop_tool_rc - stop_tool for a tool that may have ended with an error already
# (the caller reads TOOL_RC)
stop_tool_rc() {
	kill -INT $TOOL_PID 2>/dev/null
	if ! wait_gone $TOOL_PID 100; then
		kill -KILL $TOOL_PID 2>/dev/null
		wait $TOOL_PID 2>/dev/null
		TOOL_RC=137
		fail "tool did not end within 10 s of SIGINT"
		return 1
	fi
	wait $TOOL_PID
	TOOL_RC=$?
}

# expect_error - the command must exit with status $1, print exactly one
# line on stderr matching ERE $2, and change nothing in tracefs
expect_error() {
	want=$1 re=$2
	shift 2
	# a tool that should refuse but traces instead is stopped (SIGTERM: it
	# ends cleanly) after a minute, not waited for for ever
	timeout -k 10 $((60 * SLOW)) "$@" > "$TMP/eout" 2> "$TMP/eerr"
	rc=$?
	[ "$rc" = "$want" ] || { fail "'$*': exit $rc, wanted $want$([ "$rc" = 124 ] && echo ' (it did not end in a minute)'); stderr: $(head -c 300 "$TMP/eerr")"; return 1; }
	lines=$(wc -l < "$TMP/eerr")
	[ "$lines" -eq 1 ] || { fail "'$*': $lines lines on stderr, wanted 1: $(head -c 300 "$TMP/eerr")"; return 1; }
	grep -Eq -- "$re" "$TMP/eerr" || { fail "'$*': stderr '$(cat "$TMP/eerr")' does not match /$re/"; return 1; }
}

# blk_setup - two small private block devices for the block I/O tests: null_blk
# where the module loads (qemu guests), else loop devices on files in $TMP.
# Sets DEV1 DEV2 (paths), NM1 NM2 (names) and MM1 MM2 ("major,minor"); returns
# 1 if impossible. (blk_teardown empties DEV1 and DEV2, not the others.)
blk_setup() {
	LOOPS= DEV1= DEV2=
	# loaded with one device (exits.sh's rel_disk, before the helpers
	# agreed on two): load it again with two
	[ ! -b /dev/nullb1 ] && [ -d /sys/module/null_blk ] && rmmod null_blk 2>/dev/null
	if [ -b /dev/nullb1 ] || modprobe null_blk nr_devices=2 2>/dev/null; then
		# the device nodes appear shortly after the module loads
		n=0
		while [ $n -lt 100 ] && ! { [ -b /dev/nullb0 ] && [ -b /dev/nullb1 ]; }; do
			sleep 0.1
			n=$((n + 1))
		done
		if [ -b /dev/nullb0 ] && [ -b /dev/nullb1 ]; then
			DEV1=/dev/nullb0 DEV2=/dev/nullb1
		fi
	fi
	if [ -z "${DEV1:-}" ]; then
		modprobe loop 2>/dev/null	# a module in Debian's kernels
		for i in 1 2; do
			dd if=/dev/zero of="$TMP/blk$i.img" bs=1024 count=0 seek=16384 2>/dev/null || return 1
			l=$(losetup -f) && losetup "$l" "$TMP/blk$i.img" || return 1
			LOOPS="$LOOPS $l"
			eval DEV$i=$l
		done
	fi
	NM1=${DEV1##*/} NM2=${DEV2##*/}
	MM1=$(tr : , < "/sys/class/block/${DEV1##*/}/dev")
	MM2=$(tr : , < "/sys/class/block/${DEV2##*/}/dev")
	# a new device is read by the kernel's partition scan just after it
	# appears: wait (up to 5 s) until its I/O counters stop moving, so that
	# I/O is not counted as the test's own
	n=0 prev=
	while [ $n -lt 50 ]; do
		cur=$(cat "/sys/class/block/${DEV1##*/}/stat" "/sys/class/block/${DEV2##*/}/stat" 2>/dev/null)
		[ -n "$prev" ] && [ "$cur" = "$prev" ] && break
		prev=$cur
		sleep 0.2
		n=$((n + 1))
	done
}

# wc_setup - a loop device on a file in $TMP: it has a write cache, so the
# kernel sends it flushes (null_blk, as blk_setup loads it, has none). Sets
# WDEV, WNM and WMM; returns 1 with WHY if impossible
wc_setup() {
	WDEV=
	dd if=/dev/zero of="$TMP/wc.img" bs=1024 count=0 seek=8192 2>/dev/null || { WHY="no image file"; return 1; }
	modprobe loop 2>/dev/null	# a module in Debian's kernels (the guests load it here)
	WDEV=$(losetup -f) && losetup "$WDEV" "$TMP/wc.img" 2>/dev/null || { WDEV=; WHY="no loop device"; return 1; }
	WNM=${WDEV##*/}
	WMM=$(tr : , < "/sys/class/block/$WNM/dev")
	grep -q '^write back' "/sys/class/block/$WNM/queue/write_cache" 2>/dev/null ||
		{ wc_teardown; WHY="$WNM has no write cache: the kernel sends it no flush"; return 1; }
	sleep 1		# the partition scan's reads
}

# wc_teardown - detach wc_setup's loop device
wc_teardown() {
	[ -n "$WDEV" ] && losetup -d "$WDEV"
	WDEV=
}

# blk_teardown - detach the loop devices blk_setup attached
blk_teardown() {
	for l in $LOOPS; do losetup -d "$l"; done
	LOOPS=
	DEV1= DEV2=
}

# fs_disk DIR - the block device DIR's filesystem lies on (this host's own
# disk): FSSYS its sysfs name (what -d takes), FSNAME its /dev name, FSMM
# the major,minor of the disk the block events report (the device itself, or
# a partition's disk) and FSDISK that disk's /dev name; FSPART is 1 for a
# partition. Returns 1 with the reason in WHY when DIR is on no block device
# (tmpfs, overlay, an initramfs)
fs_disk() {
	d=$(stat -c %d "$1") || { WHY="cannot stat $1"; return 1; }
	s=/sys/dev/block/$(( (d >> 8) & 0xfff )):$(( (d & 0xff) | ((d >> 12) & 0xfff00) ))
	[ -e "$s/dev" ] || { WHY="$1 is on no block device (${s##*/})"; return 1; }
	FSSYS=$(basename "$(readlink "$s")")
	FSNAME=$(sed -n 's/^DEVNAME=//p' "$s/uevent")
	[ -n "$FSSYS" ] && [ -b "/dev/$FSNAME" ] || { WHY="no /dev node for ${s##*/}"; return 1; }
	FSPART=0
	[ -e "$s/partition" ] && FSPART=1 s=$s/..
	FSMM=$(tr : , < "$s/dev")
	FSDISK=$(sed -n 's/^DEVNAME=//p' "$s/uevent")
}

# part_setup - a loop device on a file in $TMP with an MBR partition table
# (written byte by byte: no partitioning tool needed) holding one partition,
# sectors 2048-4095; sets PLOOP, PDEV (the partition's node), PNAME, PMM (the
# partition's major,minor), DMM (the disk's); returns 1 with WHY if impossible
part_setup() {
	PLOOP=
	dd if=/dev/zero of="$TMP/part.img" bs=1024 count=0 seek=4096 2>/dev/null || { WHY="no image"; return 1; }
	# entry 1 at byte 446: type 0x83, first LBA 2048, 2048 sectors; 55 AA at 510
	printf '\000\000\000\000\203\000\000\000\000\010\000\000\000\010\000\000' |
		dd of="$TMP/part.img" bs=1 seek=446 conv=notrunc 2>/dev/null &&
	printf '\125\252' | dd of="$TMP/part.img" bs=1 seek=510 conv=notrunc 2>/dev/null ||
		{ WHY="cannot write the partition table"; return 1; }
	modprobe loop 2>/dev/null	# a module in Debian's kernels (the guests load it here)
	PLOOP=$(losetup -f) && losetup -P "$PLOOP" "$TMP/part.img" 2>/dev/null ||
		{ PLOOP=; WHY="losetup -P failed"; return 1; }
	PNAME=${PLOOP##*/}p1 PDEV=${PLOOP}p1
	n=0
	while [ $n -lt 50 ] && ! [ -b "$PDEV" ]; do sleep 0.1; n=$((n + 1)); done
	[ -b "$PDEV" ] && [ -e "/sys/class/block/$PNAME/partition" ] ||
		{ part_teardown; WHY="the partition $PNAME did not appear (no MBR partitions in this kernel?)"; return 1; }
	PMM=$(tr : , < "/sys/class/block/$PNAME/dev")
	DMM=$(tr : , < "/sys/class/block/${PLOOP##*/}/dev")
	sleep 1		# the partition scan's reads
}

# part_teardown - detach part_setup's loop device
part_teardown() {
	[ -n "$PLOOP" ] && losetup -d "$PLOOP"
	PLOOP=
}

# HOSTILE - a process name or argument anyone can choose: an escape sequence
# that moves the cursor, a newline (a forged row), a C1 CSI (UTF-8 C2 9B) and a
# byte that is not UTF-8 (10 bytes: whole in a 15-byte process name);
# HOSTILE_VIS - how the tools show it (common/output.h)
HOSTILE=$(printf 'a\033[1A\nb\302\233c\377')
HOSTILE_VIS='a\x1b[1A\x0ab\xc2\x9bc\xff'

# vis_clean FILE - FILE holds nothing a terminal could act on: printable
# ASCII and newlines only (the tests' own text is ASCII)
vis_clean() { [ "$(LC_ALL=C tr -d '\n\040-\176' < "$1" | wc -c)" -eq 0 ]; }

# thr_start N MORE - tests/bin/ftt_threads (its dynamic build: it opens through
# the C library, which every capture rung sees) with N threads, to start MORE
# threads and a child (with a thread of its own) once let go, and a decoy run
# of the same program (3 threads, 2 more) doing the same actions; both wait
# for $TMP/thr_go (thr_go). Sets THR_PID, DEC_PID and THR_N (the tasks that
# will act: N, the main thread, MORE, the child and its thread).
thr_start() {
	rm -rf "$TMP/thr" "$TMP/dec" "$TMP/thr_go"
	mkdir -p "$TMP/thr" "$TMP/dec" || return 1
	THR_N=$(($1 + $2 + 3))
	"$WORKLOADS/ftt_threads.dyn" "$TMP/thr" "$1" "$2" "$TMP/thr_go" > "$TMP/thr.out" 2> "$TMP/thr.err" &
	THR_PID=$!
	"$WORKLOADS/ftt_threads.dyn" "$TMP/dec" 3 2 "$TMP/thr_go" > "$TMP/dec.out" 2> "$TMP/dec.err" &
	DEC_PID=$!
	wait_for_line "$TMP/thr.err" "^ready $THR_PID\$" 600 &&
		wait_for_line "$TMP/dec.err" "^ready $DEC_PID\$" 600 && return 0
	kill -KILL $THR_PID $DEC_PID 2>/dev/null
	wait $THR_PID $DEC_PID 2>/dev/null
	fail "ftt_threads not ready: $(cat "$TMP/thr.err" "$TMP/dec.err")"
}

# thr_go - let both runs act and wait for them; each task must have acted:
# $TMP/thr.tids and $TMP/dec.tids list their thread IDs, sorted
thr_go() {
	touch "$TMP/thr_go"
	wait $THR_PID; r1=$?
	wait $DEC_PID; r2=$?
	[ $r1 = 0 ] && [ $r2 = 0 ] ||
		{ fail "ftt_threads failed ($r1, $r2): $(cat "$TMP/thr.err" "$TMP/dec.err")"; return 1; }
	sed 's/^t//' "$TMP/thr.out" | sort -n > "$TMP/thr.tids"
	sed 's/^t//' "$TMP/dec.out" | sort -n > "$TMP/dec.tids"
	[ "$(sort -u "$TMP/thr.tids" | wc -l)" -eq $THR_N ] ||
		{ fail "ftt_threads: $(wc -l < "$TMP/thr.tids") tasks acted, wanted $THR_N"; return 1; }
}

# thr_wait_rows FILE CMD - wait (up to a minute) until CMD FILE prints $THR_N
# lines, CMD turning the tool's output into one line per traced action; gives
# up sooner when no row has come for 20 seconds (x SLOW): one is not coming
thr_wait_rows() {
	n=0 still=0 last=-1
	while [ $n -lt $((600 * SLOW)) ] && [ $still -lt $((200 * SLOW)) ]; do
		rows=$($2 "$1" | wc -l)
		[ "$rows" -ge $THR_N ] && return 0
		if [ "$rows" -eq "$last" ]; then still=$((still + 1)); else still=0; fi
		last=$rows
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# thr_trace ROWS - with the tool started on the threads: release them, wait
# for their rows, stop the tool (its exit status must be 0) and leave the
# rows (ROWS $TMP/out) in $TMP/got
thr_trace() {
	thr_go || { stop_tool; return 1; }
	thr_wait_rows "$TMP/out" "$1"
	stop_tool || return 1
	[ "$TOOL_RC" = 0 ] || fail "exit status $TOOL_RC after SIGINT"
	"$1" "$TMP/out" > "$TMP/got"
}

# thr_diff GOT WANT - 0 if the lines of GOT, sorted, are exactly those of
# WANT; else sets miss, extra and dup (counts; $GOT.miss, $GOT.extra list
# them) and dec (how many decoy tasks GOT names)
thr_diff() {
	sort "$1" > "$1.s"
	sort "$2" > "$2.s"
	cmp -s "$1.s" "$2.s" && return 0
	# busybox has no comm(1)
	grep -vxF -f "$1.s" "$2.s" > "$1.miss"
	grep -vxF -f "$2.s" "$1.s" > "$1.extra"
	miss=$(wc -l < "$1.miss")
	extra=$(wc -l < "$1.extra")
	dup=$(uniq -d "$1.s" | wc -l)
	dec=0
	for d in $(cat "$TMP/dec.tids"); do
		grep -Eq "^$d( |\$)" "$1.s" && dec=$((dec + 1))
	done
	return 1
}

# thr_compare GOT WANT WHAT - the lines of GOT, sorted, are exactly those of
# WANT (one per action), and no decoy task is among them
thr_compare() {
	thr_diff "$1" "$2" && return 0
	fail "$3: $miss of $THR_N actions missing (e.g. $(head -3 "$1.miss" | tr '\n' ' ')), $extra extra (e.g. $(head -3 "$1.extra" | tr '\n' ' ')), $dup seen twice (e.g. $(uniq -d "$1.s" | head -3 | tr '\n' ' ')), $dec from the decoy"
}

# json_check FILE - FILE (a tool's stdout with -j) is JSON Lines: at least one
# line, each line one JSON object that `jq` parses, no raw control byte
# anywhere (a string holds its escape); fails naming the first bad line
json_check() {
	[ -s "$1" ] || { fail "-j: no output"; return 1; }
	bad=$(jq -R -r 'try (fromjson | if type == "object" then empty else error end)
		catch "line \(input_line_number): \(.[0:120])"' "$1" 2>&1 | head -n 1)
	[ -z "$bad" ] || { fail "-j: not a JSON object: $bad"; return 1; }
	[ "$(jq -c . "$1" | wc -l)" -eq "$(wc -l < "$1")" ] ||
		{ fail "-j: an object spans several lines"; return 1; }
	[ "$(LC_ALL=C tr -d '\n\040-\377' < "$1" | wc -c)" -eq 0 ] ||
		{ fail "-j: a raw control byte in the output"; return 1; }
}

# json_head_run SECS CMD... - CMD | head -n 1, as a user pipes a tool into
# head: CMD (a tool with -j) gets SIGINT after SECS x SLOW if it has not
# ended; its stdout's first line in $TMP/out, stderr in $TMP/err, exit status
# in $TMP/rc
json_head_run() {
	secs=$1
	shift
	{ timeout -s INT $((secs * SLOW)) "$@" 2> "$TMP/err"; echo $? > "$TMP/rc"; } |
		head -n 1 > "$TMP/out"
}

# json_head_ok EXPR [JQ-ARG...] - after json_head_run: the tool ended (0) once
# head had its line, the line is one JSON object (json_check), and jq -e
# EXPR holds for it (JQ-ARG: e.g. --arg NAME VALUE)
json_head_ok() {
	expr=$1
	shift
	[ "$(cat "$TMP/rc")" = 0 ] ||
		fail "exit status $(cat "$TMP/rc") with | head -n 1 (124: did not end): $(head -c 300 "$TMP/err")"
	[ "$(wc -l < "$TMP/out")" = 1 ] || fail "$(wc -l < "$TMP/out") lines through head -n 1"
	json_check "$TMP/out"
	jq -e "$@" "$expr" "$TMP/out" > /dev/null ||
		fail "-j: the line is not the object expected ($expr): $(cat "$TMP/out")"
}

# json_time_ok ISO T0 T1 - ISO is "YYYY-MM-DDTHH:MM:SS.NNNNNNNNNZ" and falls
# within the seconds T0 to T1 (date +%s before and after the event)
json_time_ok() {
	echo "$1" | grep -Eqx '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9}Z' ||
		{ fail "-j: time '$1' is not ISO 8601 UTC with nanoseconds"; return 1; }
	s=$(jq -n -r --arg t "$1" '$t | sub("\\.[0-9]+Z$"; "Z") | fromdateiso8601')
	[ "$s" -ge "$2" ] && [ "$s" -le "$3" ] ||
		{ fail "-j: time '$1' ($s) not within the event's seconds $2 to $3"; return 1; }
}

# exec_run WORKLOAD 'ARGS' TOOL [TOOL ARGS] - run TOOL ... --exec CMD, where
# CMD runs WORKLOAD ARGS as xf$$ at once, then leaves behind a process that
# runs it as xl$$ 0.3 s after the shell ended; all the while a process
# outside CMD runs it as xo$$ again and again. The names are links to
# WORKLOAD (a task's name is its program's file name). The tool must end by
# itself (the command and all it started ended), status 0, within 60 s;
# output in $TMP/out, stderr in $TMP/err. With EXEC_PIDS=1 each of them
# writes its PID first (xf.pid, xl.pid, xo.pids in $TMP), for a tool whose
# task names are the kernel's text, which can still give the name from
# before an exec (exec_rows_pid).
exec_run() {
	xw=$1 xa=$2
	shift 2
	for n in xf xl xo; do
		ln -sf "$xw" "$TMP/$n$$" || { fail "cannot link $TMP/$n$$"; return 1; }
	done
	rm -f "$TMP/xe_stop" "$TMP/xf.pid" "$TMP/xl.pid" "$TMP/xo.pids"
	xs= xp=
	[ -n "${EXEC_PIDS:-}" ] && xs="sh -c 'echo \$\$ > $TMP/xf.pid; exec \"\$0\" \"\$@\"' " \
		xp="sh -c 'echo \$\$ > $TMP/xl.pid; exec \"\$0\" \"\$@\"' "
	# (EXEC_OUT_ARGS: other arguments for the process outside the command,
	# where doing the same would make its events indistinguishable)
	xoa=${EXEC_OUT_ARGS:-$xa}
	# shellcheck disable=SC2086
	( while [ ! -e "$TMP/xe_stop" ]; do
		if [ -n "${EXEC_PIDS:-}" ]; then
			sh -c 'echo $$ >> "$0"; exec "$@"' "$TMP/xo.pids" "$TMP/xo$$" $xoa > /dev/null 2>&1
		else
			"$TMP/xo$$" $xoa > /dev/null 2>&1
		fi
		sleep 0.05; done ) &
	xo=$!
	timeout $((60 * SLOW)) "$@" --exec "$xs$TMP/xf$$ $xa > /dev/null; (sleep 0.3; exec $xp$TMP/xl$$ $xa > /dev/null) &" \
		> "$TMP/out" 2> "$TMP/err"
	xrc=$?
	touch "$TMP/xe_stop"
	wait $xo
	[ $xrc = 0 ] || { fail "--exec: exit status $xrc (124: it did not end): $(head -c 300 "$TMP/err")"; return 1; }
}

# exec_rows_pid PIDOF COUNT - as exec_rows, the rows told apart by PID (an
# exec_run with EXEC_PIDS=1): PIDOF prints each row's PID from $TMP/out
exec_rows_pid() {
	$1 "$TMP/out" > "$TMP/xe_rows"
	for n in xf xl xo; do
		f=$TMP/$n.pid
		[ $n = xo ] && f=$TMP/xo.pids
		[ -s "$f" ] || { [ $n = xo ] && continue; fail "--exec: $n$$ did not say its PID"; return 1; }
		c=$(grep -cxF -f "$f" "$TMP/xe_rows")
		case $n:$2 in
		xo:*) [ "$c" = 0 ] || { fail "--exec: $c rows of $n$$ (PIDs $(tr '\n' ' ' < "$f")), a process outside the command: $(head -c 600 "$TMP/out")"; return 1; } ;;
		*:+) [ "$c" -ge 1 ] || { fail "--exec: no row of $n$$ (PID $(cat "$f")): $(head -c 600 "$TMP/out")"; return 1; } ;;
		*) [ "$c" = "$2" ] || { fail "--exec: $c rows of $n$$ (PID $(cat "$f")), not $2: $(head -c 600 "$TMP/out")"; return 1; } ;;
		esac
	done
}

# exec_rows PREFIX COUNT - the rows of $TMP/out that begin (after blanks) with
# PREFIX (an ERE: funcgraph's CPU column) followed by xf$$, xl$$ and xo$$ in
# turn, then a character that cannot be part of the name: COUNT each of the
# first two (a number, or "+" for one or more), none of the third
exec_rows() {
	for n in xf xl xo; do
		c=$(grep -Ec "^ *$1$n$$[^0-9]" "$TMP/out")
		case $n:$2 in
		xo:*) [ "$c" = 0 ] || { fail "--exec: $c rows of $n$$, a process outside the command: $(grep "$n$$" "$TMP/out" | head -3)"; return 1; } ;;
		*:+) [ "$c" -ge 1 ] || { fail "--exec: no row of $n$$ ($( [ $n = xf ] && echo "its first program: held too late?" || echo "left behind by the shell: the run ended with the shell?")): $(head -c 600 "$TMP/out")"; return 1; } ;;
		*) [ "$c" = "$2" ] || { fail "--exec: $c rows of $n$$, not $2: $(grep "$n$$" "$TMP/out" | head -3)"; return 1; } ;;
		esac
	done
}

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench/funcs.sh - the kernel-function tools' cost per traced call, in a qemu guest
#
# usage: sh bench/funcs.sh      (or: make bench-funcs; root)
#
# This host refuses the function tracer, so the measure runs in a Debian kernel
# under qemu (tests/vm/run.sh, default 7.3). The load is bench/sysgen: N
# getppid() calls, each one call of the kernel's getppid entry point
# (__x64_sys_getppid, or what this kernel names it), which nothing else in
# the guest calls, so no reader's own work is traced (a read() function
# would trace each tool's reads of its own output, a loop). For each mode,
# rounds interleaved (untraced, floors, ours, perf-tools', then again), the
# medians of: the load's call rate; what each call cost on top of the
# untraced one; the tool's CPU time (with everything it waited for) per
# call; the lines it printed; the time from its exec to its banner;
# funclatency's mean duration of the call (the probes' own work in it). The
# floors are the kernel's own cost: the function tracer, or function_graph,
# on that function alone in an instance with no reader, which no tool can
# beat. TCG is slow and uneven: only the
# ratios inside one guest mean anything.
#
# Settings (environment):
#   BENCH_VM_KERNELS   the guests' kernels (default 7.3)
#   BENCH_FUNCS_N      calls per run (default 100000)
#   BENCH_FUNCS_ROUNDS rounds (default 3)
#   BENCH_FUNCS_MODES  the modes to run (default all; plain and the floors
#                      belong in every run: the figures are relative to them)
#   BENCH_OUT, BENCH_PERF, BINDIR, B, CC as for bench/run.sh

# ---------------------------------------------------------------------------
# in a guest (tests/vm/run.sh runs this file with FUNCS_GUEST=1 set in front):
# our tools, harness, sysgen, bash, mawk and the perf-tools scripts on PATH

if [ "${FUNCS_GUEST:-0}" = 1 ]; then
	T=/sys/kernel/tracing
	W=/tmp/funcs
	mkdir -p $W
	N=${FUNCS_N:-100000} ROUNDS=${FUNCS_ROUNDS:-3}
	F=
	for f in __x64_sys_getppid __do_sys_getppid sys_getppid; do
		grep -qx "$f" $T/available_filter_functions && { F=$f; break; }
	done
	[ -n "$F" ] || { echo "funcs: no getppid entry point among the traceable functions"; exit 1; }
	H=$(command -v harness)
	# hrun ARGS - the harness, never for more than 4 minutes
	hrun() { timeout -k 5 240 "$H" "$@" || echo "status=-1 error=harness_$?"; }
	# what a perf-tools script expects of a Debian host: awk in /usr/bin, the
	# tracing directory under debugfs, /var/tmp for its lock
	PERF=
	if command -v bash > /dev/null && command -v mawk > /dev/null; then
		[ -x /usr/bin/mawk ] || { mkdir -p /usr/bin; ln -s "$(command -v mawk)" /usr/bin/mawk; }
		mkdir -p /sys/kernel/debug /var/tmp
		[ -d /sys/kernel/debug/tracing ] || mount -t debugfs debugfs /sys/kernel/debug
		PERF=1
	fi
	median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }
	# floor_on TRACER / floor_off: TRACER on the function alone, in an instance
	# where the kernel allows it there, else at the top level
	floor_on() {
		fl=$T/instances/funcsfloor
		mkdir $fl 2> /dev/null
		if ! echo $F > $fl/set_ftrace_filter 2> /dev/null || ! echo "$1" > $fl/current_tracer 2> /dev/null; then
			rmdir $fl
			fl=$T
			echo $F > $fl/set_ftrace_filter && echo "$1" > $fl/current_tracer
		fi
		echo "$fl" > $W/floor_where
	}
	floor_off() {
		echo nop > $fl/current_tracer
		: > $fl/set_ftrace_filter
		[ "$fl" = $T ] || rmdir $fl
	}
	# thresh_on / thresh_off: funcslower's floor, function_graph on the
	# function with tracing_thresh at 100 ms, at the top level (the
	# threshold is one for the whole kernel), as perf-tools' funcslower sets it
	thresh_on() {
		echo 100000 > $T/tracing_thresh
		echo $F > $T/set_ftrace_filter
		echo $F > $T/set_graph_function
		echo function_graph > $T/current_tracer
	}
	thresh_off() {
		echo nop > $T/current_tracer
		: > $T/set_ftrace_filter
		: > $T/set_graph_function
		echo 0 > $T/tracing_thresh
	}
	HZ=$(getconf CLK_TCK 2> /dev/null || echo 100)
	# group_ticks PGID - clock ticks of a process group: utime, stime and its reaped children's
	group_ticks() {
		for f in /proc/[0-9]*/stat; do cat "$f" 2> /dev/null; echo; done |
			awk -v g="$1" '{ sub(/^.*\) /, "") } $3 == g { n += $12 + $13 + $14 + $15 } END { print n + 0 }'
	}
	# the modes: name, then the command (empty: untraced or a floor)
	modes="plain ffloor gfloor tfloor functrace funcgraph_m1 funcslower funclatency funclatency_user funccount"
	[ -n "$PERF" ] && modes="plain ffloor gfloor tfloor functrace functrace-perf funcgraph_m1 funcgraph-perf_m1
		funcslower funcslower-perf funclatency funclatency_user funccount"
	# BENCH_FUNCS_MODES on the host: these modes alone
	[ -n "${FUNCS_MODES:-}" ] && modes=$FUNCS_MODES
	cmd_of() {
		case $1 in
		functrace) echo "functrace $F" ;;
		functrace-perf) echo "bash $(command -v functrace-perf) $F" ;;
		funcgraph_m1) echo "funcgraph -m 1 $F" ;;
		# at any depth it hooks every function (set_graph_function)
		funcgraph-perf_m1) echo "bash $(command -v funcgraph-perf) -m 1 $F" ;;
		# 100 ms: no read is that slow, so nothing is printed; what is left is the filter's cost
		funcslower) echo "funcslower $F 100000" ;;
		funcslower-perf) echo "bash $(command -v funcslower-perf) $F 100000" ;;
		funclatency) echo "funclatency $F" ;;
		# the same counted in user space, from function_graph's records
		funclatency_user) echo "env FTT_COUNT=user funclatency $F" ;;
		funccount) echo "funccount $F" ;;
		esac
	}
	: > $W/raw
	r=1
	while [ $r -le "$ROUNDS" ]; do
		for m in $modes; do
			case $m in
			plain) line=$(hrun -G "sysgen getppid $N") ;;
			ffloor|gfloor)
				[ $m = ffloor ] && floor_on function || floor_on function_graph
				line=$(hrun -G "sysgen getppid $N")
				floor_off ;;
			tfloor)
				thresh_on
				line=$(hrun -G "sysgen getppid $N")
				thresh_off ;;
			*-perf*)
				# the scripts alone, as a user runs them, in a process group
				# of their own; they say "Tracing" before they set up, so the
				# load starts once the top level's tracer is theirs (seconds
				# under TCG; every function for funcgraph's
				# set_graph_function), and SIGTERM ends them two seconds
				# after it (bash ignores SIGINT in a background job; the
				# scripts trap TERM too), the group's CPU time read before
				case $m in functrace*) want=function ;; *) want=function_graph ;; esac
				# shellcheck disable=SC2046
				setsid $(cmd_of $m) > $W/p.out 2> $W/p.err &
				p=$!
				n=0
				while [ "$(cat $T/current_tracer)" != $want ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
				sleep 1
				tracer=$(cat $T/current_tracer)
				g=$(sysgen getppid "$N" | tr ' ' ,)
				sleep 2
				ticks=$(group_ticks $p)
				kill -TERM -$p 2> /dev/null
				n=0
				while kill -0 $p 2> /dev/null && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
				kill -KILL -$p 2> /dev/null
				wait $p
				st=$?
				# what it passed on of ftrace's "[LOST N EVENTS]" marks
				lost=$(cat $W/p.out $W/p.err | awk '/LOST.*EVENTS/ { n++; if (match($0, /LOST [0-9]+/)) s += substr($0, RSTART + 5, RLENGTH - 5) }
					END { print s + 0, n + 0 }')
				line="gen=$g tracer=$tracer lines=$(grep -c . $W/p.out) lostmarks=${lost#* } lostsum=${lost% *} cpu_s=$(awk -v t="$ticks" -v h="$HZ" 'BEGIN { printf "%.3f", t / h }') status=$st" ;;
			*)
				# shellcheck disable=SC2046
				line=$(hrun -P banner:1000 -q 2000 -k 60 -o $W/out -e $W/err -G "sysgen getppid $N" -- $(cmd_of $m))
				# and what it said on stderr of the records the kernel
				# dropped; funclatency's mean duration of a call (ns)
				line="$line errlost=$(sed -n 's/.*WARNING: \([0-9]*\) events lost.*/\1/p' $W/err | head -n 1)"
				line="$line avg_ns=$(sed -n 's/^avg = \([0-9]*\) nsecs.*/\1/p' $W/out | tail -n 1)" ;;
			esac
			echo "mode=$m round=$r $line" >> $W/raw
			echo "funcs: round $r, $m: $line" >&2
		done
		r=$((r + 1))
	done
	# val MODE KEY - MODE's KEY values, one a round
	val() { grep "^mode=$1 " $W/raw | tr ' ' '\n' | sed -n "s/^$2=//p"; }
	# gen MODE FIELD - the generator's FIELD (4: calls/s) of MODE's rounds
	gen() { val "$1" gen | awk -F, -v f="$2" '{ print $f }'; }
	plain=$(gen plain 4 | median)
	echo "### $(uname -r) under qemu (TCG): $N getppid() calls ($F), median of $ROUNDS"
	echo
	echo "| mode | calls/s | vs untraced | added per call, us | vs its floor | lines printed | lost reported | start, s | mean call printed, ns |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for m in $modes; do
		case $m in
		plain) name="untraced" ;;
		ffloor) name="floor: function tracer on $F, no reader ($(grep -q instances $W/floor_where 2>/dev/null && echo 'an instance' || echo 'top level'))" ;;
		gfloor) name="floor: function_graph on $F alone, no reader" ;;
		tfloor) name="floor: the same with tracing_thresh 100 ms (top level), no reader" ;;
		*) name="$(cmd_of $m | sed 's|^bash [^ ]*/\([^ /]*\)|\1|')" ;;
		esac
		v=$(gen $m 4 | median)
		vf= lines=
		# the floor of each: the function tracer for functrace and the
		# kprobes of funccount and funclatency (one function, 6.1 on: timed
		# in the kernel; a kprobe is itself an ftrace hook), function_graph
		# for the others
		case $m in
		plain|ffloor|gfloor|tfloor) ;;
		funcslower*) vf=$(awk -v a="$v" -v b="$(gen tfloor 4 | median)" 'BEGIN { printf "%.2f", a / b }') ;;
		functrace*|funccount|funclatency) vf=$(awk -v a="$v" -v b="$(gen ffloor 4 | median)" 'BEGIN { printf "%.2f", a / b }') ;;
		*) vf=$(awk -v a="$v" -v b="$(gen gfloor 4 | median)" 'BEGIN { printf "%.2f", a / b }') ;;
		esac
		lost= start= avg=
		case $m in plain|ffloor|gfloor|tfloor|*-perf*) ;; *)
			# exec to its "Tracing" banner (the harness's banner_s)
			start=$(val $m banner_s | median)
			# funclatency's measure of the call itself
			case $m in funclatency*) avg=$(val $m avg_ns | median) ;; esac ;;
		esac
		case $m in plain|ffloor|gfloor|tfloor) ;; *)
			lines=$(val $m lines | median)
			# how many runs said they lost any, and the median of what they said
			val $m lostsum > $W/l1
			val $m errlost | sed 's/^$/0/' > $W/l2
			paste -d' ' $W/l1 $W/l2 | awk '{ print $1 + $2 }' > $W/lsum
			said=$(awk '$1 > 0' $W/lsum | wc -l)
			if [ "$said" -gt 0 ]; then lost="$(median < $W/lsum) (in $said of $ROUNDS runs)"
			else lost="none said"; fi ;;
		esac
		echo "| $name | $v | $(awk -v a="$v" -v b="$plain" 'BEGIN { printf "%.2f", a / b }') |" \
			"$(awk -v a="$v" -v b="$plain" 'BEGIN { printf "%.2f", 1e6 / a - 1e6 / b }') | $vf | $lines | $lost | $start | $avg |"
	done
	echo
	# ours against perf-tools', the load's rate
	for p in functrace:functrace-perf funcgraph_m1:funcgraph-perf_m1 funcslower:funcslower-perf; do
		a=${p%%:*} b=${p#*:}
		grep -q "^mode=$b " $W/raw || continue
		echo "- $a against $b, the load's rate: $(awk -v x="$(gen $a 4 | median)" -v y="$(gen $b 4 | median)" 'BEGIN { printf "%.2fx", x / y }')"
	done
	[ -n "$PERF" ] || echo "- perf-tools' scripts were not brought in (bash, mawk, the scripts)."
	notr=$(grep '^mode=[a-z]*-perf' $W/raw | grep -v 'tracer=function' | head -n 3)
	[ -n "$notr" ] && { echo; echo "Script runs whose tracer was not on when the load ran (left out of nothing: read their rows with care):"; echo; echo "$notr" | sed 's/^/    /'; }
	bad=$(grep -v 'status=0' $W/raw | grep -v '^mode=\(plain\|ffloor\|gfloor\|tfloor\) ' | head -n 3)
	[ -n "$bad" ] && { echo; echo "Runs that did not end with status 0:"; echo; echo "$bad" | sed 's/^/    /'; }
	echo
	sed 's/^/raw: /' $W/raw
	exit 0
fi

# ---------------------------------------------------------------------------
# on the host: build the load and the harness, boot the guests, write the table

NAME=funcs
. "$(dirname "$0")/host.sh"
$CC -static -O2 -Wall -Wextra -o "$BB/sysgen" bench/sysgen.c 2> /dev/null ||
	$CC -O2 -Wall -Wextra -o "$BB/sysgen" bench/sysgen.c || die "cannot build bench/sysgen.c"
$CC -O2 -Wall -Wextra -o "$BB/harness" bench/harness.c || die "cannot build bench/harness.c"
kernels=${BENCH_VM_KERNELS:-7.3}
STAMP=$(date +%Y%m%d-%H%M%S)
MD=$OUT/funcs-$STAMP.md
RAWOUT=$OUT/funcs-$STAMP.raw
commit="$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
W=$(mktemp -d /var/tmp/ftt-funcs.XXXXXX) || die "mktemp"
bins="$BB/harness $BB/sysgen"
for p in bash mawk "$PERF/functrace-perf" "$PERF/funcgraph-perf" "$PERF/funcslower-perf"; do
	command -v "$p" > /dev/null && bins="$bins $p"
done
echo "funcs: booting $kernels under qemu; N=${BENCH_FUNCS_N:-100000} x ${BENCH_FUNCS_ROUNDS:-3} rounds" >&2
VM_GUEST_CMD="FUNCS_GUEST=1 FUNCS_N=${BENCH_FUNCS_N:-100000} FUNCS_ROUNDS=${BENCH_FUNCS_ROUNDS:-3} FUNCS_MODES='${BENCH_FUNCS_MODES:-}'
$(cat bench/funcs.sh)" VM_HOST_BINS="$bins" VM_KERNELS="$kernels" sh tests/vm/run.sh > "$W/vm" 2>&1
guest_report "The kernel-function tools: cost per traced call" "tools from $BINDIR"
rm -rf "$W"
cat "$MD"
echo
echo "funcs: table written to $MD"

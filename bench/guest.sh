# SPDX-License-Identifier: GPL-2.0-only
# bench/guest.sh - the measures that need kprobes: funccount in a qemu guest
#
# Run by bench/run.sh (BENCH_VM=1) through tests/vm/run.sh's VM_GUEST_CMD, in a
# Debian kernel under TCG, with readgen and sysgen in /usr/local/bin. Prints markdown.
# Under TCG every figure is slow and only the ratios inside one guest mean
# anything: traced against untraced, one glob against another.
#
# 1. Setup and teardown: seconds from exec to funccount's "Tracing" line, and
#    from the end of its duration to its exit, for 'vfs_*' and 'tcp_*'.
# 2. Per-call cost: readgen's read() rate untraced and while funccount counts
#    vfs_read, interleaved rounds, medians.
# 3. Exactness: N getppid() calls from fcalls against funccount's count of
#    the getppid syscall function (nothing else in the guest calls it), and readgen's N
#    reads against the vfs_read count (at least N: the shell reads too).
# 4. opensnoop the way it runs where the kernel has probes (the path read in
#    the kernel at the call): opengen's N opens untraced and under opensnoop,
#    rows of opengen's path seen against N, lost events reported.
# 5. iolatency on null_blk: in the kernel (-K), in user space, perf-tools'.
# 6. syscount -c: getppid()'s rate untraced, with the event on and no reader,
#    counted in the kernel (hist trigger) and in user space; counted against N.

T=/sys/kernel/tracing
RN=${BENCH_READS:-200000}
ON=${BENCH_GUEST_OPENS:-100000}
ROUNDS=${BENCH_ROUNDS:-3}
GN=12345
W=/tmp/gbench
mkdir -p $W

up() { cut -d' ' -f1 /proc/uptime; }
# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
# wait_line FILE RE - wait up to 300 s for a line matching RE (remove FILE before
# starting its writer: the shell opens it only once the child runs, and the last
# run's banner in it would pass for the new one's)
wait_line() {
	n=0
	while [ $n -lt 3000 ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
# count FILE FUNC - the COUNT column of FUNC in funccount's output
count() { awk -v f="$2" '$1 == f { c = $2 } END { print c + 0 }' "$1"; }

echo "### $(uname -r) under qemu (TCG)"
echo
# GUEST_ONLY=syscount (set by bench/run.sh for BENCH_ONLY=8): measure 6 only
if [ "${GUEST_ONLY:-}" != syscount ]; then
if [ -e $T/function_profile_enabled ]; then
	prof="has the function profiler"
else
	prof="no function profiler (CONFIG_FUNCTION_PROFILER off): funccount-perf cannot run here; ours counts with kprobes"
fi
echo "Kernel: $prof."
echo

echo "| glob | functions | setup s (exec to Tracing) | teardown s (end to exit) |"
echo "|---|---:|---:|---:|"
for g in 'vfs_*' 'tcp_*'; do
	t0=$(up)
	rm -f $W/fc.out $W/fc.err	# no earlier run's banner to wait for
	funccount -d 2 "$g" > $W/fc.out 2> $W/fc.err &
	p=$!
	if ! wait_line $W/fc.out '^Tracing'; then
		kill $p 2>/dev/null
		echo "| $g | | did not start: $(head -c 200 $W/fc.err) | |"
		continue
	fi
	t1=$(up)
	wait $p
	t2=$(up)
	n=$(sed -n 's/.*setting up \([0-9]*\) probes.*/\1/p' $W/fc.err)
	[ -n "$n" ] || n="$(grep -c "^${g%\*}" $T/available_filter_functions) (listed)"
	echo "| $g | $n | $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.1f", b - a }') |" \
		"$(awk -v a=$t1 -v b=$t2 'BEGIN { printf "%.1f", b - a - 2 }') |"
done
echo

# per-call cost: readgen untraced, then under funccount vfs_read, interleaved
: > $W/plain
: > $W/traced
exact_ok=1
r=1
while [ $r -le "$ROUNDS" ]; do
	readgen "$RN" | awk '{ print $4 }' >> $W/plain
	rm -f $W/fr.out $W/fr.err	# no earlier run's banner to wait for
	funccount vfs_read > $W/fr.out 2> $W/fr.err &
	p=$!
	wait_line $W/fr.out '^Tracing' || { echo "funccount vfs_read did not start: $(cat $W/fr.err)"; exit 1; }
	readgen "$RN" | awk '{ print $4 }' >> $W/traced
	kill -INT $p
	wait $p
	c=$(count $W/fr.out vfs_read)
	[ "$c" -ge "$RN" ] || exact_ok=0
	echo "round $r: vfs_read counted $c for $RN reads" >> $W/rounds
	r=$((r + 1))
done
plain=$(median < $W/plain)
traced=$(median < $W/traced)
echo "| readgen $RN x read(1 byte) | ops/s (median of $ROUNDS) | vs untraced |"
echo "|---|---:|---:|"
echo "| untraced | $plain | 1.00 |"
echo "| funccount vfs_read | $traced | $(awk -v a=$traced -v b=$plain 'BEGIN { printf "%.2f", a / b }') |"
echo

# exactness: a function only the generator calls (the syscall's entry point,
# whatever this kernel names it: __x64_sys_getppid, __do_sys_getppid)
rm -f $W/fg.out $W/fg.err	# no earlier run's banner to wait for
funccount '*sys_getppid' > $W/fg.out 2> $W/fg.err &
p=$!
wait_line $W/fg.out '^Tracing' || { echo "funccount '*sys_getppid' did not start: $(cat $W/fg.err)"; exit 1; }
/tests/bin/fcalls getppid $GN
sleep 0.5
kill -INT $p
wait $p
g=$(awk '$1 ~ /sys_getppid$/ && $2 > c { c = $2; f = $1 } END { print c + 0, f }' $W/fg.out)
gf=${g#* }
g=${g%% *}
echo "| exactness | made | counted | verdict |"
echo "|---|---:|---:|---|"
echo "| getppid() calls by fcalls ($gf) | $GN | $g | $([ "$g" = $GN ] && echo exact || echo '**WRONG**') |"
echo "| read() calls by readgen, $ROUNDS rounds | $RN each | $(awk '{ print $5 }' $W/rounds | tr '\n' ' ') | $([ $exact_ok = 1 ] && echo 'at least N every round (the shell reads too)' || echo '**fewer than N**') |"
echo

# perf_env AWK - what a perf-tools script expects of a Debian host: AWK where it
# looks for it, the tracing directory under debugfs, its lock file's directory
perf_env() {
	[ -x /usr/bin/$1 ] || { mkdir -p /usr/bin; ln -s "$(command -v $1)" /usr/bin/$1 2> /dev/null; }
	mkdir -p /sys/kernel/debug /var/tmp
	[ -d /sys/kernel/debug/tracing ] || mount -t debugfs debugfs /sys/kernel/debug
}
# opensnoop with its kernel-side path: every open of opengen's path, named;
# beside it perf-tools opensnoop (a getname() return probe, bash and gawk on
# trace_pipe) when bench/run.sh brought it in
POS=$(command -v opensnoop-perf)
omodes=o
if [ -n "$POS" ] && command -v bash > /dev/null && command -v gawk > /dev/null; then
	omodes="o p"
	perf_env gawk
fi
echo "| opengen $ON x open() | ops/s (median of $ROUNDS) | vs untraced | rows of the path / N (worst) | rows of opengen, any path (worst) | lost reported |"
echo "|---|---:|---:|---:|---:|---:|"
: > $W/oplain
: > $W/oodd
for m in $omodes; do : > $W/o${m}traced; : > $W/o${m}seen; : > $W/o${m}lost; : > $W/o${m}rows; done
r=1
while [ $r -le "$ROUNDS" ]; do
	opengen "$ON" $W/og.target | awk '{ print $4 }' >> $W/oplain
	for m in $omodes; do
		rm -f $W/os.out $W/os.err	# no earlier run's banner to wait for
		# each in a process group of its own, ended as Ctrl-C would
		if [ $m = o ]; then setsid opensnoop > $W/os.out 2> $W/os.err &
		else setsid bash "$POS" > $W/os.out 2> $W/os.err & fi
		p=$!
		# both print the COMM header once they trace (opensnoop-perf has no banner)
		wait_line $W/os.out '^COMM' || { echo "$m: opensnoop did not start: $(cat $W/os.err)"; exit 1; }
		[ $m = p ] && sleep 1	# its reader (cat trace_pipe) starts after the header
		opengen "$ON" $W/og.target > $W/og.res
		awk '{ print $4 }' $W/og.res >> $W/o${m}traced
		gp=$(cut -d' ' -f1 $W/og.res)
		sleep 1
		# bash ignores SIGINT in a background job: TERM, which the script traps too
		if [ $m = p ]; then kill -TERM -$p; else kill -INT -$p; fi
		wait $p
		awk -v p="$gp" -v f="$W/og.target" '$2 == p && $4 == f { n++ } END { print n + 0 }' $W/os.out >> $W/o${m}seen
		# rows of opengen whatever their path says (a path the kernel could not read)
		awk -v p="$gp" '$2 == p { n++ } END { print n + 0 }' $W/os.out >> $W/o${m}rows
		[ $m = o ] && awk -v p="$gp" -v f="$W/og.target" '$2 == p && $4 != f' $W/os.out | head -n 3 >> $W/oodd
		# what each said of its losses: ours one WARNING line, opensnoop-perf
		# ftrace's "[LOST N EVENTS]" marks (N, when the kernel gives it)
		if [ $m = o ]; then
			sed -n 's/.*WARNING: \([0-9]*\) events lost.*/\1/p' $W/os.err | head -1 |
				awk '{ s += $1 } END { print s + 0, (NR > 0) }' >> $W/o${m}lost
		else
			cat $W/os.out $W/os.err | awk '/LOST.*EVENTS/ { n++; if (match($0, /LOST [0-9]+/)) s += substr($0, RSTART + 5, RLENGTH - 5) }
				END { print s + 0, n + 0 }' >> $W/o${m}lost
		fi
		[ $m = o ] && how=$(grep -q "caller's memory" $W/os.err && echo "paths read after the open" || echo "paths read in the kernel")
	done
	r=$((r + 1))
done
oplain=$(median < $W/oplain)
echo "| untraced | $oplain | 1.00 | | | |"
for m in $omodes; do
	v=$(median < $W/o${m}traced)
	[ $m = o ] && name="opensnoop ($how)" || name="opensnoop-perf (getname() return probe, bash, gawk)"
	said=$(awk '$2 > 0' $W/o${m}lost | wc -l)
	if [ "$said" -gt 0 ]; then lost="$(awk '{ print $1 }' $W/o${m}lost | median) (said in $said of $ROUNDS runs)"
	else lost="none said"; fi
	echo "| $name | $v | $(awk -v a=$v -v b=$oplain 'BEGIN { printf "%.2f", a / b }') |" \
		"$(median < $W/o${m}seen) / $ON ($(sort -n $W/o${m}seen | head -1)) |" \
		"$(median < $W/o${m}rows) ($(sort -n $W/o${m}rows | head -1)) | $lost |"
done
oworst=$(sort -n $W/ooseen | head -1)
case $omodes in *p*)
	echo
	echo "opensnoop against opensnoop-perf, the load's rate: $(awk -v a=$(median < $W/ootraced) -v b=$(median < $W/optraced) 'BEGIN { printf "%.2fx", a / b }')" ;;
*)	echo; echo "perf-tools opensnoop was not brought in (bench/run.sh does: bash, gawk, the script)." ;;
esac
[ -s $W/oodd ] && { echo; echo "Rows of opengen with another path (first of each round):"; echo; sed 's/^/    /' $W/oodd; }
echo
# 5. iolatency: pairing and counting in the kernel (-K, hist triggers) against
# pairing in user space (the default) and against perf-tools iolatency (bash and
# awk on the trace text, when bench/run.sh brought them in), on null_blk:
# iogen's direct-read rate, the tool's CPU time per I/O (all its processes, with
# the children they reaped) and I/O counted of IN
IN=${BENCH_GUEST_IOS:-40000}
il_ok=1
modprobe null_blk nr_devices=1 2>/dev/null
n=0
while [ $n -lt 50 ] && ! [ -b /dev/nullb0 ]; do sleep 0.1; n=$((n + 1)); done
# il_cpu PGID - clock ticks of a process group: utime, stime and its reaped children's
il_cpu() {
	for f in /proc/[0-9]*/stat; do cat "$f" 2>/dev/null; echo; done |
		awk -v g="$1" '{ sub(/^.*\) /, "") } $3 == g { n += $12 + $13 + $14 + $15 } END { print n + 0 }'
}
# il_count FILE - I/O in all the histograms FILE has
il_count() { awk '$2 == "->" && $4 == ":" { n += $5 } END { print n + 0 }' "$1"; }
# il_settle FILE - wait (60 s at most) until the last histogram printed counts
# nothing: the tool has caught up with the load, which ended
il_settle() {
	n=0
	while [ $n -lt 120 ]; do
		awk '/^ *>=\(ms\)/ { b++; s[b] = 0 } $2 == "->" && $4 == ":" { s[b] += $5 }
			END { exit !(b >= 2 && s[b - 1] > 0 && s[b] == 0) }' "$1" && return 0
		sleep 0.5
		n=$((n + 1))
	done
	return 1
}
if [ -b /dev/nullb0 ]; then
	MM=$(tr : , < /sys/class/block/nullb0/dev)
	hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
	PIL=$(command -v iolatency-perf)
	modes=u
	[ -e $T/events/block/block_rq_issue/hist ] && modes="k u"
	if [ -n "$PIL" ] && command -v bash > /dev/null; then
		modes="$modes p"
		perf_env mawk
	fi
	for m in plain $modes; do : > $W/i$m; : > $W/i${m}c; : > $W/i${m}n; done
	r=1
	while [ $r -le "$ROUNDS" ]; do
		iogen "$IN" /dev/nullb0 | awk '{ print $4 }' >> $W/iplain
		for m in $modes; do
			rm -f $W/il.out $W/il.err
			# each in a process group of its own, ended as Ctrl-C would
			case $m in
			k) setsid iolatency -K -d "$MM" 1 > $W/il.out 2> $W/il.err & ;;
			u) setsid iolatency -d "$MM" 1 > $W/il.out 2> $W/il.err & ;;
			p) setsid bash "$PIL" -d "$MM" 1 > $W/il.out 2> $W/il.err & ;;
			esac
			p=$!
			wait_line $W/il.out '^Tracing' || { echo "$m: iolatency did not start: $(cat $W/il.err)"; il_ok=0; break 2; }
			iogen "$IN" /dev/nullb0 | awk '{ print $4 }' >> $W/i$m
			sleep 1.5
			il_settle $W/il.out
			il_cpu $p >> $W/i${m}c
			# bash ignores SIGINT in a background job: TERM, which the script traps too
			if [ $m = p ]; then kill -TERM -$p; else kill -INT -$p; fi
			wait $p
			il_count $W/il.out >> $W/i${m}n
		done
		r=$((r + 1))
	done
	ip=$(median < $W/iplain)
	echo "| iolatency on null_blk ($IN direct 4 KiB reads, median of $ROUNDS) | reads/s | vs untraced | tool CPU us per I/O | I/O counted (worst) |"
	echo "|---|---:|---:|---:|---:|"
	echo "| untraced | $ip | 1.00 | | |"
	for m in $modes; do
		case $m in
		k) name="iolatency -K (in the kernel)" ;;
		u) name="iolatency (user space)" ;;
		p) name="iolatency-perf (bash, awk)" ;;
		esac
		v=$(median < $W/i$m)
		cpu=$(median < $W/i${m}c)
		echo "| $name | $v | $(awk -v a=$v -v b=$ip 'BEGIN { printf "%.2f", a / b }') |" \
			"$(awk -v c=$cpu -v h=$hz -v n=$IN 'BEGIN { printf "%.2f", c / h * 1e6 / n }') |" \
			"$(median < $W/i${m}n) / $IN ($(sort -n $W/i${m}n | head -1)) |"
	done
	echo
	[ -e $T/events/block/block_rq_issue/hist ] || echo "This kernel has no hist triggers: -K refuses to run."
	case $modes in *p*) ;; *) echo "perf-tools iolatency was not brought in (bench/run.sh does: bash, mawk, the script)." ;; esac
	echo
fi
else
	g=$GN exact_ok=1 oworst=$ON il_ok=1
fi
# 6. syscount's two ways of counting: sysgen's getppid() rate untraced; with
# raw_syscalls:sys_enter on in an instance with no reader (the floor); under
# syscount -c the way it picks here (the kernel's hist trigger where there is
# one); under syscount -c counting in user space (FTT_COUNT=user, every call's
# record copied out). Interleaved rounds, medians, ratios to untraced, and the
# getppid count against N.
SN=${BENCH_GUEST_CALLS:-100000}
sc_ok=1
sc_run() {	# sc_run MODE - one run of sysgen under MODE; its rate to $W/s$MODE
	case $1 in
	plain) sysgen getppid "$SN" | awk '{ print $4 }' >> $W/s$1 ;;
	floor)
		fi=$T/instances/gbenchfloor
		mkdir $fi && echo 1 > $fi/events/raw_syscalls/sys_enter/enable
		sysgen getppid "$SN" | awk '{ print $4 }' >> $W/s$1
		echo 0 > $fi/events/raw_syscalls/sys_enter/enable
		rmdir $fi ;;
	k|u)
		rm -f $W/sc.out $W/sc.err	# no earlier run's banner to wait for
		if [ $1 = u ]; then FTT_COUNT=user setsid syscount -c > $W/sc.out 2> $W/sc.err &
		else setsid syscount -c > $W/sc.out 2> $W/sc.err & fi
		p=$!
		wait_line $W/sc.out '^Tracing' || { echo "syscount -c ($1) did not start: $(cat $W/sc.err)"; sc_ok=0; return 1; }
		sysgen getppid "$SN" | awk '{ print $4 }' >> $W/s$1
		kill -INT -$p
		wait $p
		count $W/sc.out getppid >> $W/s$1n
		# the records it said the kernel dropped (user space: calls not counted)
		sed -n 's/.*WARNING: \([0-9]*\) events lost.*/\1/p' $W/sc.err | head -1 |
			awk '{ s += $1 } END { print s + 0 }' >> $W/s$1l
		grep -q 'counting in user space' $W/sc.err && echo user > $W/s$1how || echo kernel > $W/s$1how ;;
	esac
}
for m in plain floor k u; do : > $W/s$m; : > $W/s${m}n; : > $W/s${m}l; done
r=1
while [ $r -le "$ROUNDS" ] && [ $sc_ok = 1 ]; do
	for m in plain floor k u; do sc_run $m || break; done
	r=$((r + 1))
done
if [ $sc_ok = 1 ]; then
	sp=$(median < $W/splain)
	echo "| sysgen $SN x getppid() | calls/s (median of $ROUNDS) | vs untraced | added per call, ns | getppid counted / N (worst) | lost reported |"
	echo "|---|---:|---:|---:|---:|---:|"
	for m in plain floor k u; do
		case $m in
		plain) name="untraced" ;;
		floor) name="floor: raw_syscalls:sys_enter on, no reader" ;;
		k) name="syscount -c, its own choice: counted $([ "$(cat $W/skhow)" = kernel ] && echo 'in the kernel (hist trigger)' || echo 'in user space (no hist triggers)')" ;;
		u) name="FTT_COUNT=user syscount -c (in user space)" ;;
		esac
		v=$(median < $W/s$m)
		cn= ln=
		if [ -s $W/s${m}n ]; then
			cn="$(median < $W/s${m}n) / $SN ($(sort -n $W/s${m}n | head -1))"
			said=$(awk '$1 > 0' $W/s${m}l | wc -l)
			ln="none said"
			[ "$said" -gt 0 ] && ln="$(median < $W/s${m}l) (said in $said of $ROUNDS runs)"
		fi
		echo "| $name | $v | $(awk -v a=$v -v b=$sp 'BEGIN { printf "%.2f", a / b }') |" \
			"$(awk -v a=$v -v b=$sp 'BEGIN { printf "%.0f", 1e9 / a - 1e9 / b }') |" \
			"$cn | $ln |"
	done
	echo
	# every run counted N, or fewer by no more than the losses it said
	awk -v n="$SN" -v k="$W/skn" -v kl="$W/skl" -v u="$W/sun" -v ul="$W/sul" '
		{ v[FILENAME, FNR] = $1; if (FNR > m) m = FNR }
		END { for (i = 1; i <= m; i++)
			if (v[k, i] + v[kl, i] < n || v[u, i] + v[ul, i] < n) exit 1 }' \
		$W/skn $W/skl $W/sun $W/sul || sc_ok=0
fi
[ "$g" = $GN ] && [ $exact_ok = 1 ] && [ "$oworst" = "$ON" ] && [ $il_ok = 1 ] && [ $sc_ok = 1 ]

# SPDX-License-Identifier: GPL-2.0-only
# tests/vm/qemu.sh - booting the guests of tests/vm/run.sh under qemu, and
# the lock slots and job queue that keep them from crowding the machine.
# Read by run.sh; defines functions and settings only.
#
# A single-threaded TCG guest keeps one host core busy. More guests than
# cores all crawl, and then the timeouts mean nothing, so guests take turns
# through VM_JOBS lock slots (VM_LOCK, VM_LOCK.1, ...), across all runs on the
# machine: VM_TIMEOUT counts from the moment a guest gets its slot.
#
# Under TCG, turning on the function or function_graph tracer on 5.10 takes
# about a minute (every call site is patched, and each patch throws away
# translated code), long enough for the soft lockup and RCU stall detectors
# to fire. Those reports say nothing about the tools, so the guest runs with
# them off; real hangs still end in the timeout.

VM_TIMEOUT=${VM_TIMEOUT:-2700}
VM_QEMU=${VM_QEMU:-qemu-system-x86_64}
VM_APPEND=${VM_APPEND:-}
VM_ACCEL=${VM_ACCEL:-tcg,thread=single}
VM_JOBS=${VM_JOBS:-2}
command -v flock > /dev/null 2>&1 || VM_JOBS=1	# the job queue needs flock
VM_LOCK=${VM_LOCK:-/run/lock/ftt-vm-qemu.lock}

# ---------------------------------------------------------------------------
# the job queue: VM_JOBS guests side by side, each on its own lock slot

# run_jobs - run the jobs of plan_jobs: each slot takes the next job not yet
# taken; job N's lines go to $WORK/out-N and its counts to $WORK/count-N
# (collect_jobs shows them in job order once all have ended)
run_jobs() {
	echo 0 > "$WORK/next"
	slot=0
	while [ $slot -lt "$VM_JOBS" ]; do
		slot_jobs $slot &
		slot=$((slot + 1))
	done
	wait
}

# slot_jobs SLOT - run the next job not yet taken (n, counting from 0) on
# lock slot SLOT, until none is left
slot_jobs() {
	slot=$1
	while :; do
		# after an interrupt $WORK is gone: no number, and the loop ends
		n=$(next_job) || break
		[ -n "$n" ] && [ "$n" -lt "$njobs" ] || break
		run_job
	done
}

# next_job - the number of the next job not yet taken, counting from 0;
# status 1 if it cannot be taken (the run's directory is gone)
next_job() {
	{
		[ "$VM_JOBS" -le 1 ] || flock 7
		n=$(cat "$WORK/next") || return 1
		echo $((n + 1)) > "$WORK/next" || return 1
		echo "$n"
	} 7> "$WORK/next.lock"
}

# run_job - job $n on lock slot $slot, in a subshell: its lines to
# $WORK/out-$n and "passed failed skipped KFAIL" to $WORK/count-$n
run_job() {
	job=$(printf '%s\n' "$jobs" | sed -n "$((n + 1))p")
	(
		passed=0 failed=0 skipped=0 KFAIL=1
		set -f	# the job's patterns are for test names, not files
		set -- $job
		set +f
		one_kernel "$1" $slot "$2" "$3" "$4" "${5:--}"
		echo "$passed $failed $skipped $KFAIL" > "$WORK/count-$n"
	) > "$WORK/out-$n" 2>&1
}

# open_slot K SLOT - open the lock file of lock slot SLOT as fd 8, for
# boot_kernel; a failure is one FAIL line of kernel K and status 1
open_slot() {
	[ "$VM_LOCK" != none ] || return 0
	lock=$VM_LOCK
	[ "$2" -gt 0 ] && lock=$VM_LOCK.$2
	exec 8>> "$lock" || { echo "[$1] FAIL vm/lock: cannot open $lock"; return 1; }
}

# ---------------------------------------------------------------------------
# boot_kernel LABEL - boot, collect the result lines, print the report.
# Adds to the totals; sets KFAIL=1 when the kernel as a whole failed.

boot_kernel() {
	label=$1
	initrd=$WORK/initrd-$label.gz
	log=$WORK/console-$label.log
	keep=$VM_OUT/$label/console.log
	cat "$BASECPIO" "$RUNCPIO" > "$initrd" || {
		echo "[$label] FAIL vm/initramfs [$KVER]: cannot write $initrd"
		failed=$((failed + 1)) KFAIL=1
		return
	}
	# one guest at a time on this slot; fd 8 is opened by open_slot
	if [ "$VM_LOCK" != none ] && ! flock -n 8; then
		say "[$label] waiting for another guest to finish ($VM_LOCK)"
		flock 8
	fi
	t0=$(date +%s)
	run_qemu
	t1=$(date +%s)
	[ "$VM_LOCK" = none ] || flock -u 8
	total=$((t1 - t0))
	rm -f "$initrd"
	cp "$log" "$keep.$$" && mv "$keep.$$" "$keep"
	report_guest
}

# run_qemu - boot the kernel in $KDIR with $initrd and the job's tests on
# its command line, the console in $log without carriage returns, within
# VM_TIMEOUT; set qrc to the status of timeout(1)
run_qemu() {
	# --foreground keeps timeout and qemu in this script's process group,
	# and the pid in $WORK/qpid-LABEL lets the INT/TERM trap stop qemu, so an
	# interrupted run leaves no guest behind
	{
		timeout --foreground -k 10 "$VM_TIMEOUT" "$VM_QEMU" \
			-accel "$VM_ACCEL" -cpu max -m 2048 -smp 2 -nographic -no-reboot \
			-nic none \
			-kernel "$KDIR/root/boot/vmlinuz-$KVER" \
			-initrd "$initrd" \
			-append "console=ttyS0 quiet panic=-1 nowatchdog rcupdate.rcu_cpu_stall_suppress=1 ftt.tests=$KTESTS${KONLY:+ ftt.only=$KONLY}${KSKIP:+ ftt.skip=$KSKIP}${KBROKEN:+ ftt.capbroken=$KBROKEN} $VM_APPEND" \
			< /dev/null 2>&1 &
		echo $! > "$WORK/qpid-$label"
		wait $!
		echo $? > "$WORK/qrc-$label"
	} | stdbuf -oL tr -d '\r' > "$log" &
	# the shell runs a trap only once the command in hand ends; wait is
	# cut short by a signal, so the trap gets to stop qemu at once
	wait $!
	rm -f "$WORK/qpid-$label"
	qrc=$(cat "$WORK/qrc-$label")
}

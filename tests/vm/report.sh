# SPDX-License-Identifier: GPL-2.0-only
# tests/vm/report.sh - the results of tests/vm/run.sh: what each guest's
# console says (its lines, its totals, what went wrong), and the totals and
# summary of the run. Read by run.sh; defines functions only.

# ---------------------------------------------------------------------------
# one guest

# report_guest - guest $label's report from its console $log (qemu's status
# in $qrc): the times, its lines labelled, a FAIL line for whatever went
# wrong. Adds to the totals; sets KFAIL=1 when the kernel as a whole failed.
report_guest() {
	guest_trouble
	if [ -n "$up" ] && [ -n "$down" ]; then
		say "[$label] $KVER ($KPKG): boot ${up} s, tests $((down - up)) s, qemu ${total} s"
	else
		say "[$label] $KVER ($KPKG): qemu ${total} s"
	fi
	# the guest's lines, between the markers, labelled
	guest_lines | sed "s/^/[$label] /"
	KFAIL=0
	# kernel trouble logged while the tests ran is a failure too
	if grep -q '^@@KLOG ' "$log"; then
		echo "[$label] FAIL vm/kernel-log [$KVER]"
		sed -n 's/^@@KLOG /    /p' "$log"
		failed=$((failed + 1)) KFAIL=1
	fi
	if [ -n "$why" ]; then
		boot_failed
		return
	fi
	if [ -n "$VM_GUEST_CMD" ]; then
		count_guest_cmd
		return
	fi
	count_tests
}

# between_markers - the lines of $log from the guest's BEGIN marker to its
# END marker, both included
between_markers() {
	sed -n "/^@@BEGIN $TOKEN@@\$/,/^@@END $TOKEN /p" "$log"
}

# guest_lines - the guest's own lines between the markers
guest_lines() {
	between_markers | grep -v "^@@"
}

# guest_trouble - set up and down, the guest's uptime when the tests
# started and ended, sum, the tests' totals line, and why: what went wrong,
# if anything, in the order it would have happened
guest_trouble() {
	why=
	up=$(sed -n 's/.*ftt-vm: kernel .* up at \([0-9]*\).*/\1/p' "$log" | head -n 1)
	down=$(sed -n "s/^@@END $TOKEN rc=[0-9]* uptime=\([0-9]*\).*/\1/p" "$log" | head -n 1)
	sum=$(between_markers |
		grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' | tail -n 1)
	if grep -q "Kernel panic" "$log"; then
		why="kernel panic"
	elif [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		why="timed out after $VM_TIMEOUT s"
	elif ! grep -q "^@@BEGIN $TOKEN@@\$" "$log"; then
		why="did not boot to /init"
	elif ! grep -q "^@@END $TOKEN " "$log"; then
		why="test run did not finish"
	elif [ -z "$sum" ] && [ -z "$VM_GUEST_CMD" ]; then
		why="no summary line from the tests"
	fi
}

# boot_failed - the FAIL line of a guest that failed as a whole ($why), with
# the end of its console and what /hang-report said before the timeout
boot_failed() {
	echo "[$label] FAIL vm/boot [$KVER]: $why (console: $keep)"
	grep -v "^@@" "$log" | tail -n 30 | sed 's/^/    /'
	if grep -q '^@@HANG ' "$log"; then
		echo "    the guest before the timeout:"
		sed -n 's/^@@HANG /    /p' "$log"
	fi
	failed=$((failed + 1))
	KFAIL=1
}

# count_guest_cmd - VM_GUEST_CMD's exit status in the guest: 0 is a pass,
# anything else a failure
count_guest_cmd() {
	grc=$(sed -n "s/^@@END $TOKEN rc=\([0-9]*\) .*/\1/p" "$log" | head -n 1)
	if [ "$grc" = 0 ]; then
		passed=$((passed + 1)) KFAIL=0
	else
		echo "[$label] FAIL vm/guest-cmd [$KVER]: exit $grc"
		failed=$((failed + 1)) KFAIL=1
	fi
}

# count_tests - add the tests' totals line ($sum) to the totals, a skip for
# a feature this kernel has (skip_check) as a failure
count_tests() {
	set -- $sum
	passed=$((passed + $1)) failed=$((failed + $3)) skipped=$((skipped + $5))
	[ "$3" -eq 0 ] || KFAIL=1
	# a skip for a feature this kernel has hides the failure it tests
	bad_skips=$(guest_lines |
		sed "s/^/[$label] /" | skip_check "$label" "${label%%+*}")
	if [ -n "$bad_skips" ]; then
		echo "$bad_skips"
		nbad=$(echo "$bad_skips" | grep -c .)
		failed=$((failed + nbad)) skipped=$((skipped - nbad)) KFAIL=1
	fi
}

# skip_features REASON - the features (features_for) a skip's reason says the
# kernel lacks ("no ...", "needs ...", "without ..."; "kernel has kprobes;
# refusal not applicable" names none)
skip_features() {
	f=
	case $1 in *"no "*|*"needs "*|*"without "*) ;; *) return 0 ;; esac
	case $1 in *kprobe*) f="$f kprobes" ;; esac
	case $1 in *uprobe*) f="$f uprobes" ;; esac
	case $1 in *function_graph*|*fgraph*) f="$f fgraph" ;; esac
	case $1 in *"function tracer"*) f="$f function" ;; esac
	case $1 in *"function profiler"*) f="$f profiler" ;; esac
	case $1 in *"hist trigger"*) f="$f hist" ;; esac
	case $1 in *"event probe"*|*eprobe*) f="$f eprobes" ;; esac
	case $1 in *null_blk*) f="$f nullblk" ;; esac
	case $1 in *IPv6*) f="$f ipv6" ;; esac
	case $1 in *"no error_log"*) f="$f errorlog" ;; esac
	echo $f
}

# skip_check LABEL NAME - each SKIP line of guest LABEL (kernel NAME) on stdin
# whose reason names a feature NAME has becomes a FAIL line on stdout; prints
# nothing else
skip_check() {
	have=" $(features_for "$2") "
	sed -n 's/^\[[^]]*\] SKIP \([^ ]*\) \[\([^]]*\)\]: \(.*\)$/\1\t\2\t\3/p' |
	while IFS="$(printf '\t')" read -r test kv reason; do
		for f in $(skip_features "$reason"); do
			case $have in *" $f "*)
				echo "[$1] FAIL $test [$kv]: skipped, but this kernel has $f: $reason"
				break ;;
			esac
		done
	done
}

# ---------------------------------------------------------------------------
# the whole run

# report_jobs - every job's lines in job order, the skips, the failures
# again, and the totals; status 1 if anything failed
report_jobs() {
	collect_jobs
	skip_summary
	# the failures again, with their reasons, last, where a log cut to its
	# end shows them
	if [ $failed -ne 0 ] || [ $kbad -ne 0 ]; then
		echo "vm: what failed:"
		what_failed | head -n 60
	fi
	echo "vm: $((kok + kbad)) guests, $kok ok, $kbad failed${bad:+:$bad}"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ $failed -eq 0 ] && [ $kbad -eq 0 ]
}

# collect_jobs - print each job's lines ($WORK/out-N) in job order and add
# up its counts ($WORK/count-N; none: one failure): passed, failed, skipped,
# kok and kbad, the guests that passed and failed, and bad, the labels of
# the failed ones
collect_jobs() {
	passed=0 failed=0 skipped=0 kok=0 kbad=0 bad=
	n=0
	while [ $n -lt "$njobs" ]; do
		job=$(printf '%s\n' "$jobs" | sed -n "$((n + 1))p")
		cat "$WORK/out-$n"
		c="0 1 0 1"
		[ -s "$WORK/count-$n" ] && c=$(cat "$WORK/count-$n")
		set -- $c
		passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
		if [ "$4" = 0 ]; then
			kok=$((kok + 1))
		else
			g=${job%%[: ]*} suf=$(echo "$job" | cut -d' ' -f3)
			[ "$suf" = - ] || g=$g$suf
			kbad=$((kbad + 1)) bad="$bad $g"
		fi
		n=$((n + 1))
	done
}

# what_failed - the FAIL lines of all guests and the indented lines below
# them, but for what a guest's own "what failed:" repeats
what_failed() {
	cat "$WORK"/out-* | awk '/\] what failed:$/ { again = 1 }
		/ passed, [0-9]+ failed, / { again = 0 } again { next }
		/^\[[^]]*\] FAIL |^FAIL / { show = 1; print; next }
		show && /^\[[^]]*\]     / { print; next } { show = 0 }'
}

# skip_summary - every skip, by reason, with the guests it was seen in
skip_summary() {
	cat "$WORK"/out-* | sed -n 's/^\[\([^]]*\)\] SKIP [^ ]* \[[^]]*\]: \(.*\)$/\2\t\1/p' |
		sort | awk -F '\t' '{ n[$1]++; if (index(" " g[$1] " ", " " $2 " ") == 0) g[$1] = g[$1] (g[$1] ? " " : "") $2 }
			END { for (r in n) printf "vm: skipped %d x (%s): %s\n", n[r], g[r], r }' | sort
}

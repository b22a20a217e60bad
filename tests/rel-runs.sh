# SPDX-License-Identifier: GPL-2.0-only
# tests/rel-runs.sh - runs beside other runs, for tests/live/reliability.sh:
# dead runs and their journals, the user's own tracing session, tools side by
# side

# mkprog_rel - a uniquely named executable script in $TMP; extra lines after the name
mkprog_rel() {
	n=$1
	shift
	{ echo '#!/bin/sh'; for l in "$@"; do echo "$l"; done; echo 'exit 0'; } > "$TMP/$n"
	chmod +x "$TMP/$n"
}

# rel_dead_pid - set dead to the PID of a process that has ended
rel_dead_pid() {
	sh -c 'exit 0' &
	dead=$!
	wait $dead
}

# rel_reaper_run [WHAT] - the next run, which reaps what dead runs left: a
# short tpoint, its stderr in $TMP/err; fails (said with WHAT) if it does
rel_reaper_run() {
	"$BIN/tpoint" -d 0.1 sched:sched_process_exec > /dev/null 2> "$TMP/err" ||
		fail "${1:+$1: }tpoint failed: $(cat "$TMP/err")"
}

# rel_journals_reaped - the journals t_journal_reaped's next run must sort
# out, each with tracing_on's original value ($orig) to put back where the
# run left $flip: a dead run's ($dead); one whose PID ($live) lives with
# another start time, so a dead run's too; the live run's ($live-$st); and
# an older one (TOOL-PID) whose PID lives
rel_journals_reaped() {
	tracer=$(cat "$T/current_tracer")
	# what to put back, and the value the run left there (the file is put
	# back only while it still holds that)
	printf 'tracing_on\n1\n%s\n=tracing_on\n1\n%s\n' "$orig" "$flip" > "/run/ftt/funcgraph-$dead-1"
	# no order among journals: this one writes what is there already
	n=$(printf %s "$tracer" | wc -c)
	printf 'current_tracer\n%s\n%s\n=current_tracer\n%s\n%s\n' "$n" "$tracer" "$n" "$tracer" \
		> "/run/ftt/funccount-$live-$((st + 1))"
	printf 'tracing_on\n1\n%s\n' "$flip" > "/run/ftt/sleep-$live"
	printf 'tracing_on\n1\n%s\n' "$flip" > "/run/ftt/sleep-$live-$st"
}

# rel_journals_reaped_check - after the next run: the dead runs' journals
# were replayed (tracing_on is $orig again) and removed, the live ones kept,
# and the run said so, one line each, of nothing else
rel_journals_reaped_check() {
	now=$(cat "$on")
	[ "$now" = "$orig" ] || fail "tracing_on is $now, the dead run's journal said $orig"
	[ ! -e "/run/ftt/funcgraph-$dead-1" ] || fail "the dead run's journal is still there"
	[ ! -e "/run/ftt/funccount-$live-$((st + 1))" ] ||
		fail "the journal of a dead run whose PID was taken is still there"
	[ -e "/run/ftt/sleep-$live-$st" ] || fail "the live run's journal was removed"
	[ -e "/run/ftt/sleep-$live" ] || fail "an older journal whose PID lives was removed"
	printf 'tpoint: removed what a run that ended without cleaning up (%s) left: journal /run/ftt/%s\n' \
		"funcgraph, PID $dead" "funcgraph-$dead-1" "funccount, PID $live" "funccount-$live-$((st + 1))" |
		sort > "$TMP/want.err"
	sort "$TMP/err" | cmp -s - "$TMP/want.err" ||
		fail "tpoint said: $(cat "$TMP/err"), want: $(cat "$TMP/want.err")"
}

# rel_journals_bad_check - after the next run: the two bad journals of the
# dead run $dead are kept as .bad, each named in one stderr line, and nothing
# was written from them (tracing_on is $orig, buffer_size_kb $kb)
rel_journals_bad_check() {
	for j in 1 2; do
		[ -e "/run/ftt/tpoint-$dead-$j.bad" ] && [ ! -e "/run/ftt/tpoint-$dead-$j" ] ||
			fail "bad journal $j not kept as tpoint-$dead-$j.bad: $(ls /run/ftt)"
		[ "$(grep -c "/run/ftt/tpoint-$dead-$j: .*kept as tpoint-$dead-$j.bad" "$TMP/err")" = 1 ] ||
			fail "bad journal $j not named in one line: $(cat "$TMP/err")"
	done
	[ "$(cat "$on")" = "$orig" ] || fail "tracing_on changed by a bad journal"
	[ "$(cat "$T/buffer_size_kb")" = "$kb" ] || { fail "buffer_size_kb written from a bad journal"; echo "$kb" > "$T/buffer_size_kb"; }
}

# rel_journal_bad_dir HOW - /run/ftt open to others (HOW mode: 0755) or a
# symbolic link (HOW link, to $TMP/jdir): a dead run's journal there is not
# read by the next run, nor removed. The bad /run/ftt goes again, and
# tracing_on is $orig again
rel_journal_bad_dir() {
	if [ "$1" = mode ]; then
		mkdir -m 0755 /run/ftt
		jd=/run/ftt
	else
		ln -s "$TMP/jdir" /run/ftt
		jd=$TMP/jdir
	fi
	printf 'tracing_on\n1\n%s\n' "$flip" > "$jd/funcgraph-$dead-1"
	rel_reaper_run "$1"
	[ "$(cat "$on")" = "$orig" ] || fail "$1: tracing_on written from a journal in a bad /run/ftt"
	[ -e "$jd/funcgraph-$dead-1" ] || fail "$1: a journal in a bad /run/ftt was read and removed"
	rm -rf /run/ftt
	rm -f "$TMP/jdir/"*
	echo "$orig" > "$on"
}

# rel_user_begin - the user's own tracing session, on the event $ev: a filter
# on it, enabled at the top level and read from trace_pipe (into
# $TMP/user.top), an instance of their own where it is enabled and read (into
# $TMP/user.inst), and a kprobe where the kernel has them. Sets user (the
# instance's name), kp (the kprobe, or empty), before_filter, before_events,
# reader and reader2 (the readers' PIDs); fails if the filter is refused
rel_user_begin() {
	user=usertest_$$
	# a top-level event enabled for the first time since boot expands the
	# top-level buffer (buffer_size_kb "7 (expanded: 1408)" becomes 1410), and
	# nothing shrinks it back: the user's session does that, not the tools
	if grep -q expanded "$T/buffer_size_kb"; then
		echo 1 > "$ev/enable" && echo 0 > "$ev/enable"
		snapshot_retake
	fi
	echo 'common_pid != 0' > "$ev/filter" || { fail "cannot set a user filter"; return 1; }
	echo 1 > "$ev/enable"
	mkdir "$T/instances/$user"
	echo 1 > "$T/instances/$user/events/sched/sched_process_exec/enable"
	kp=
	if kernel_has kprobe_events; then
		echo 'p:usergrp/myprobe do_sys_openat2' >> "$T/kprobe_events" 2>/dev/null &&
			kp=usergrp/myprobe && echo 1 > "$T/events/usergrp/myprobe/enable"
	fi
	before_filter=$(cat "$ev/filter")
	before_events=$(cat "$T/set_event")
	cat "$T/trace_pipe" > "$TMP/user.top" &
	reader=$!
	cat "$T/instances/$user/trace_pipe" > "$TMP/user.inst" &
	reader2=$!
}

# rel_start_all TOOL... - start each tool in the background, for its
# duration where it has one (rel_cmd), its output in $TMP/TOOL.out and
# $TMP/TOOL.err; sets pids and runs (TOOL:PID, a word each)
rel_start_all() {
	pids= runs=
	for t in "$@"; do
		rel_cmd "$t"
		# shellcheck disable=SC2086
		if [ -n "$REL_DUR" ]; then
			"$BIN/$t" $REL_DUR > "$TMP/$t.out" 2> "$TMP/$t.err" &
		else
			"$BIN/$t" $REL_LIVE > "$TMP/$t.out" 2> "$TMP/$t.err" &
		fi
		pids="$pids $!"
		runs="$runs $t:$!"
	done
}

# rel_wait_banners - wait until each run of $runs traces (its banner) or has
# ended (a refusal); under emulation setting up can take seconds
rel_wait_banners() {
	for r in $runs; do
		n=0
		while [ $n -lt $((300 * SLOW)) ] && kill -0 "${r#*:}" 2>/dev/null &&
			! grep -Eq '^(Tracing|Counting) ' "$TMP/${r%:*}.out"; do
			sleep 0.1
			n=$((n + 1))
		done
	done
}

# rel_stop_all - SIGINT the runs of $pids; each must be gone within 15 s
rel_stop_all() {
	kill -INT $pids 2>/dev/null
	for p in $pids; do wait_gone "$p" 150 || { kill -KILL "$p"; rel_reap; fail "pid $p did not end"; }; done
}

# rel_user_tool_check TOOL RC - TOOL (its exit status RC) ran beside the
# user's session as it would alone: its banner, exit 0 and no warning; except
# the graph tools (funcgraph, funcslower, funclatency) where the kernel graphs
# only at the top level, whose buffer the user's event fills: each must refuse
# that, or, started at the same moment, refuse because another run holds the
# top level while it finds that out (funclatency only where it graphs: one
# function is timed in the kernel where it can be, beside anything)
rel_user_tool_check() {
	case $1 in
	funcgraph|funcslower|funclatency)
		if fg_top && ! { [ "$1" = funclatency ] && fl_kernel; }; then
			[ "$2" = 1 ] && grep -Eq 'the top-level trace buffer is in use \(events enabled in set_event\)|another run changes top-level tracing settings now: ' "$TMP/$1.err" ||
				fail "$1 beside the user's top-level event, graphing only at the top level: wanted the refusal, exit 1; got exit $2: $(head -c 300 "$TMP/$1.err")"
			return 0
		fi ;;
	esac
	[ "$2" = 0 ] || fail "$1 beside the user's session: exit $2: $(head -c 300 "$TMP/$1.err")"
	head -1 "$TMP/$1.out" | grep -Eq '^(Tracing|Counting) ' || fail "$1 beside the user's session: no banner: $(head -2 "$TMP/$1.out")"
	# (events the kernel dropped under load are said, and are not the session's doing)
	grep -Eiv 'events lost|were not read' "$TMP/$1.err" | grep -Ei 'warning|cannot|could not|refused|error|busy|internal' > "$TMP/$1.bad"
	[ ! -s "$TMP/$1.bad" ] || fail "$1 beside the user's session: stderr: $(head -c 300 "$TMP/$1.bad")"
}

# rel_user_intact - the user's session is as they set it up (rel_user_begin)
# and each of its readers saw both execs of $TMP/rel_user_$$; the readers
# are stopped
rel_user_intact() {
	[ "$(cat "$ev/enable")" = 1 ] || fail "the user's top-level event was disabled"
	[ "$(cat "$ev/filter")" = "$before_filter" ] || fail "the user's filter changed: $(cat "$ev/filter")"
	[ "$(cat "$T/set_event")" = "$before_events" ] || fail "set_event changed: $(cat "$T/set_event")"
	[ "$(cat "$T/instances/$user/events/sched/sched_process_exec/enable")" = 1 ] ||
		fail "the user's instance lost its event"
	[ -z "$kp" ] || grep -q "$kp" "$T/kprobe_events" || fail "the user's kprobe $kp was removed"
	[ -z "$kp" ] || [ "$(cat "$T/events/$kp/enable")" = 1 ] || fail "the user's kprobe was disabled"
	kill $reader $reader2
	wait $reader $reader2 2>/dev/null
	n=$(grep -c "filename=$TMP/rel_user_$$ " "$TMP/user.top")
	[ "$n" -eq 2 ] || fail "the user's trace_pipe saw $n of 2 execs"
	n=$(grep -c "filename=$TMP/rel_user_$$ " "$TMP/user.inst")
	[ "$n" -eq 2 ] || fail "the user's instance saw $n of 2 execs"
}

# rel_user_end - the user ends their session
rel_user_end() {
	[ -n "$kp" ] && echo 0 > "$T/events/$kp/enable" && echo "-:$kp" >> "$T/kprobe_events"
	echo 0 > "$ev/enable"
	echo 0 > "$ev/filter"
	rmdir "$T/instances/$user"
}

# rel_side TOOL... - run the tools at once; each must see the same workload:
# a uniquely named program that opens a unique file
rel_side() {
	prog=rel_side_$$ file=$TMP/rel_side_file_$$
	echo data > "$file"
	# the open by a workload that keeps its path in memory while it holds the file:
	# without probes, opensnoop reads the path from there after the event
	mkprog_rel "$prog" "\"$WORKLOADS/ftt_open.dyn\" --libc --hold=1000 \"$file\" > /dev/null"
	rel_side_start "$@"
	"$TMP/$prog"
	rel_side_seen "$@"
	rel_side_stop
}

# rel_side_args TOOL - the arguments of TOOL in rel_side: tpoint, tpoint2
# and tpoint3 are tpoint on three events
rel_side_args() {
	case $1 in
	tpoint) echo "sched:sched_process_exec" ;;
	tpoint2) echo "sched:sched_process_exit" ;;
	tpoint3) echo "sched:sched_process_fork" ;;
	esac
}

# rel_side_want TOOL - the ERE of TOOL's row for rel_side's workload ($prog
# opening $file)
rel_side_want() {
	case $1 in
	tpoint) echo "filename=$TMP/$prog " ;;
	tpoint2) echo "comm=$prog " ;;
	tpoint3) echo "child_comm=$prog |comm=$prog " ;;
	execsnoop) echo "$prog" ;;
	opensnoop) echo "$file" ;;
	esac
}

# rel_side_start TOOL... - start the tools, the Nth one's output in
# $TMP/sideN.out and $TMP/sideN.err, and wait for each one's banner; sets pids
rel_side_start() {
	pids= i=0
	for t in "$@"; do
		i=$((i + 1))
		set_args=$(rel_side_args "$t")
		# shellcheck disable=SC2086
		"$BIN/${t%[0-9]}" $set_args > "$TMP/side$i.out" 2> "$TMP/side$i.err" &
		pids="$pids $!"
	done
	i=0
	for t in "$@"; do
		i=$((i + 1))
		wait_for_line "$TMP/side$i.out" 'Tracing|Counting' 150 ||
			fail "$t did not start: $(head -c 200 "$TMP/side$i.err")"
	done
}

# rel_side_seen TOOL... - each tool printed its row of the workload
rel_side_seen() {
	i=0
	for t in "$@"; do
		i=$((i + 1))
		want=$(rel_side_want "$t")
		wait_for_line "$TMP/side$i.out" "$want" 50 ||
			fail "$t did not see /$want/; its rows of ftt_open or $prog, else its last: $(
				grep -E "ftt_open|$prog" "$TMP/side$i.out" | head -n 6 ||
				tail -n 4 "$TMP/side$i.out")"
	done
}

# rel_side_stop - SIGINT the tools ($pids): each ends, exit 0, and says
# nothing wrong on stderr
rel_side_stop() {
	kill -INT $pids
	i=0
	for p in $pids; do
		i=$((i + 1))
		wait_gone "$p" 150 || { kill -KILL "$p"; rel_reap; fail "tool $i did not end"; }
		wait "$p" || fail "tool $i: exit $?: $(head -c 200 "$TMP/side$i.err")"
		! grep -Eiq 'sanitizer|error|cannot|refused' "$TMP/side$i.err" ||
			fail "tool $i: stderr: $(head -c 200 "$TMP/side$i.err")"
	done
}

# rel_pick N - N tools for a side-by-side run: execsnoop, opensnoop, tpoint if
# built, topped up with more tpoint sessions on other events
rel_pick() {
	n=0 out=
	for t in execsnoop opensnoop tpoint tpoint2 tpoint3; do
		[ $n -lt "$1" ] || break
		[ -x "$BIN/${t%[0-9]}" ] || continue
		out="$out $t" n=$((n + 1))
	done
	[ $n -eq "$1" ] && echo "$out"
}

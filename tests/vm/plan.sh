# SPDX-License-Identifier: GPL-2.0-only
# tests/vm/plan.sh - the guest matrix of tests/vm/run.sh: which test files
# and tests run on which kernel, one guest (a job) each, and why. Read by
# run.sh; defines functions and settings only.
#
# Which tests run where. Most tests check the tools, not the kernel: -p, a
# column layout, a JSON record give the same answer on every kernel that has
# the feature, and each guest takes a quarter of an hour or more under TCG.
# So every test runs on the oldest kernel (5.10: no hist triggers, no event
# probes) and on the newest (7.3: syscall strings, block_io_start); 6.1pf (the
# only kernel with the function profiler, funccount's first choice) runs
# VM_SPECIFIC_PF: the function tools' kernel-specific tests, and a few of
# each other tool's (its block devices, loop partitions and event probes
# work; the rest of VM_SPECIFIC passed there too, but the in-kernel
# histogram tests alone take a quarter of an hour under TCG, and 6.1 runs
# the same kernel series); 6.1pr, the same series as 6.1 without its security updates, runs
# VM_SPECIFIC_PR, the capture rungs' tests: what differs there is its broken
# event probes (cap_broken_for in kernels.sh). 6.1 and 6.12 run VM_SPECIFIC, the tests
# whose path or answer depends on what the kernel offers:
#   execsnoop, opensnoop  args, fail_args, open, rungs, broken_rung, note,
#                default_argc: which capture rungs the kernel has and which
#                are broken (an event probe on 6.1pr, cap_broken_for), the
#                line a run prints about them, and 20 argv entries fetched by
#                each rung
#   funccount    all: the counting path (profiler or kprobe_profile) and the
#                kernel's function list
#   funcgraph    nesting, maxdepth_1, no_duration_tail_headers, pid_filter,
#                json, two_globs, args: the function_graph tracer's options
#                (funcgraph-args from 6.16 only), text and list files (user_lists_kept and journal_later_user test
#                the save, journal and restore of those files, the same code
#                on every kernel: 5.10 and 7.3 only, as the exit paths; on
#                6.1pf, which runs 6.1's graph code, the text and options
#                only: nesting, no_duration_tail_headers, pid_filter, json)
#   funcslower   slow: tracing_thresh at the top level, and the text of a
#                return whose entry was not recorded
#   funclatency  usecs: the return records' call and return times;
#                kernel_*: one function timed in the kernel after a proof
#                on known calls (kprobes and hist triggers with .buckets,
#                6.1 on) or in user space (not on 6.1pf, where each took 90
#                to 170 s, five times 6.1's, cause not known: 6.1 runs the
#                same series)
#   cachestat    misses_hits: which page-cache functions the kernel has
#                (page names on 5.10, folio names from 5.16) and what they count
#   functrace    calls, headers: the function tracer's record (its caller
#                differs: 5.10 calls do_sys_openat2 from do_sys_open) and
#                the flags column and its legend
#   kprobe       fetchargs ($argN, named return values, strings), the
#                kernel's error_log messages, the format view
#   iolatency    the in-kernel histogram (-K, hist triggers) or its refusal,
#                partitions, the -K counts across renewals (in_kernel_*)
#   syscount     the counts in a hist trigger (proven at startup, set_event_pid
#                on a trigger, threads named from the trace, their processes
#                and 32-bit programs from task_newtask and exec) or in user space
#   perf-stat-hist, bitesize  power*, given*, sizes*, per_process*,
#                kernel_*: the counts in a hist trigger keyed by the exact
#                value (proven at startup) or in user space, both ways
#   iosnoop      write_exact, queue_time, pid_filter: the block events and
#                which one carries the submitting process
#   tcpretrans   tcp_retransmit_skb and the tail loss probe, IPv4 and IPv6
#   tpoint       the syscall events' formats, the format view, error_log,
#                the flags column's bits (kernel_flags: their meaning
#                changed in 5.13, 5.18 and 6.13), and the -H legend (headers)
#   uprobe       libc_string, libc_retval_pid, kernel_error, stacks, view:
#                string fetches, $retval, the kernel's error_log messages,
#                user stacks and the uprobe event format
# reliability runs on 6.1 alone (VM_ONCE).

VM_FULL=${VM_FULL-"5.10 7.3"}
VM_SPECIFIC=${VM_SPECIFIC-"execsnoop/args execsnoop/fail_args execsnoop/rungs
	execsnoop/broken_rung execsnoop/note execsnoop/default_argc
	opensnoop/open opensnoop/rungs opensnoop/broken_rung opensnoop/note
	funccount/* funcgraph/nesting funcgraph/maxdepth_1 funcgraph/two_globs
	funcgraph/no_duration_tail_headers funcgraph/pid_filter funcgraph/json funcgraph/args
	functrace/calls functrace/headers funcslower/slow funclatency/usecs
	funclatency/kernel_*
	cachestat/misses_hits
	kprobe/string_filter kprobe/retval_named kprobe/argn kprobe/view
	kprobe/kernel_error kprobe/kernel_error_user_log kprobe/json_ret
	iolatency/dev_partition iolatency/known_latency iolatency/in_kernel_*
	iolatency/kernel_refused iolatency/kernel_reaped iolatency/kernel_flush
	iolatency/flush iosnoop/flush
	syscount/calls syscount/failed syscount/verbose syscount/names syscount/kernel_*
	syscount/threads syscount/ia32
	perf-stat-hist/power* perf-stat-hist/given* perf-stat-hist/kernel_*
	bitesize/sizes* bitesize/per_process* bitesize/kernel_*
	iosnoop/write_exact iosnoop/queue_time iosnoop/pid_filter
	tcpretrans/syn_sent_ipv4 tcpretrans/established_ipv6 tcpretrans/tlp_*
	tpoint/syscalls tpoint/json_syscall tpoint/view_format tpoint/user_error_log
	tpoint/kernel_flags tpoint/headers
	uprobe/libc_string uprobe/libc_retval_pid uprobe/kernel_error uprobe/stacks
	uprobe/view"}
VM_SPECIFIC_PR=${VM_SPECIFIC_PR-"execsnoop/args execsnoop/fail_args execsnoop/rungs
	execsnoop/broken_rung execsnoop/note execsnoop/default_argc
	opensnoop/open opensnoop/rungs opensnoop/broken_rung opensnoop/note"}
VM_SPECIFIC_PF=${VM_SPECIFIC_PF-"funccount/* funcgraph/nesting
	funcgraph/no_duration_tail_headers funcgraph/pid_filter funcgraph/json
	functrace/calls functrace/headers funcslower/slow funclatency/usecs
	kprobe/string_filter kprobe/retval_named kprobe/argn kprobe/view
	kprobe/kernel_error kprobe/kernel_error_user_log kprobe/json_ret
	execsnoop/args opensnoop/open iosnoop/write_exact iosnoop/flush
	iolatency/flush tcpretrans/syn_sent_ipv4 tpoint/syscalls"}
VM_ONCE=${VM_ONCE-reliability}
VM_ONCE_ONLY=${VM_ONCE_ONLY:-}
VM_ONCE_ON=${VM_ONCE_ON:-6.1}

# plan_jobs - set jobs to the boots, one a line: "K FILES SUFFIX ONLY SKIP",
# one_kernel's arguments but the slot (FILES the test files of ALL_TESTS,
# ONLY and SKIP LIVE_ONLY and LIVE_SKIP patterns, comma-separated, "-" for
# none), and njobs to their number. Every kernel runs the test files less
# VM_ONCE's, and VM_ONCE's files (only VM_ONCE_ONLY's tests of them) run on
# VM_ONCE_ON alone, first, so that the longest job does not start last.
plan_jobs() {
	split_once
	jobs=
	once_job
	if [ -n "$rest" ] || [ -n "$VM_GUEST_CMD" ]; then
		for k in $VM_KERNELS; do
			kernel_job "$k"
		done
	fi
	njobs=$(printf '%s\n' "$jobs" | grep -c .)
}

# split_once - once: the files of ALL_TESTS that VM_ONCE names, rest: the
# others, both comma-separated; more: the files of rest VM_ONCE_ONLY's
# patterns name, each after a comma
split_once() {
	once= rest= more=
	for t in $ALL_TESTS; do
		case " $VM_ONCE " in
		*" $t "*) once="$once${once:+,}$t" ;;
		*) rest="$rest${rest:+,}$t" ;;
		esac
	done
	# the other files VM_ONCE_ONLY's patterns name run in that guest too
	set -f
	for t in $ALL_TESTS; do
		case ",$once," in *",$t,"*) continue ;; esac
		for pat in $VM_ONCE_ONLY; do
			case $t in "${pat%%/*}") more="$more,$t"; break ;; esac
		done
	done
	set +f
}

# once_job - the job of VM_ONCE's files on VM_ONCE_ON, labelled with a "+"
# and their names; a SKIP line when VM_ONCE_ON is not in VM_KERNELS
once_job() {
	[ -n "$once" ] && [ -z "$VM_GUEST_CMD" ] || return 0
	on=
	for k in $VM_KERNELS; do
		[ "${k%%:*}" = "$VM_ONCE_ON" ] && on=$k
	done
	if [ -n "$on" ]; then
		only=$(echo "${VM_ONCE_ONLY:--}" | tr ' ' ,)
		jobs="$on $once$more +$(echo "$once" | tr , +) $only -"
	else
		echo "[$VM_ONCE_ON] SKIP vm/boot: $once run on $VM_ONCE_ON only (VM_ONCE_ON), which is not in VM_KERNELS"
	fi
}

# kernel_job K - kernel K's job, added to jobs: a kernel outside VM_FULL
# runs the VM_SPECIFIC tests alone, and only the files they name (none: no
# job); VM_ONLY, when given, is what runs everywhere
kernel_job() {
	files=$rest only=${VM_ONLY:--}
	case " $VM_FULL " in
	*" ${1%%:*} "*|*" all "*) ;;
	*)
		if [ -z "${VM_ONLY:-}" ] && [ -z "$VM_GUEST_CMD" ]; then
			kernel_specific "$1"
			[ -n "$files" ] || return 0
		fi
		;;
	esac
	jobs="$jobs${jobs:+$NL}$1 ${files:--} - $(echo "$only" | tr ' ' ,) $(echo "${VM_SKIP:--}" | tr ' ' ,)"
}

# kernel_specific K - set only to the kernel-specific tests of kernel K
# (VM_SPECIFIC; VM_SPECIFIC_PF for a "pf" kernel, VM_SPECIFIC_PR for a "pr"
# one), and files to the files of rest they name, comma-separated
kernel_specific() {
	set -f
	spec=$VM_SPECIFIC
	case ${1%%:*} in
	*pf) spec=$VM_SPECIFIC_PF ;;
	*pr) spec=$VM_SPECIFIC_PR ;;
	esac
	only=$(echo $spec) files=
	for t in $(echo "$rest" | tr , ' '); do
		for pat in $spec; do
			case $t in "${pat%%/*}")
				files="$files${files:+,}$t"; break ;;
			esac
		done
	done
	set +f
}

# print_plan - the jobs, one line each (VM_PLAN=1)
print_plan() {
	printf '%s\n' "$jobs" | while read -r k files suf only skip; do
		echo "vm: plan: $k${suf#-}: files $files, only $only, skip $skip"
	done
}

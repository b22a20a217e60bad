#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/vm/run.sh - run the live tests inside real Debian kernels under qemu
#
# usage: tests/vm/run.sh [TOOL...]
#
# For every kernel in $VM_KERNELS this script
#   1. fetches the Debian linux-image package for that kernel once (and, from
#      7.x on, where linux-image-VER is a meta package, the linux-binary,
#      linux-modules and linux-base packages it depends on), with a private
#      apt configuration, and keeps the unpacked tree in $VM_CACHE; a label
#      ending in "pf" is built instead, once, from Debian's linux-source-VER
#      (build_kernel): no Debian kernel has the function profiler;
#   2. builds a gzip cpio initramfs: busybox, the suite's binaries, the tests/
#      tree and a few kernel modules, with an /init that runs tests/live/run.sh;
#   3. boots it with qemu (TCG: a KVM guest hangs on the CI machines);
#   4. prints every test line from the guest prefixed with the kernel label.
# A kernel that does not boot, hangs, panics or prints no summary line is a
# failure, never a pass. Exit status is 1 if anything failed.
#
# TOOL... limits the run to tests/live/<TOOL>.sh, as for tests/live/run.sh.
# Build the binaries first ("make", or "make static" with VM_STATIC=1).
#
# Settings, all optional:
#   VM_KERNELS   kernels to boot, "VER" or "VER:SUITE" (default
#                "6.1pf 5.10 7.3 6.1 6.12 6.1pr", the longest jobs first;
#                5.10 comes from bullseye, 6.1 from bookworm and
#                bookworm-security, 6.12 from trixie, 7.3 from
#                trixie-backports). VER is also the label of the kernel's
#                lines and its directory in VM_CACHE and VM_OUT. A VER ending
#                in "pr" is the point release of that series: the suite
#                alone, without its security updates, e.g. "6.1pr" is the
#                6.1 kernel of bookworm main while "6.1" is the newest of
#                bookworm and bookworm-security. A *-backports suite is
#                fetched without a security suite too. A VER ending in "pf"
#                is built here from linux-source-VER of the suite's main
#                (no security suite): "6.1pf" is bookworm's 6.1 source with
#                the tracing options of Ubuntu's kernels, the function
#                profiler among them (build_kernel says which).
#   VM_FULL      kernels that run every test (default "5.10 7.3", "all"
#                for every kernel); the others run VM_SPECIFIC alone, a "pf"
#                kernel VM_SPECIFIC_PF, a "pr" kernel VM_SPECIFIC_PR
#   VM_SPECIFIC  LIVE_ONLY patterns of the kernel-specific tests, the ones
#                every kernel runs (see "Which tests run where" below)
#   VM_SPECIFIC_PF  the same for a "pf" kernel: the function tools' tests,
#                and a few of each other tool's
#   VM_SPECIFIC_PR  the same for a "pr" kernel: the capture rungs' tests
#   VM_BUILD_JOBS  make -j for a "pf" kernel's build (default 2)
#   VM_PLAN      1: print the guests and what each would run, and stop
#   VM_CACHE     downloaded and unpacked kernels (default /var/cache/ftt-vm)
#   VM_REFRESH   1: ask the archive again for a newer kernel package
#   VM_MIRROR    Debian mirror (default: the one apt on this machine uses)
#   VM_SECURITY  Debian security mirror (default: likewise, "none" to skip;
#                never used for a "pr" kernel or a *-backports suite)
#   VM_TIMEOUT   seconds per kernel, boot and tests together (default 2700:
#                a guest running every test took 1663 s beside other work)
#   VM_OUT       console logs and initramfs parts (default build/vm)
#   VM_STATIC    1: use bin/static/* instead of the dynamic bin/*
#   VM_MODULES   modules to put in the initramfs (default "null_blk veth loop": loop for the partition tests)
#   VM_HOST_BINS host programs to copy in as well, with their libraries
#                (default "ip pgrep pkill jq": busybox ip cannot name veth
#                peers, busybox here has no pgrep, and the -j tests parse
#                with jq)
#   VM_SHELL     the guest's /bin/sh: "dash" (default, copied from this
#                machine) or "busybox". Debian's busybox sh runs its own
#                applets ahead of anything on PATH, so under it "ip" would
#                always be busybox ip; dash looks PATH up like a normal
#                system does, and all other commands still come from busybox.
#   VM_QEMU      qemu binary (default qemu-system-x86_64)
#   VM_APPEND    extra kernel command line
#   VM_ACCEL     qemu -accel value (default "tcg,thread=single": with one
#                host thread per guest CPU, 6.12 crashed while function_graph
#                was switched on and off; "tcg" for multi-threaded TCG)
#   VM_GUEST_CMD a command line the guest runs with sh instead of the tests
#                (for transcripts and bench runs: its output is printed with
#                the kernel label, and a non-zero exit is a failure)
#   VM_SLOW      factor for the tests' wait limits in the guest (default 4)
#   VM_ONCE      test files run in one kernel only, VM_ONCE_ON (default
#                "reliability" on 6.1: every exit path of every tool takes
#                ten minutes under TCG, and the paths do not depend on the
#                kernel version the way the tools' sources do)
#   VM_ONCE_ONLY LIVE_ONLY patterns (tests/live/run.sh) for the VM_ONCE files'
#                guest: only the tests that match run there (default: all);
#                a pattern's FILE part also brings that file into the guest
#                ("kprobe/exit_*": kprobe's exit paths run there as well)
#   VM_ONLY      LIVE_ONLY patterns for every other guest (default: all on
#                the VM_FULL kernels, VM_SPECIFIC on the others); when given,
#                every kernel runs these
#   VM_SKIP      LIVE_SKIP patterns for every other guest: tests left out
#                there ("*/exit_*": the exit paths, in the VM_ONCE guest only)
#   VM_JOBS      guests booted side by side (default 2: single-threaded TCG
#                keeps one host core busy per guest, and this machine has two);
#                each takes the next boot not yet taken: the VM_ONCE files'
#                guest first, then one per kernel
#   VM_LOCK      lock file that lets one guest at a time run on this machine,
#                across all runs (default /run/lock/ftt-vm-qemu.lock; "none"
#                to run guests side by side)
#
# A single-threaded TCG guest keeps one host core busy. More guests than
# cores all crawl, and then the timeouts mean nothing, so guests take turns
# through VM_JOBS lock slots (VM_LOCK, VM_LOCK.1, ...), across all runs on the
# machine: VM_TIMEOUT counts from the moment a guest gets its slot.
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
# event probes (cap_broken_for). 6.1 and 6.12 run VM_SPECIFIC, the tests
# whose path or answer depends on what the kernel offers:
#   execsnoop, opensnoop  args, fail_args, open, rungs, broken_rung: which
#                capture rungs the kernel has and which are broken (an event
#                probe on 6.1pr, cap_broken_for)
#   funccount    all: the counting path (profiler or kprobe_profile) and the
#                kernel's function list
#   funcgraph    nesting, maxdepth_1, no_duration_tail_headers, pid_filter,
#                json: the function_graph tracer's options and text
#   kprobe       fetchargs ($argN, named return values, strings), the
#                kernel's error_log messages, the format view
#   iolatency    the in-kernel histogram (-K, hist triggers) or its refusal,
#                partitions, the -K counts across renewals (in_kernel_*)
#   iosnoop      write_exact, queue_time, pid_filter: the block events and
#                which one carries the submitting process
#   tcpretrans   tcp_retransmit_skb and the tail loss probe, IPv4 and IPv6
#   tpoint       the syscall events' formats, the format view, error_log
# reliability runs on 6.1 alone (VM_ONCE).
#
# What a run on an empty cache pays first, measured on the 2-core CI machine
# with other builds and guests running (load average 6 to 10): the five
# Debian kernels, 82 s to download and unpack; 6.1pf, 34 s to fetch the
# source and build tools and configure, then 1719 s to build at -j2 (13.4
# min user and 1.9 min system CPU, so about 8 minutes on two idle cores).
# The build runs in its guest's job slot, beside the other slot's guests,
# which is why 6.1pf comes first in VM_KERNELS. Later runs find kernel.ok
# and pay nothing. The guest run of every test on 6.1pf, split in two guests
# side by side beside other work: funcgraph, funccount, kprobe and tpoint
# 972 s (their VM_SPECIFIC tests 237 s of it); execsnoop, opensnoop,
# iolatency, iosnoop and tcpretrans did not end within VM_TIMEOUT (1800 s).
#
# Under TCG, turning on the function or function_graph tracer on 5.10 takes
# about a minute (every call site is patched, and each patch throws away
# translated code), long enough for the soft lockup and RCU stall detectors
# to fire. Those reports say nothing about the tools, so the guest runs with
# them off; real hangs still end in the timeout.

set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
VM_KERNELS=${VM_KERNELS:-"6.1pf 5.10 7.3 6.1 6.12 6.1pr"}
VM_FULL=${VM_FULL-"5.10 7.3"}
VM_SPECIFIC=${VM_SPECIFIC-"execsnoop/args execsnoop/fail_args execsnoop/rungs
	execsnoop/broken_rung opensnoop/open opensnoop/rungs opensnoop/broken_rung
	funccount/* funcgraph/nesting funcgraph/maxdepth_1 funcgraph/two_globs
	funcgraph/user_lists_kept funcgraph/journal_later_user
	funcgraph/no_duration_tail_headers funcgraph/pid_filter funcgraph/json
	kprobe/string_filter kprobe/retval_named kprobe/argn kprobe/view
	kprobe/kernel_error kprobe/kernel_error_user_log kprobe/json_ret
	iolatency/dev_partition iolatency/known_latency iolatency/in_kernel_*
	iolatency/kernel_refused iolatency/kernel_reaped iolatency/kernel_flush
	iolatency/flush iosnoop/flush
	iosnoop/write_exact iosnoop/queue_time iosnoop/pid_filter
	tcpretrans/syn_sent_ipv4 tcpretrans/established_ipv6 tcpretrans/tlp_*
	tpoint/syscalls tpoint/json_syscall tpoint/view_format tpoint/user_error_log"}
VM_SPECIFIC_PR=${VM_SPECIFIC_PR-"execsnoop/args execsnoop/fail_args execsnoop/rungs
	execsnoop/broken_rung opensnoop/open opensnoop/rungs opensnoop/broken_rung"}
VM_SPECIFIC_PF=${VM_SPECIFIC_PF-"funccount/* funcgraph/nesting funcgraph/maxdepth_1
	funcgraph/no_duration_tail_headers funcgraph/pid_filter funcgraph/json
	funcgraph/two_globs funcgraph/user_lists_kept funcgraph/journal_later_user
	kprobe/string_filter kprobe/retval_named kprobe/argn kprobe/view
	kprobe/kernel_error kprobe/kernel_error_user_log kprobe/json_ret
	execsnoop/args opensnoop/open iosnoop/write_exact iosnoop/flush
	iolatency/flush tcpretrans/syn_sent_ipv4 tpoint/syscalls"}
VM_CACHE=${VM_CACHE:-/var/cache/ftt-vm}
VM_REFRESH=${VM_REFRESH:-0}
VM_TIMEOUT=${VM_TIMEOUT:-2700}
VM_OUT=${VM_OUT:-$TOP/build/vm}
VM_STATIC=${VM_STATIC:-0}
VM_MODULES=${VM_MODULES:-"null_blk veth loop"}
VM_HOST_BINS=${VM_HOST_BINS-ip pgrep pkill jq}
VM_SHELL=${VM_SHELL:-dash}
VM_QEMU=${VM_QEMU:-qemu-system-x86_64}
VM_APPEND=${VM_APPEND:-}
VM_ACCEL=${VM_ACCEL:-tcg,thread=single}
VM_GUEST_CMD=${VM_GUEST_CMD:-}
VM_PLAN=${VM_PLAN:-0}
VM_JOBS=${VM_JOBS:-2}
command -v flock > /dev/null 2>&1 || VM_JOBS=1	# the job queue needs flock
NL='
'
VM_ONCE=${VM_ONCE-reliability}
VM_ONCE_ONLY=${VM_ONCE_ONLY:-}
VM_ONCE_ON=${VM_ONCE_ON:-6.1}
VM_LOCK=${VM_LOCK:-/run/lock/ftt-vm-qemu.lock}
BUSYBOX=${VM_BUSYBOX:-/bin/busybox}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# where the binaries live inside the guest; also first on the guest's PATH
GUEST_BIN=/ftt/bin

# unique marker lines around the guest's test output
TOKEN="ftt-vm-$$-$(date +%s)"

say() { echo "vm: $*"; }
die() { echo "FAIL vm: $*"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

# ---------------------------------------------------------------------------
# host checks: a missing tool is a failure with a clear message, not a skip

[ "$(id -u)" = 0 ] || die "must run as root (mknod, the shared cache in $VM_CACHE)"
command -v "$VM_QEMU" >/dev/null 2>&1 ||
	die "$VM_QEMU not found (apt-get install qemu-system-x86)"
for t in apt-get apt-cache dpkg cpio gzip depmod xz ldd timeout; do
	command -v $t >/dev/null 2>&1 || die "host tool '$t' not found"
done
[ -x "$BUSYBOX" ] || die "$BUSYBOX not found (apt-get install busybox-static)"
# a dynamic busybox would need its libraries in the guest too
ldd "$BUSYBOX" >/dev/null 2>&1 &&
	die "$BUSYBOX is not static (apt-get install busybox-static)"
case $VM_SHELL in
busybox) ;;
dash) [ -x /bin/dash ] || die "/bin/dash not found (or use VM_SHELL=busybox)" ;;
*) die "VM_SHELL must be dash or busybox" ;;
esac

# ---------------------------------------------------------------------------
# the Debian mirrors: by default the ones apt on this machine already uses

# mirror_from_apt - print the first URI in the apt sources ending in /$1
mirror_from_apt() {
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
	sed -n -e 's/^URIs:[[:space:]]*//p' \
		-e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]*\)\{0,1\}//p' |
	tr ' \t' '\n\n' | grep -E "^(https?|file)://.*/$1/?\$" | head -n 1 |
	sed 's,/$,,'
}

MIRROR=${VM_MIRROR:-$(mirror_from_apt debian)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY=${VM_SECURITY:-$(mirror_from_apt debian-security)}
SECURITY=${SECURITY:-${MIRROR}-security}

# suite_for - the Debian release that ships kernel series $1
suite_for() {
	case $1 in
	4.19) echo buster ;;
	5.10) echo bullseye ;;
	6.1) echo bookworm ;;
	6.12) echo trixie ;;
	7.3) echo trixie-backports ;;
	*) return 1 ;;
	esac
}

# cap_broken_for NAME - the capture rungs (common/ladder.h) that kernel NAME
# offers but that read wrong values, comma-separated: the guest's tests leave
# them out of what a run must use, and check that forcing one fails its check
# (tests/lib.sh cap_rungs). Checked by hand:
#   6.1pr  an event probe on syscalls:sys_enter_openat reads $filename as the
#          pointer's low byte sign-extended (0xffffffffffffff88 for
#          0x7fff61c5ef88) and every string as (fault); the same probe on
#          6.1.0-56 reads both right
#   6.1pf  built from the same 6.1.176 source: the event probe fails the
#          tools' startup check ("no value for the call") the same way
#   7.3    the syscall events' own strings have each control byte replaced
#          by '.': a path "/proc/x-<TAB>y" is recorded as "/proc/x-.y"
cap_broken_for() {
	case $1 in
	6.1pr|6.1pf) echo eprobe ;;
	7.3) echo syscall ;;
	esac
}

# features_for NAME - the tracing features kernel NAME has, checked by hand in
# its config and tracefs: a guest test that skips for want of one of them is a
# failure (skip_check), not a skip
#   kprobes    CONFIG_KPROBE_EVENTS: kprobe_events
#   uprobes    CONFIG_UPROBE_EVENTS: uprobe_events
#   fgraph     the function_graph tracer
#   function   the function tracer
#   profiler   the function profiler (function_profile_enabled)
#   hist       hist triggers with .buckets (6.1+)
#   eprobes    event probes (5.15+)
#   nullblk    the null_blk module with configfs
#   ipv6       IPv6
#   errorlog   tracefs error_log
# The syscall events' own strings (6.19+) are left out: 7.3 has them, but they
# are a broken rung there (cap_broken_for), so no test depends on them.
features_for() {
	case $1 in
	5.10) echo kprobes uprobes fgraph function nullblk ipv6 errorlog ;;
	6.1|6.1pr|6.12|7.3) echo kprobes uprobes fgraph function hist eprobes nullblk ipv6 errorlog ;;
	6.1pf) echo kprobes uprobes fgraph function profiler hist eprobes nullblk ipv6 errorlog ;;
	esac
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
# a private apt in a directory of the cache: own sources, lists, caches and
# an empty dpkg status, so nothing from this machine's apt setup (other
# repos, pins) leaks in

# apt_opts APT - the apt-get and apt-cache options of the private apt in APT
# (word-split by the caller: $VM_CACHE holds no blanks)
apt_opts() {
	echo "-o Dir::Etc::SourceList=$1/sources.list -o Dir::Etc::SourceParts=$1/parts" \
		"-o Dir::Etc::PreferencesParts=$1/parts -o Dir::Etc::Preferences=$1/parts/none" \
		"-o Dir::State::Lists=$1/lists -o Dir::State::status=/dev/null" \
		"-o Dir::Cache=$1/cache -o Dir::Cache::Archives=$1/archives" \
		"-o APT::Sandbox::User=root -o Debug::NoLocking=1"
}

# apt_update LABEL APT SUITE SECURITY - make the private apt in APT for SUITE
# of $MIRROR (and SUITE-security of the mirror SECURITY unless that is
# "none"), and read its lists; a failure is one FAIL line and status 1
apt_update() {
	case $2 in *[[:space:]]*)
		echo "[$1] FAIL vm/fetch: the cache path '$2' has blanks"; return 1 ;;
	esac
	mkdir -p "$2/lists/partial" "$2/archives/partial" "$2/cache" \
		"$2/parts" "$2/debs" ||
		{ echo "[$1] FAIL vm/fetch: cannot create $2"; return 1; }
	{
		echo "deb [signed-by=$KEYRING] $MIRROR $3 main"
		[ "$4" = none ] ||
			echo "deb [signed-by=$KEYRING] $4 $3-security main"
	} > "$2/sources.list"
	say "[$1] apt-get update ($3 from $MIRROR)"
	apt-get $(apt_opts "$2") --error-on=any -q update > "$2/update.log" 2>&1 && return 0
	echo "[$1] FAIL vm/fetch: cannot reach the Debian archive $MIRROR for $3"
	sed 's/^/    /' "$2/update.log" | tail -n 10
	return 1
}

# ---------------------------------------------------------------------------
# fetch_kernel LABEL VER SUITE SECURITY - make $VM_CACHE/LABEL/root hold
# the unpacked newest linux-image-VER*-amd64 from SUITE, and from
# SUITE-security on the mirror SECURITY unless that is "none". Since 7.x
# linux-image-ABI-amd64 is a meta package: the kernel is in
# linux-binary-ABI-amd64 (vmlinuz in usr/lib/modules/ABI), the modules in
# linux-modules-ABI-amd64 and modules.builtin in linux-base-ABI-amd64; those
# come along. Sets KDIR, KVER, KPKG.
# A second run finds kernel.ok and touches neither the network nor apt.

fetch_kernel() {
	label=$1 ver=$2 suite=$3 sec=$4
	ferr() { echo "[$label] FAIL vm/fetch: $*"; }
	KDIR=$VM_CACHE/$label
	KVER= KPKG=
	mkdir -p "$KDIR" || { ferr "cannot create $KDIR"; return 1; }
	if [ -s "$KDIR/kernel.ok" ] && [ "$VM_REFRESH" != 1 ]; then
		read -r KVER KPKG < "$KDIR/kernel.ok"
		return 0
	fi

	apt=$KDIR/apt
	apt_update "$label" "$apt" "$suite" "$sec" || return 1
	set -- $(apt_opts "$apt")

	# newest ABI first: linux-image-5.10.0-46-amd64, 6.12.48+deb13-amd64;
	# only ".N", "-N" or "+debN" may follow the series, so 6.1 is not 6.12
	re=$(echo "$ver" | sed 's/\./\\./g')
	abis=$(apt-cache "$@" pkgnames linux-image- |
		sed -n -E "s/^linux-image-($re(\.[0-9]+)*(-[0-9]+|\+deb[0-9]+))-amd64(-unsigned)?\$/\1/p" |
		sort -u -V -r)
	[ -n "$abis" ] || { ferr "no linux-image-$ver*-amd64 in $suite"; return 1; }

	# the unsigned and the signed package carry the same kernel and
	# modules; take whichever the archive really has
	rm -f "$apt/debs"/*.deb
	for abi in $abis; do
		for pkg in linux-image-$abi-amd64-unsigned linux-image-$abi-amd64; do
			if [ -s "$KDIR/kernel.ok" ] &&
			   [ "$(cut -d' ' -f2 "$KDIR/kernel.ok")" = "$pkg" ]; then
				read -r KVER KPKG < "$KDIR/kernel.ok"
				say "[$label] $pkg is still the newest"
				return 0
			fi
			(cd "$apt/debs" && apt-get "$@" -q download "$pkg") \
				> "$apt/download.log" 2>&1 && { KPKG=$pkg; break 2; }
		done
	done
	deb=$(ls "$apt/debs"/*.deb 2>/dev/null | head -n 1)
	[ -n "$KPKG" ] && [ -n "$deb" ] || {
		ferr "apt-get download failed for linux-image-$ver in $suite"
		sed 's/^/    /' "$apt/download.log" | tail -n 10
		return 1
	}
	# the packages a 7.x meta package stands for: the names in its
	# Depends that carry its ABI, without the version constraints
	are=$(echo "$abi" | sed 's/[.+]/\\&/g')
	parts=$(dpkg-deb -f "$deb" Depends | tr ',|' '\n\n' |
		sed -n -E "s/^[[:space:]]*(linux-(binary|binary-unsigned|modules|base)-$are-amd64)([[:space:]].*)?\$/\1/p")
	if [ -n "$parts" ]; then
		(cd "$apt/debs" && apt-get "$@" -q download $parts) \
			> "$apt/download.log" 2>&1 || {
			ferr "apt-get download failed for" $parts
			sed 's/^/    /' "$apt/download.log" | tail -n 10
			return 1
		}
	fi

	# unpack next to the old tree, then swap, so an interrupted run never
	# leaves a half tree behind kernel.ok
	rm -rf "$KDIR/root.new"
	for d in "$apt/debs"/*.deb; do
		dpkg -x "$d" "$KDIR/root.new" || { ferr "dpkg -x $d failed"; return 1; }
	done
	r=$KDIR/root.new
	# trixie and later ship the modules under usr/lib/modules
	if [ -d "$r/usr/lib/modules" ] && [ ! -d "$r/lib/modules" ]; then
		mkdir -p "$r/lib"
		mv "$r/usr/lib/modules" "$r/lib/modules"
	fi
	KVER=$(ls "$r/lib/modules" | head -n 1)
	# 7.x keeps vmlinuz beside the modules; boot_kernel takes it from boot/
	if [ -n "$KVER" ] && [ ! -f "$r/boot/vmlinuz-$KVER" ] &&
	   [ -f "$r/lib/modules/$KVER/vmlinuz" ]; then
		mkdir -p "$r/boot"
		mv "$r/lib/modules/$KVER/vmlinuz" "$r/boot/vmlinuz-$KVER"
	fi
	[ -n "$KVER" ] && [ -f "$r/boot/vmlinuz-$KVER" ] ||
		{ ferr "no vmlinuz or modules in $deb $parts"; return 1; }
	# compressed modules: busybox modprobe wants plain .ko files
	find "$r/lib/modules" -name '*.ko.xz' -exec xz -d {} + ||
		{ ferr "cannot decompress the modules"; return 1; }
	if find "$r/lib/modules" -name '*.ko.zst' | grep -q .; then
		find "$r/lib/modules" -name '*.ko.zst' \
			-exec zstd -q -d --rm {} + ||
			{ ferr "cannot decompress the modules"; return 1; }
	fi
	depmod -b "$r" "$KVER" || { ferr "depmod failed"; return 1; }

	rm -rf "$KDIR/root"
	mv "$r" "$KDIR/root"
	rm -f "$apt/debs"/*.deb
	echo "$KVER $KPKG" > "$KDIR/kernel.ok"
}

# ---------------------------------------------------------------------------
# build_kernel LABEL VER SUITE - make $VM_CACHE/LABEL/root hold a kernel
# built here from Debian's linux-source-VER of SUITE, configured for tracing
# the way Ubuntu's and Fedora's kernels are (the function profiler among it,
# which no Debian kernel has). The source package and the build tools this
# machine may lack (flex, bison, the libelf headers) are fetched with a
# private apt as fetch_kernel does and unpacked in the cache, never installed.
# The tree is kept, so a failed build resumes where it stopped; kernel.ok
# marks a finished one. Sets KDIR, KVER, KPKG.

# the options that must be =y, checked in the final .config: the tracing
# of Ubuntu's and Fedora's kernels, and what the guest and the tests use
PF_WANT="64BIT SMP PRINTK TTY SERIAL_8250 SERIAL_8250_CONSOLE UNIX98_PTYS
	BLK_DEV_INITRD RD_GZIP BINFMT_ELF BINFMT_SCRIPT PROC_FS PROC_SYSCTL
	SYSFS TMPFS DEVTMPFS CONFIGFS_FS MULTIUSER FUTEX EPOLL SIGNALFD
	TIMERFD EVENTFD FILE_LOCKING POSIX_TIMERS SHMEM AIO ADVISE_SYSCALLS
	MEMBARRIER RSEQ INOTIFY_USER FHANDLE SYSVIPC PCI ACPI PERF_EVENTS
	HIGH_RES_TIMERS NO_HZ_IDLE STACKTRACE IKCONFIG IKCONFIG_PROC CGROUPS
	NAMESPACES NET_NS PID_NS UTS_NS IPC_NS USER_NS MODULES MODULE_UNLOAD
	BLOCK BLK_DEV PARTITION_ADVANCED MSDOS_PARTITION NET INET IPV6 UNIX
	PACKET SYN_COOKIES NETDEVICES NET_CORE UNWINDER_ORC KALLSYMS
	KALLSYMS_ALL DEBUG_FS FTRACE TRACING FUNCTION_TRACER
	FUNCTION_GRAPH_TRACER DYNAMIC_FTRACE DYNAMIC_FTRACE_WITH_REGS
	FUNCTION_PROFILER STACK_TRACER FTRACE_SYSCALLS TRACER_SNAPSHOT
	BLK_DEV_IO_TRACE KPROBES KPROBE_EVENTS UPROBES UPROBE_EVENTS
	DYNAMIC_EVENTS PROBE_EVENTS SYNTH_EVENTS HIST_TRIGGERS FPROBE"
# the options that must be =m: the modules the guest loads (VM_MODULES)
PF_MODULES="BLK_DEV_NULL_BLK VETH BLK_DEV_LOOP"

build_kernel() {
	label=$1 ver=$2 suite=$3
	berr() { echo "[$label] FAIL vm/fetch: $*"; }
	KDIR=$VM_CACHE/$label
	KVER= KPKG=
	mkdir -p "$KDIR" || { berr "cannot create $KDIR"; return 1; }
	# the configuration asked for; a kernel built from another is rebuilt
	key=$(echo "tinyconfig $PF_WANT $PF_MODULES" | cksum | cut -d' ' -f1)
	if [ -s "$KDIR/kernel.ok" ] &&
	   [ "$(cat "$KDIR/config.key" 2>/dev/null)" = "$key" ]; then
		read -r KVER KPKG < "$KDIR/kernel.ok"
		return 0
	fi
	for t in make gcc bc perl m4 tar; do
		command -v $t >/dev/null 2>&1 ||
			{ berr "host tool '$t' not found (needed to build $label)"; return 1; }
	done

	apt=$KDIR/apt
	src=$KDIR/src
	tools=$KDIR/tools
	log=$KDIR/build.log
	if [ ! -s "$src/Makefile" ] || [ ! -x "$tools/usr/bin/flex" ]; then
		apt_update "$label" "$apt" "$suite" none || return 1
		set -- $(apt_opts "$apt")
		rm -f "$apt/debs"/*.deb
		if ! (cd "$apt/debs" && apt-get "$@" -q download \
			"linux-source-$ver" flex bison libelf-dev libelf1) \
			> "$apt/download.log" 2>&1; then
			berr "apt-get download failed for linux-source-$ver in $suite"
			sed 's/^/    /' "$apt/download.log" | tail -n 10
			return 1
		fi
		rm -rf "$tools" "$src" "$KDIR/pkg"
		for d in "$apt/debs"/*.deb; do
			case $d in
			*/linux-source-*) dpkg -x "$d" "$KDIR/pkg" ;;
			*) dpkg -x "$d" "$tools" ;;
			esac || { berr "dpkg -x $d failed"; return 1; }
		done
		KPKG=$(basename "$(ls "$apt/debs"/linux-source-*.deb)" .deb | sed 's/_amd64$\|_all$//')
		mkdir -p "$src" &&
		tar -xf "$KDIR"/pkg/usr/src/linux-source-$ver.tar.* -C "$src" \
			--strip-components=1 ||
			{ berr "cannot unpack the kernel source"; return 1; }
		echo "$KPKG" > "$src/.ftt-pkg"
		rm -rf "$KDIR/pkg" "$apt/debs"/*.deb
	fi
	KPKG=$(cat "$src/.ftt-pkg")

	# the private build tools first on PATH; objtool links libelf from them
	export PATH="$tools/usr/bin:$PATH"
	export BISON_PKGDATADIR="$tools/usr/share/bison"
	lib=$tools/usr/lib/x86_64-linux-gnu
	mk() {
		make -C "$src" HOSTCFLAGS="-I$tools/usr/include" \
			HOSTLDFLAGS="-L$lib -Wl,-rpath-link,$lib" "$@" >> "$log" 2>&1
	}

	t0=$(date +%s)
	: > "$log"
	if [ ! -s "$src/.config" ] ||
	   [ "$(cat "$src/.ftt-config" 2>/dev/null)" != "$key" ]; then
		say "[$label] configuring $KPKG"
		mk ARCH=x86_64 tinyconfig || { berr "make tinyconfig failed (log: $log)"; tail -n 20 "$log" | sed 's/^/    /'; return 1; }
		set --
		for o in $PF_WANT; do set -- "$@" -e "$o"; done
		for o in $PF_MODULES; do set -- "$@" -m "$o"; done
		"$src/scripts/config" --file "$src/.config" "$@" \
			-d UNWINDER_GUESS -d UNWINDER_FRAME_POINTER \
			-d DEBUG_INFO -d DEBUG_INFO_BTF -d MODULE_SIG -d LOCALVERSION_AUTO \
			--set-str LOCALVERSION "-ftt-pf" \
			--set-str SYSTEM_TRUSTED_KEYS "" ||
			{ berr "scripts/config failed"; return 1; }
		mk olddefconfig || { berr "make olddefconfig failed (log: $log)"; return 1; }
		echo "$key" > "$src/.ftt-config"
	fi
	# every wanted option as asked, or the kernel is not the one the
	# features_for line describes
	bad=
	for o in $PF_WANT; do
		grep -q "^CONFIG_$o=y\$" "$src/.config" || bad="$bad $o"
	done
	for o in $PF_MODULES; do
		grep -q "^CONFIG_$o=m\$" "$src/.config" || bad="$bad $o(m)"
	done
	[ -z "$bad" ] || { berr "the kernel configuration lacks:$bad (in $src/.config)"; return 1; }

	say "[$label] building $KPKG with -j${VM_BUILD_JOBS:-2} (log: $log)"
	mk -j"${VM_BUILD_JOBS:-2}" bzImage modules ||
		{ berr "the kernel build failed (log: $log)"; tail -n 20 "$log" | sed 's/^/    /'; return 1; }
	KVER=$(make -s -C "$src" kernelrelease 2>/dev/null)
	[ -n "$KVER" ] || { berr "no kernel release from $src"; return 1; }
	r=$KDIR/root.new
	rm -rf "$r"
	mkdir -p "$r/boot" &&
	cp "$src/arch/x86/boot/bzImage" "$r/boot/vmlinuz-$KVER" &&
	mk INSTALL_MOD_PATH="$r" INSTALL_MOD_STRIP=1 DEPMOD=/bin/true modules_install ||
		{ berr "cannot install the kernel and modules"; return 1; }
	depmod -b "$r" "$KVER" || { berr "depmod failed"; return 1; }
	rm -rf "$KDIR/root"
	mv "$r" "$KDIR/root"
	t1=$(date +%s)
	say "[$label] built $KVER in $((t1 - t0)) s"
	echo "$key" > "$KDIR/config.key"
	echo "$KVER $KPKG" > "$KDIR/kernel.ok"
}

# ---------------------------------------------------------------------------
# initramfs, in two gzip cpio parts that the kernel unpacks one after the
# other: a base part per kernel (busybox, modules; cached) and a run part
# shared by all kernels (/init, tests, binaries; rebuilt every run)

# mkcpio DIR OUT - pack DIR as a gzip newc cpio owned by root
mkcpio() {
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 > "$2"
}

# module_closure MODDIR NAME... - print the modules.dep paths of the named
# modules and everything they depend on
module_closure() {
	dir=$1
	shift
	awk -v want="$*" '
	function base(p) { sub(/.*\//, "", p); sub(/\.ko.*$/, "", p); gsub(/-/, "_", p); return p }
	BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) { x = w[i]; gsub(/-/, "_", x); need[x] = 1 } }
	{ sub(/:$/, "", $1); path[base($1)] = $1; deps[base($1)] = "" ; for (i = 2; i <= NF; i++) deps[base($1)] = deps[base($1)] " " $i }
	END {
		for (m in need) todo[m] = 1
		do {
			more = 0
			for (m in todo) {
				delete todo[m]
				if (!(m in path)) { print "missing " m; continue }
				if (m in done) continue
				done[m] = 1; print path[m]
				n = split(deps[m], d, " ")
				for (i = 1; i <= n; i++) if (!(base(d[i]) in done)) { todo[base(d[i])] = 1; more = 1 }
			}
		} while (more)
	}' "$dir/modules.dep"
}

# build_base NAME [LABEL] - set BASECPIO to the base part for the kernel in
# KDIR/KVER, building it unless a part with the same inputs exists. The
# name carries a checksum of the inputs, and a new part is written aside and
# renamed into place, so runs sharing $VM_OUT never see half a file.
build_base() {
	out=$VM_OUT/$1
	key="$KVER $KPKG|$VM_MODULES|$VM_SHELL|$(cksum < "$BUSYBOX")|$(cksum < "$0")"
	BASECPIO=$out/base-$(echo "$key" | cksum | cut -d' ' -f1).cpio.gz
	[ -s "$BASECPIO" ] && return 0
	s=$WORK/base-${2:-$1}	# scratch per boot: two boots of one kernel may build at once
	rm -rf "$s"
	mkdir -p "$out" "$s/bin" "$s/lib/modules/$KVER" "$s/etc" "$s/dev" \
		"$s/proc" "$s/sys" "$s/tmp" "$s/run" "$s/root" "$s/mnt" "$s/usr" || return 1
	# busybox and every applet as a link in /bin; sbin and usr/* point there
	cp "$BUSYBOX" "$s/bin/busybox"
	for a in $("$BUSYBOX" --list); do
		[ "$a" = busybox ] || ln -s busybox "$s/bin/$a"
	done
	if [ "$VM_SHELL" = dash ]; then
		rm "$s/bin/sh"
		copy_with_libs /bin/dash /bin/dash "$s" || return 1
		ln -s dash "$s/bin/sh"
	fi
	ln -s bin "$s/sbin"
	ln -s ../bin "$s/usr/bin"
	ln -s ../bin "$s/usr/sbin"
	mknod "$s/dev/console" c 5 1
	mknod "$s/dev/null" c 1 3
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' > "$s/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' > "$s/etc/group"

	# the wanted modules with their dependencies, at the paths modules.dep
	# names, then depmod on that root so "modprobe null_blk" works
	src=$KDIR/root/lib/modules/$KVER
	dst=$s/lib/modules/$KVER
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[ -f "$src/$f" ] && cp "$src/$f" "$dst/"
	done
	for m in $(module_closure "$src" $VM_MODULES | tr ' ' '@'); do
		case $m in
		missing@*)
			m=${m#missing@}
			# built in is as good as a module for the tests
			if grep -Eq "/${m}\.ko\$" "$src/modules.builtin" 2>/dev/null ||
			   grep -Eq "/$(echo "$m" | tr _ -)\.ko\$" "$src/modules.builtin" 2>/dev/null; then
				say "[$1] module $m is built into $KVER"
			else
				say "[$1] warning: module $m not found in $KVER"
			fi
			;;
		*)
			mkdir -p "$dst/$(dirname "$m")"
			cp "$src/$m" "$dst/$m"
			;;
		esac
	done
	depmod -b "$s" "$KVER" || return 1
	mkcpio "$s" "$s.cpio.gz" || return 1
	mv "$s.cpio.gz" "$BASECPIO" || return 1
	rm -rf "$s"
}

# copy_with_libs FILE DEST ROOT - copy FILE to ROOT/DEST and the shared
# libraries and loader ldd lists for it to the same paths under ROOT
copy_with_libs() {
	mkdir -p "$3$(dirname "$2")"
	cp -L "$1" "$3$2" || return 1
	ldd "$1" 2>/dev/null | sed -n -e 's/.*=> \(\/[^ ]*\) .*/\1/p' \
		-e 's/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' |
	while read -r lib; do
		[ -e "$3$lib" ] && continue
		mkdir -p "$3$(dirname "$lib")"
		cp -L "$lib" "$3$lib"
	done
}

# build_run - $RUNCPIO with /init, /tests and the suite's binaries
build_run() {
	s=$WORK/run
	mkdir -p "$s$GUEST_BIN" || return 1

	# the suite's binaries: the dynamic ones from "make" with the libraries
	# they need, or with VM_STATIC=1 the self-contained ones from
	# "make static" (bin/static/*)
	if [ "$VM_STATIC" = 1 ]; then
		bindir=$TOP/bin/static
	else
		bindir=$TOP/bin
	fi
	nbin=0
	for f in "$bindir"/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		copy_with_libs "$f" "$GUEST_BIN/$(basename "$f")" "$s" || return 1
		nbin=$((nbin + 1))
	done
	[ $nbin -gt 0 ] || say "warning: no executables in $bindir (run make first)"
	# libtraceevent loads its plugins with dlopen, which ldd does not see
	for d in /usr/lib/x86_64-linux-gnu/traceevent/plugins; do
		[ -d "$d" ] || continue
		for f in "$d"/*.so; do
			[ -f "$f" ] && copy_with_libs "$f" "$f" "$s"
		done
	done
	# host programs the tests may use, e.g. iproute2's ip for veth pairs
	for p in $VM_HOST_BINS; do
		f=$(command -v "$p") || { say "warning: host program $p not found"; continue; }
		copy_with_libs "$f" "/usr/local/bin/$(basename "$p")" "$s" || return 1
	done

	# the whole tests/ tree, for tests/live/run.sh and tests/lib.sh, with
	# the workload programs "make" built into tests/bin (from tests/workloads
	# and tests/preload): most are static, but the .dyn copies and the
	# preload library are not, so each comes with the libraries ldd lists
	cp -R "$TOP/tests" "$s/tests" || return 1
	for f in "$TOP"/tests/bin/*; do
		[ -f "$f" ] || continue
		copy_with_libs "$f" "/tests/bin/$(basename "$f")" "$s" || return 1
	done

	# /init runs the tests with the kernel's messages kept off the console,
	# then shows what the kernel logged meanwhile, outside the markers.
	# A minute before the host's timeout (counted from when the tests
	# start, which is a few seconds after qemu does) /hang-report runs.
	hang=$((VM_TIMEOUT - 60))
	[ $hang -ge $((VM_TIMEOUT * 3 / 4)) ] || hang=$((VM_TIMEOUT * 3 / 4))
	cat > "$s/init" <<-EOF
	#!/bin/sh
	# end the line the firmware left on the console
	echo
	export PATH=$GUEST_BIN:/usr/local/bin:/bin
	export HOME=/root TERM=dumb
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	mkdir -p /dev/pts /dev/shm
	mount -t devpts devpts /dev/pts
	mount -t tmpfs tmpfs /dev/shm
	mount -t tmpfs tmpfs /tmp
	mount -t tmpfs tmpfs /run
	mount -t tracefs tracefs /sys/kernel/tracing
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	ip link set lo up
	hostname ftt-vm
	dmesg -n 1
	echo 0 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
	# the ring buffer starts small and grows to its real size the first
	# time a tracer is set; do that now, or the first test to trace
	# would see buffer_size_kb change under it
	echo nop > /sys/kernel/tracing/current_tracer
	echo "ftt-vm: kernel \$(uname -r) up at \$(cut -d' ' -f1 /proc/uptime) s"
	before=\$(dmesg | wc -l)
	echo "@@BEGIN $TOKEN@@"
	# every wait limit of the tests is stretched: TCG runs several times slower
	export SLOW=${VM_SLOW:-4}
	( sleep $hang; sh /hang-report ) &
	watch=\$!
	tests=\$(sed -n 's/.*ftt\.tests=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
	export LIVE_ONLY="\$(sed -n 's/.*ftt\.only=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')"
	export LIVE_SKIP="\$(sed -n 's/.*ftt\.skip=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')"
	export CAP_BROKEN="\$(sed -n 's/.*ftt\.capbroken=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')"
	cd /tmp && sh $GUEST_RUN \$tests < /dev/null 2>&1
	rc=\$?
	kill \$watch 2>/dev/null
	echo "@@END $TOKEN rc=\$rc uptime=\$(cut -d' ' -f1 /proc/uptime)@@"
	dmesg | tail -n +\$((before + 1)) |
		grep -E 'WARNING:|BUG:|Oops|general protection|Call Trace|RIP:|lockup|hung task' |
		head -n 40 | sed 's/^/@@KLOG /'
	sync
	poweroff -f
	EOF
	chmod 755 "$s/init"
	if [ -n "$VM_GUEST_CMD" ]; then
		printf '%s\n' "$VM_GUEST_CMD" > "$s/guest-cmd" || return 1
	fi

	# /hang-report runs in the guest shortly before the host gives up on
	# it: which test is running, and what the busy processes are doing in
	# the kernel, so a timeout says more than "timed out"
	cat > "$s/hang-report" <<-'EOF'
	#!/bin/sh
	echo "@@HANG still running at $(cut -d' ' -f1 /proc/uptime) s," \
		"current_tracer $(cat /sys/kernel/tracing/current_tracer)"
	t=$(ls -td /tmp/ftt-live.*/*/ 2>/dev/null | head -n 1)
	if [ -n "$t" ]; then
		echo "@@HANG newest test: $(basename "$t"), its output:"
		tail -n 5 "$t/.log" "$t/err" 2>/dev/null | sed 's/^/@@HANG     /'
	fi
	ps -o pid,ppid,stat,args | sed 's/^/@@HANG /'
	for p in /proc/[0-9]*; do
		st=$(sed 's/.*) \(.\).*/\1/' "$p/stat" 2>/dev/null)
		case $st in
		R|D)
			echo "@@HANG ${p#/proc/} $(cat "$p/comm") ($st) in the kernel:"
			head -n 12 "$p/stack" 2>/dev/null | sed 's/^/@@HANG     /'
			;;
		esac
	done
	EOF
	chmod 755 "$s/hang-report"
	RUNCPIO=$WORK/run.cpio.gz
	mkcpio "$s" "$RUNCPIO"
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
	# one guest at a time on this machine; fd 8 is opened in main
	if [ "$VM_LOCK" != none ] && ! flock -n 8; then
		say "[$label] waiting for another guest to finish ($VM_LOCK)"
		flock 8
	fi
	t0=$(date +%s)
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
	t1=$(date +%s)
	[ "$VM_LOCK" = none ] || flock -u 8
	total=$((t1 - t0))
	rm -f "$initrd"
	cp "$log" "$keep.$$" && mv "$keep.$$" "$keep"

	# what went wrong, if anything, in the order it would have happened
	why=
	up=$(sed -n 's/.*ftt-vm: kernel .* up at \([0-9]*\).*/\1/p' "$log" | head -n 1)
	down=$(sed -n "s/^@@END $TOKEN rc=[0-9]* uptime=\([0-9]*\).*/\1/p" "$log" | head -n 1)
	sum=$(sed -n "/^@@BEGIN $TOKEN@@\$/,/^@@END $TOKEN /p" "$log" |
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

	if [ -n "$up" ] && [ -n "$down" ]; then
		say "[$label] $KVER ($KPKG): boot ${up} s, tests $((down - up)) s, qemu ${total} s"
	else
		say "[$label] $KVER ($KPKG): qemu ${total} s"
	fi
	# the guest's lines, between the markers, labelled
	sed -n "/^@@BEGIN $TOKEN@@\$/,/^@@END $TOKEN /p" "$log" |
		grep -v "^@@" | sed "s/^/[$label] /"
	KFAIL=0
	# kernel trouble logged while the tests ran is a failure too
	if grep -q '^@@KLOG ' "$log"; then
		echo "[$label] FAIL vm/kernel-log [$KVER]"
		sed -n 's/^@@KLOG /    /p' "$log"
		failed=$((failed + 1)) KFAIL=1
	fi
	if [ -n "$why" ]; then
		echo "[$label] FAIL vm/boot [$KVER]: $why (console: $keep)"
		grep -v "^@@" "$log" | tail -n 30 | sed 's/^/    /'
		if grep -q '^@@HANG ' "$log"; then
			echo "    the guest before the timeout:"
			sed -n 's/^@@HANG /    /p' "$log"
		fi
		failed=$((failed + 1))
		KFAIL=1
		return
	fi
	if [ -n "$VM_GUEST_CMD" ]; then
		grc=$(sed -n "s/^@@END $TOKEN rc=\([0-9]*\) .*/\1/p" "$log" | head -n 1)
		if [ "$grc" = 0 ]; then
			passed=$((passed + 1)) KFAIL=0
		else
			echo "[$label] FAIL vm/guest-cmd [$KVER]: exit $grc"
			failed=$((failed + 1)) KFAIL=1
		fi
		return
	fi
	set -- $sum
	passed=$((passed + $1)) failed=$((failed + $3)) skipped=$((skipped + $5))
	[ "$3" -eq 0 ] || KFAIL=1
	# a skip for a feature this kernel has hides the failure it tests
	bad_skips=$(sed -n "/^@@BEGIN $TOKEN@@\$/,/^@@END $TOKEN /p" "$log" | grep -v "^@@" |
		sed "s/^/[$label] /" | skip_check "$label" "${label%%+*}")
	if [ -n "$bad_skips" ]; then
		echo "$bad_skips"
		n=$(echo "$bad_skips" | grep -c .)
		failed=$((failed + n)) skipped=$((skipped - n)) KFAIL=1
	fi
}

# ---------------------------------------------------------------------------

# one_kernel K SLOT TESTS SUFFIX ONLY SKIP - fetch, build and boot kernel K
# ("VER" or "VER:SUITE", VER maybe ending in "pr") on guest lock slot SLOT to
# run the test files TESTS (comma-separated), only the tests matching ONLY
# and none matching SKIP (LIVE_ONLY and LIVE_SKIP patterns, comma-separated;
# "-" for all, and for none); its lines are labelled VER then SUFFIX ("-" for
# none). Adds to passed/failed/skipped and sets KFAIL.
one_kernel() {
	k=$1
	if [ "$VM_LOCK" != none ]; then
		lock=$VM_LOCK
		[ "$2" -gt 0 ] && lock=$VM_LOCK.$2
		exec 8>> "$lock" || { echo "[$k] FAIL vm/lock: cannot open $lock"; failed=$((failed + 1)); return; }
	fi
	# name: the cache directory and label ("6.1pr"); ver: the series ("6.1")
	name=${k%%:*}
	ver=${name%pr}
	ver=${ver%pf}
	suite=${k#*:}
	[ "$suite" = "$k" ] && suite=$(suite_for "$ver")
	# the point release is the suite alone; backports have no security suite
	sec=$SECURITY
	case $name in *pr) sec=none ;; esac
	case $suite in *-backports) sec=none ;; esac
	KTESTS=$3 KONLY=$5 KSKIP=${6:--} KBROKEN=$(cap_broken_for "${k%%:*}")
	[ "$KONLY" = - ] && KONLY=
	[ "$KSKIP" = - ] && KSKIP=
	label=$name
	[ "$4" = - ] || label=$name$4
	mkdir -p "$VM_OUT/$label"
	KFAIL=1
	if [ -z "$suite" ]; then
		echo "[$label] FAIL vm/fetch: no Debian suite known for $ver (use VER:SUITE)"
		failed=$((failed + 1))
	else
		# one fetch at a time per kernel: other runs may share the cache
		t0=$(date +%s)
		(
			command -v flock >/dev/null 2>&1 && flock 9
			case $name in
			*pf) build_kernel "$name" "$ver" "$suite" ;;
			*) fetch_kernel "$name" "$ver" "$suite" "$sec" ;;
			esac
		) 9>"$VM_CACHE/$name.lock"
		frc=$?
		t1=$(date +%s)
		KDIR=$VM_CACHE/$name KVER= KPKG=
		[ $frc -eq 0 ] && read -r KVER KPKG < "$KDIR/kernel.ok"
		if [ -z "$KVER" ]; then
			failed=$((failed + 1))
		else
			[ $((t1 - t0)) -gt 1 ] &&
				say "[$label] fetched $KPKG in $((t1 - t0)) s"
			if build_base "$name" "$label"; then
				boot_kernel "$label"
			else
				echo "[$label] FAIL vm/initramfs [$KVER]: cannot build it"
				failed=$((failed + 1))
			fi
		fi
	fi
}

# the whole run is one function, read in full before it starts, so that
# editing this file cannot upset a run already under way
main() {
	TOOLS="$*"
	if [ -n "$TOOLS" ]; then
		ALL_TESTS=$TOOLS
	else
		ALL_TESTS=$(cd "$TOP/tests/live" && ls *.sh | grep -v '^run\.sh$' | sed 's/\.sh$//')
	fi
	if [ -n "$VM_GUEST_CMD" ]; then
		GUEST_RUN=/guest-cmd
	else
		GUEST_RUN="/tests/live/run.sh $GUEST_BIN"
	fi
	mkdir -p "$VM_CACHE" "$VM_OUT" || die "cannot create $VM_CACHE or $VM_OUT"
	WORK=$(mktemp -d "$VM_OUT/run.XXXXXX") || die "mktemp failed"
	trap 'rm -rf "$WORK"' EXIT
	trap 'kill $(cat "$WORK"/qpid-* 2>/dev/null) 2>/dev/null; echo "FAIL vm: interrupted"; exit 130' INT TERM
	[ "$VM_PLAN" = 1 ] || build_run || die "cannot build the initramfs"
	if [ "$VM_LOCK" != none ]; then
		command -v flock >/dev/null 2>&1 ||
			die "flock not found (util-linux), or set VM_LOCK=none"
	fi

	# the jobs, one boot each: every kernel with the test files less
	# VM_ONCE's, and VM_ONCE's files (only VM_ONCE_ONLY's tests of them) on
	# VM_ONCE_ON alone, first, so that the longest job does not start last
	once= rest= jobs= more=
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
	if [ -n "$once" ] && [ -z "$VM_GUEST_CMD" ]; then
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
	fi
	if [ -n "$rest" ] || [ -n "$VM_GUEST_CMD" ]; then
		for k in $VM_KERNELS; do
			# a kernel outside VM_FULL runs the VM_SPECIFIC tests
			# alone, and only the files they name; VM_ONLY, when
			# given, is what runs everywhere
			files=$rest only=${VM_ONLY:--}
			case " $VM_FULL " in
			*" ${k%%:*} "*|*" all "*) ;;
			*)
				if [ -z "${VM_ONLY:-}" ] && [ -z "$VM_GUEST_CMD" ]; then
					set -f
					spec=$VM_SPECIFIC
					case ${k%%:*} in
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
					[ -n "$files" ] || continue
				fi
				;;
			esac
			jobs="$jobs${jobs:+$NL}$k ${files:--} - $(echo "$only" | tr ' ' ,) $(echo "${VM_SKIP:--}" | tr ' ' ,)"
		done
	fi
	njobs=$(printf '%s\n' "$jobs" | grep -c .)
	if [ "$VM_PLAN" = 1 ]; then
		printf '%s\n' "$jobs" | while read -r k files suf only skip; do
			echo "vm: plan: $k${suf#-}: files $files, only $only, skip $skip"
		done
		return 0
	fi

	passed=0 failed=0 skipped=0 kok=0 kbad=0 bad=
	echo 0 > "$WORK/next"
	# VM_JOBS guests side by side, each on its own lock slot: each slot
	# takes the next job not yet taken; the output is shown in job order
	# once all have ended
	slot=0
	while [ $slot -lt "$VM_JOBS" ]; do
		(
			while :; do
				n=$(
					[ "$VM_JOBS" -le 1 ] || flock 7
					n=$(cat "$WORK/next")
					echo $((n + 1)) > "$WORK/next"
					echo "$n"
				) 7> "$WORK/next.lock"
				[ "$n" -lt "$njobs" ] || break
				job=$(printf '%s\n' "$jobs" | sed -n "$((n + 1))p")
				(
					passed=0 failed=0 skipped=0 KFAIL=1
					set -f	# the job's patterns are for test names, not files
					set -- $job
					set +f
					one_kernel "$1" $slot "$2" "$3" "$4" "${5:--}"
					echo "$passed $failed $skipped $KFAIL" > "$WORK/count-$n"
				) > "$WORK/out-$n" 2>&1
			done
		) &
		slot=$((slot + 1))
	done
	wait
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

	# the failures again, with their reasons, where a log cut to its end shows them
	if [ $failed -ne 0 ] || [ $kbad -ne 0 ]; then
		echo "vm: what failed:"
		cat "$WORK"/out-* | awk '/\] what failed:$/ { again = 1 }
			/ passed, [0-9]+ failed, / { again = 0 } again { next }
			/^\[[^]]*\] FAIL |^FAIL / { show = 1; print; next }
			show && /^\[[^]]*\]     / { print; next } { show = 0 }' | head -n 60
	fi
	# every skip, by reason, with the guests it was seen in
	cat "$WORK"/out-* | sed -n 's/^\[\([^]]*\)\] SKIP [^ ]* \[[^]]*\]: \(.*\)$/\2\t\1/p' |
		sort | awk -F '\t' '{ n[$1]++; if (index(" " g[$1] " ", " " $2 " ") == 0) g[$1] = g[$1] (g[$1] ? " " : "") $2 }
			END { for (r in n) printf "vm: skipped %d x (%s): %s\n", n[r], g[r], r }' | sort
	echo "vm: $((kok + kbad)) guests, $kok ok, $kbad failed${bad:+:$bad}"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ $failed -eq 0 ] && [ $kbad -eq 0 ]
}

main "$@"; exit $?

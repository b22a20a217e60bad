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
#      (build_kernel in kernels.sh): no Debian kernel has the function
#      profiler;
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
#                profiler among them (build_kernel in kernels.sh says
#                which).
#   VM_FULL      kernels that run every test (default "5.10 7.3", "all"
#                for every kernel); the others run VM_SPECIFIC alone, a "pf"
#                kernel VM_SPECIFIC_PF, a "pr" kernel VM_SPECIFIC_PR
#   VM_SPECIFIC  LIVE_ONLY patterns of the kernel-specific tests, the ones
#                every kernel runs (see "Which tests run where" in
#                plan.sh)
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
#   VM_MODULES   modules to put in the initramfs (default "null_blk veth loop ext4 crc32c_generic": loop for the partition tests, ext4 for /var/tmp)
#   VM_HOST_BINS host programs to copy in as well, with their libraries
#                (default "ip pgrep pkill jq": busybox ip cannot name veth
#                peers, busybox here has no pgrep, and the -j tests parse
#                with jq)
#   VM_SHELL     the guest's /bin/sh: "dash" (default, copied from this
#                machine) or "busybox". Debian's busybox sh runs its own
#                applets ahead of anything on PATH, so under it "ip" would
#                always be busybox ip; dash looks PATH up like a normal
#                system does, and all other commands still come from busybox.
#   VM_BUSYBOX   the busybox the guest's commands come from, a static one
#                (default /bin/busybox, from busybox-static)
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
#                to run guests side by side; qemu.sh says why guests take
#                turns)
#
# The run is cut into files beside this one, all read before it starts:
#   kernels.sh    which kernels, where they come from and what each offers;
#                 fetching, building and caching them in VM_CACHE, and what
#                 that costs on an empty cache
#   initramfs.sh  the guest's image: a base part per kernel, and a run part
#                 with /init that all kernels share
#   plan.sh       the guest matrix: which tests run on which kernel, and why
#   qemu.sh       booting the guests, the job queue and the lock slots, the
#                 guest kernel's command line
#   report.sh     reading each guest's console, the totals and the summary
# This file checks the host, runs one job (one_kernel) and the whole run
# (main).

set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
VM_DIR=$(cd "$(dirname "$0")" && pwd)
VM_OUT=${VM_OUT:-$TOP/build/vm}
VM_GUEST_CMD=${VM_GUEST_CMD:-}
VM_PLAN=${VM_PLAN:-0}
NL='
'

# unique marker lines around the guest's test output
TOKEN="ftt-vm-$$-$(date +%s)"

say() { echo "vm: $*"; }
die() { echo "FAIL vm: $*"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

# the parts of the run, beside this file
VM_PARTS="kernels.sh initramfs.sh plan.sh qemu.sh report.sh"
for part in $VM_PARTS; do
	. "$VM_DIR/$part"
done

# vm_scripts - the text of this file and its parts
vm_scripts() {
	(cd "$VM_DIR" && cat run.sh $VM_PARTS)
}

# host_checks - a missing host tool is a failure with a clear message, not
# a skip
host_checks() {
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
}

# one_kernel K SLOT TESTS SUFFIX ONLY SKIP - fetch, build and boot kernel K
# ("VER" or "VER:SUITE", VER maybe ending in "pr") on guest lock slot SLOT to
# run the test files TESTS (comma-separated), only the tests matching ONLY
# and none matching SKIP (LIVE_ONLY and LIVE_SKIP patterns, comma-separated;
# "-" for all, and for none); its lines are labelled VER then SUFFIX ("-" for
# none). Adds to passed/failed/skipped and sets KFAIL.
one_kernel() {
	k=$1
	open_slot "$k" "$2" || { failed=$((failed + 1)); return; }
	# name: the cache directory and label ("6.1pr"); ver: the series ("6.1")
	kernel_names "$k"
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
		return
	fi
	get_kernel "$label"
	if [ -z "$KVER" ]; then
		failed=$((failed + 1))
	elif build_base "$name" "$label"; then
		boot_kernel "$label"
	else
		echo "[$label] FAIL vm/initramfs [$KVER]: cannot build it"
		failed=$((failed + 1))
	fi
}

# the whole run is functions, this file's and its parts', all read before it
# starts, so that editing them cannot upset a run already under way
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
	plan_jobs
	if [ "$VM_PLAN" = 1 ]; then
		print_plan
		return 0
	fi
	run_jobs
	report_jobs
}

host_checks
find_mirrors
main "$@"; exit $?

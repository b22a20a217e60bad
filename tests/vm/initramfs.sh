# SPDX-License-Identifier: GPL-2.0-only
# tests/vm/initramfs.sh - the guest's image for tests/vm/run.sh: a gzip cpio
# initramfs in two parts that the kernel unpacks one after the other: a base
# part per kernel (busybox, modules; cached in VM_OUT) and a run part shared
# by all kernels (/init, tests, binaries; rebuilt every run). Read by run.sh;
# defines functions and settings only.

VM_STATIC=${VM_STATIC:-0}
VM_MODULES=${VM_MODULES:-"null_blk veth loop ext4 crc32c_generic"}
VM_HOST_BINS=${VM_HOST_BINS-ip pgrep pkill jq}
VM_SHELL=${VM_SHELL:-dash}
BUSYBOX=${VM_BUSYBOX:-/bin/busybox}

# where the binaries live inside the guest; also first on the guest's PATH
GUEST_BIN=/ftt/bin

# mkcpio DIR OUT - pack DIR as a gzip newc cpio owned by root
mkcpio() {
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 > "$2"
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

# ---------------------------------------------------------------------------
# the base part

# build_base NAME [LABEL] - set BASECPIO to the base part for the kernel in
# KDIR/KVER, building it unless a part with the same inputs exists. The
# name carries a checksum of the inputs (these scripts among them), and a
# new part is written aside and renamed into place, so runs sharing $VM_OUT
# never see half a file.
build_base() {
	out=$VM_OUT/$1
	key="$KVER $KPKG|$VM_MODULES|$VM_SHELL|$(cksum < "$BUSYBOX")|$(vm_scripts | cksum)"
	BASECPIO=$out/base-$(echo "$key" | cksum | cut -d' ' -f1).cpio.gz
	[ -s "$BASECPIO" ] && return 0
	s=$WORK/base-${2:-$1}	# scratch per boot: two boots of one kernel may build at once
	rm -rf "$s"
	mkdir -p "$out" "$s/bin" "$s/lib/modules/$KVER" "$s/etc" "$s/dev" \
		"$s/proc" "$s/sys" "$s/tmp" "$s/run" "$s/root" "$s/mnt" "$s/usr" || return 1
	base_system "$s" || return 1
	base_modules "$1" "$s" || return 1
	mkcpio "$s" "$s.cpio.gz" || return 1
	mv "$s.cpio.gz" "$BASECPIO" || return 1
	rm -rf "$s"
}

# base_system S - busybox in S/bin, the guest's /bin/sh (VM_SHELL), the
# console and null devices, and the users and groups the tests know
base_system() {
	# busybox and every applet as a link in /bin; sbin and usr/* point there
	cp "$BUSYBOX" "$1/bin/busybox"
	for a in $("$BUSYBOX" --list); do
		[ "$a" = busybox ] || ln -s busybox "$1/bin/$a"
	done
	if [ "$VM_SHELL" = dash ]; then
		rm "$1/bin/sh"
		copy_with_libs /bin/dash /bin/dash "$1" || return 1
		ln -s dash "$1/bin/sh"
	fi
	ln -s bin "$1/sbin"
	ln -s ../bin "$1/usr/bin"
	ln -s ../bin "$1/usr/sbin"
	mknod "$1/dev/console" c 5 1
	mknod "$1/dev/null" c 1 3
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' > "$1/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' > "$1/etc/group"
	return 0
}

# base_modules NAME S - the wanted modules (VM_MODULES) with their
# dependencies, at the paths modules.dep names, in S, then depmod on that
# root so "modprobe null_blk" works; NAME labels the lines
base_modules() {
	src=$KDIR/root/lib/modules/$KVER
	dst=$2/lib/modules/$KVER
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[ -f "$src/$f" ] && cp "$src/$f" "$dst/"
	done
	for m in $(module_closure "$src" $VM_MODULES | tr ' ' '@'); do
		case $m in
		missing@*)
			module_missing "$1" "${m#missing@}"
			;;
		*)
			mkdir -p "$dst/$(dirname "$m")"
			cp "$src/$m" "$dst/$m"
			;;
		esac
	done
	depmod -b "$2" "$KVER"
}

# module_missing NAME MODULE - say whether MODULE, not a module of the
# kernel in $src, is built into it or not there at all
module_missing() {
	# built in is as good as a module for the tests
	if grep -Eq "/${2}\.ko\$" "$src/modules.builtin" 2>/dev/null ||
	   grep -Eq "/$(echo "$2" | tr _ -)\.ko\$" "$src/modules.builtin" 2>/dev/null; then
		say "[$1] module $2 is built into $KVER"
	else
		say "[$1] warning: module $2 not found in $KVER"
	fi
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

# ---------------------------------------------------------------------------
# the run part

# build_run - $RUNCPIO with /init, /tests and the suite's binaries
build_run() {
	s=$WORK/run
	mkdir -p "$s$GUEST_BIN" || return 1
	run_binaries "$s" || return 1
	run_tests "$s" || return 1
	write_init "$s"
	chmod 755 "$s/init"
	if [ -n "$VM_GUEST_CMD" ]; then
		printf '%s\n' "$VM_GUEST_CMD" > "$s/guest-cmd" || return 1
	fi
	write_hang_report "$s"
	chmod 755 "$s/hang-report"
	RUNCPIO=$WORK/run.cpio.gz
	mkcpio "$s" "$RUNCPIO"
}

# run_binaries S - the suite's binaries in S/GUEST_BIN, libtraceevent's
# plugins, and the host programs of VM_HOST_BINS in S/usr/local/bin, each
# with the libraries it needs
run_binaries() {
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
		copy_with_libs "$f" "$GUEST_BIN/$(basename "$f")" "$1" || return 1
		nbin=$((nbin + 1))
	done
	[ $nbin -gt 0 ] || say "warning: no executables in $bindir (run make first)"
	# libtraceevent loads its plugins with dlopen, which ldd does not see
	for d in /usr/lib/x86_64-linux-gnu/traceevent/plugins; do
		[ -d "$d" ] || continue
		for f in "$d"/*.so; do
			[ -f "$f" ] && copy_with_libs "$f" "$f" "$1"
		done
	done
	# host programs the tests may use, e.g. iproute2's ip for veth pairs
	for p in $VM_HOST_BINS; do
		f=$(command -v "$p") || { say "warning: host program $p not found"; continue; }
		copy_with_libs "$f" "/usr/local/bin/$(basename "$p")" "$1" || return 1
	done
	return 0
}

# run_tests S - the whole tests/ tree in S/tests, for tests/live/run.sh and
# tests/lib.sh, with the workload programs "make" built into tests/bin (from
# tests/workloads and tests/preload): most are static, but the .dyn copies
# and the preload library are not, so each comes with the libraries ldd lists
run_tests() {
	cp -R "$TOP/tests" "$1/tests" || return 1
	for f in "$TOP"/tests/bin/*; do
		[ -f "$f" ] || continue
		copy_with_libs "$f" "/tests/bin/$(basename "$f")" "$1" || return 1
	done
	return 0
}

# write_init S - S/init: it sets the guest up, runs the tests with the
# kernel's messages kept off the console, then shows what the kernel logged
# meanwhile, outside the markers
write_init() {
	cat > "$1/init" <<-EOF
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
	# /var/tmp on a disk, as on a real machine (cachestat's proof file must
	# leave the page cache): ext4 on a loop device, where the kernel has both
	mkdir -p /var/tmp
	# (5.10's ext4 wants the crc32c driver, which nothing loads for it)
	modprobe crc32c_generic 2>/dev/null
	if modprobe loop 2>/dev/null && modprobe ext4 2>/dev/null &&
	   dd if=/dev/zero of=/run/vartmp.img bs=1024 count=0 seek=65536 2>/dev/null &&
	   l=\$(losetup -f) && losetup \$l /run/vartmp.img &&
	   mke2fs -q \$l > /dev/null 2>&1 && mount -t ext4 \$l /var/tmp; then :
	else
		echo "ftt-vm: /var/tmp is in memory: this kernel cannot mount ext4 on a loop device"
	fi
	ip link set lo up
	hostname ftt-vm
	dmesg -n 1
	echo 0 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
	# the ring buffer starts small and grows to its real size the first
	# time a tracer is set; do that now, or the first test to trace
	# would see buffer_size_kb change under it
	echo nop > /sys/kernel/tracing/current_tracer
	EOF
	write_init_tests "$1"
}

# write_init_tests S - the rest of S/init: the tests between the markers,
# with what to run taken from the kernel command line. A minute before the
# host's timeout (counted from when the tests start, which is a few seconds
# after qemu does) /hang-report runs.
write_init_tests() {
	hang=$((VM_TIMEOUT - 60))
	[ $hang -ge $((VM_TIMEOUT * 3 / 4)) ] || hang=$((VM_TIMEOUT * 3 / 4))
	cat >> "$1/init" <<-EOF
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
}

# write_hang_report S - S/hang-report, which runs in the guest shortly
# before the host gives up on it: which test is running, and what the busy
# processes are doing in the kernel, so a timeout says more than "timed out"
write_hang_report() {
	cat > "$1/hang-report" <<-'EOF'
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
}

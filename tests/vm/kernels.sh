# SPDX-License-Identifier: GPL-2.0-only
# tests/vm/kernels.sh - the guests' kernels for tests/vm/run.sh: which ones,
# where they come from, what each offers, and fetching, building and caching
# them in VM_CACHE. Read by run.sh; defines functions and settings only.
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

VM_KERNELS=${VM_KERNELS:-"6.1pf 5.10 7.3 6.1 6.12 6.1pr"}
VM_CACHE=${VM_CACHE:-/var/cache/ftt-vm}
VM_REFRESH=${VM_REFRESH:-0}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

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

# find_mirrors - set MIRROR and SECURITY from VM_MIRROR and VM_SECURITY, or
# from apt's sources, or Debian's own
find_mirrors() {
	MIRROR=${VM_MIRROR:-$(mirror_from_apt debian)}
	MIRROR=${MIRROR:-http://deb.debian.org/debian}
	SECURITY=${VM_SECURITY:-$(mirror_from_apt debian-security)}
	SECURITY=${SECURITY:-${MIRROR}-security}
}

# ---------------------------------------------------------------------------
# the kernels: where each comes from, and what each offers

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

# kernel_names K - set name (the cache directory and label, "6.1pr"), ver
# (the series, "6.1"), suite (empty when none is known) and sec (the
# security mirror, or "none") for K of VM_KERNELS ("VER" or "VER:SUITE")
kernel_names() {
	name=${1%%:*}
	ver=${name%pr}
	ver=${ver%pf}
	suite=${1#*:}
	[ "$suite" = "$1" ] && suite=$(suite_for "$ver")
	# the point release is the suite alone; backports have no security suite
	sec=$SECURITY
	case $name in *pr) sec=none ;; esac
	case $suite in *-backports) sec=none ;; esac
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

# get_kernel LABEL - fetch kernel $name (kernel_names) into $VM_CACHE/$name,
# or build it there if its name ends in "pf", unless it is there already;
# set KDIR, KVER and KPKG, KVER empty when that failed (its FAIL line
# printed). LABEL labels the lines.
get_kernel() {
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
	if [ -n "$KVER" ]; then
		[ $((t1 - t0)) -gt 1 ] &&
			say "[$1] fetched $KPKG in $((t1 - t0)) s"
	fi
}

# fetch_fail MESSAGE - the FAIL line of fetching or building kernel $label
fetch_fail() { echo "[$label] FAIL vm/fetch: $*"; }

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
	KDIR=$VM_CACHE/$label
	KVER= KPKG=
	mkdir -p "$KDIR" || { fetch_fail "cannot create $KDIR"; return 1; }
	if [ -s "$KDIR/kernel.ok" ] && [ "$VM_REFRESH" != 1 ]; then
		read -r KVER KPKG < "$KDIR/kernel.ok"
		return 0
	fi

	apt=$KDIR/apt
	apt_update "$label" "$apt" "$suite" "$sec" || return 1
	abis=$(image_abis "$ver")
	[ -n "$abis" ] || { fetch_fail "no linux-image-$ver*-amd64 in $suite"; return 1; }
	download_image $abis
	case $? in
	0) ;;
	2) return 0 ;;	# kernel.ok holds the newest already
	*) return 1 ;;
	esac
	download_parts || return 1

	# unpack next to the old tree, then swap, so an interrupted run never
	# leaves a half tree behind kernel.ok
	unpack_kernel || return 1
	rm -rf "$KDIR/root"
	mv "$r" "$KDIR/root"
	rm -f "$apt/debs"/*.deb
	echo "$KVER $KPKG" > "$KDIR/kernel.ok"
}

# image_abis VER - the ABIs of the linux-image-VER* packages the private apt
# in $apt knows, newest first: 5.10.0-46, 6.12.48+deb13; only ".N", "-N" or
# "+debN" may follow the series, so 6.1 is not 6.12
image_abis() {
	re=$(echo "$1" | sed 's/\./\\./g')
	set -- $(apt_opts "$apt")
	apt-cache "$@" pkgnames linux-image- |
		sed -n -E "s/^linux-image-($re(\.[0-9]+)*(-[0-9]+|\+deb[0-9]+))-amd64(-unsigned)?\$/\1/p" |
		sort -u -V -r
}

# download_image ABI... - download into $apt/debs the linux-image package of
# the first ABI the archive has; set KPKG, abi and deb. Status 2 (KVER and
# KPKG read from kernel.ok) when kernel.ok holds that package already, 1 (its
# FAIL line printed) when none came.
download_image() {
	abis=$*
	set -- $(apt_opts "$apt")
	# the unsigned and the signed package carry the same kernel and
	# modules; take whichever the archive really has
	rm -f "$apt/debs"/*.deb
	for abi in $abis; do
		for pkg in linux-image-$abi-amd64-unsigned linux-image-$abi-amd64; do
			if [ -s "$KDIR/kernel.ok" ] &&
			   [ "$(cut -d' ' -f2 "$KDIR/kernel.ok")" = "$pkg" ]; then
				read -r KVER KPKG < "$KDIR/kernel.ok"
				say "[$label] $pkg is still the newest"
				return 2
			fi
			(cd "$apt/debs" && apt-get "$@" -q download "$pkg") \
				> "$apt/download.log" 2>&1 && { KPKG=$pkg; break 2; }
		done
	done
	deb=$(ls "$apt/debs"/*.deb 2>/dev/null | head -n 1)
	[ -n "$KPKG" ] && [ -n "$deb" ] || {
		fetch_fail "apt-get download failed for linux-image-$ver in $suite"
		sed 's/^/    /' "$apt/download.log" | tail -n 10
		return 1
	}
}

# download_parts - download beside $deb the packages a 7.x meta package
# stands for: the names in its Depends that carry its ABI $abi, without the
# version constraints; set parts
download_parts() {
	set -- $(apt_opts "$apt")
	are=$(echo "$abi" | sed 's/[.+]/\\&/g')
	parts=$(dpkg-deb -f "$deb" Depends | tr ',|' '\n\n' |
		sed -n -E "s/^[[:space:]]*(linux-(binary|binary-unsigned|modules|base)-$are-amd64)([[:space:]].*)?\$/\1/p")
	if [ -n "$parts" ]; then
		(cd "$apt/debs" && apt-get "$@" -q download $parts) \
			> "$apt/download.log" 2>&1 || {
			fetch_fail "apt-get download failed for" $parts
			sed 's/^/    /' "$apt/download.log" | tail -n 10
			return 1
		}
	fi
}

# unpack_kernel - unpack the packages in $apt/debs into r=$KDIR/root.new,
# with vmlinuz in boot/, plain modules in lib/modules and their depmod
# files; set KVER
unpack_kernel() {
	rm -rf "$KDIR/root.new"
	for d in "$apt/debs"/*.deb; do
		dpkg -x "$d" "$KDIR/root.new" || { fetch_fail "dpkg -x $d failed"; return 1; }
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
		{ fetch_fail "no vmlinuz or modules in $deb $parts"; return 1; }
	plain_modules "$r" || return 1
	depmod -b "$r" "$KVER" || { fetch_fail "depmod failed"; return 1; }
}

# plain_modules ROOT - decompress the modules under ROOT/lib/modules:
# busybox modprobe wants plain .ko files
plain_modules() {
	find "$1/lib/modules" -name '*.ko.xz' -exec xz -d {} + ||
		{ fetch_fail "cannot decompress the modules"; return 1; }
	if find "$1/lib/modules" -name '*.ko.zst' | grep -q .; then
		find "$1/lib/modules" -name '*.ko.zst' \
			-exec zstd -q -d --rm {} + ||
			{ fetch_fail "cannot decompress the modules"; return 1; }
	fi
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
	KDIR=$VM_CACHE/$label
	KVER= KPKG=
	mkdir -p "$KDIR" || { fetch_fail "cannot create $KDIR"; return 1; }
	# the configuration asked for; a kernel built from another is rebuilt
	key=$(echo "tinyconfig $PF_WANT $PF_MODULES" | cksum | cut -d' ' -f1)
	if [ -s "$KDIR/kernel.ok" ] &&
	   [ "$(cat "$KDIR/config.key" 2>/dev/null)" = "$key" ]; then
		read -r KVER KPKG < "$KDIR/kernel.ok"
		return 0
	fi
	build_tools || return 1

	apt=$KDIR/apt
	src=$KDIR/src
	tools=$KDIR/tools
	log=$KDIR/build.log
	if [ ! -s "$src/Makefile" ] || [ ! -x "$tools/usr/bin/flex" ]; then
		fetch_source || return 1
	fi
	KPKG=$(cat "$src/.ftt-pkg")

	# the private build tools first on PATH; objtool links libelf from them
	export PATH="$tools/usr/bin:$PATH"
	export BISON_PKGDATADIR="$tools/usr/share/bison"
	lib=$tools/usr/lib/x86_64-linux-gnu

	t0=$(date +%s)
	: > "$log"
	if [ ! -s "$src/.config" ] ||
	   [ "$(cat "$src/.ftt-config" 2>/dev/null)" != "$key" ]; then
		configure_kernel || return 1
	fi
	check_config || return 1
	compile_kernel || return 1
	rm -rf "$KDIR/root"
	mv "$r" "$KDIR/root"
	t1=$(date +%s)
	say "[$label] built $KVER in $((t1 - t0)) s"
	echo "$key" > "$KDIR/config.key"
	echo "$KVER $KPKG" > "$KDIR/kernel.ok"
}

# build_tools - the host tools a kernel build needs, or a FAIL line
build_tools() {
	for t in make gcc bc perl m4 tar; do
		command -v $t >/dev/null 2>&1 ||
			{ fetch_fail "host tool '$t' not found (needed to build $label)"; return 1; }
	done
}

# fetch_source - download linux-source-$ver of $suite and the build tools
# with the private apt in $apt; unpack the tools in $tools and the source in
# $src, with its package's name in $src/.ftt-pkg
fetch_source() {
	apt_update "$label" "$apt" "$suite" none || return 1
	set -- $(apt_opts "$apt")
	rm -f "$apt/debs"/*.deb
	if ! (cd "$apt/debs" && apt-get "$@" -q download \
		"linux-source-$ver" flex bison libelf-dev libelf1) \
		> "$apt/download.log" 2>&1; then
		fetch_fail "apt-get download failed for linux-source-$ver in $suite"
		sed 's/^/    /' "$apt/download.log" | tail -n 10
		return 1
	fi
	rm -rf "$tools" "$src" "$KDIR/pkg"
	for d in "$apt/debs"/*.deb; do
		case $d in
		*/linux-source-*) dpkg -x "$d" "$KDIR/pkg" ;;
		*) dpkg -x "$d" "$tools" ;;
		esac || { fetch_fail "dpkg -x $d failed"; return 1; }
	done
	KPKG=$(basename "$(ls "$apt/debs"/linux-source-*.deb)" .deb | sed 's/_amd64$\|_all$//')
	mkdir -p "$src" &&
	tar -xf "$KDIR"/pkg/usr/src/linux-source-$ver.tar.* -C "$src" \
		--strip-components=1 ||
		{ fetch_fail "cannot unpack the kernel source"; return 1; }
	echo "$KPKG" > "$src/.ftt-pkg"
	rm -rf "$KDIR/pkg" "$apt/debs"/*.deb
	return 0
}

# mk ARG... - make in $src with the private build tools' headers and
# libraries, the output added to $log
mk() {
	make -C "$src" HOSTCFLAGS="-I$tools/usr/include" \
		HOSTLDFLAGS="-L$lib -Wl,-rpath-link,$lib" "$@" >> "$log" 2>&1
}

# configure_kernel - configure $src from tinyconfig with the PF_WANT options
# =y and the PF_MODULES ones =m, and mark it done for the options' $key
configure_kernel() {
	say "[$label] configuring $KPKG"
	mk ARCH=x86_64 tinyconfig || { fetch_fail "make tinyconfig failed (log: $log)"; tail -n 20 "$log" | sed 's/^/    /'; return 1; }
	set --
	for o in $PF_WANT; do set -- "$@" -e "$o"; done
	for o in $PF_MODULES; do set -- "$@" -m "$o"; done
	"$src/scripts/config" --file "$src/.config" "$@" \
		-d UNWINDER_GUESS -d UNWINDER_FRAME_POINTER \
		-d DEBUG_INFO -d DEBUG_INFO_BTF -d MODULE_SIG -d LOCALVERSION_AUTO \
		--set-str LOCALVERSION "-ftt-pf" \
		--set-str SYSTEM_TRUSTED_KEYS "" ||
		{ fetch_fail "scripts/config failed"; return 1; }
	mk olddefconfig || { fetch_fail "make olddefconfig failed (log: $log)"; return 1; }
	echo "$key" > "$src/.ftt-config"
	return 0
}

# check_config - every wanted option as asked in $src/.config, or the kernel
# is not the one the features_for line describes
check_config() {
	lacks=
	for o in $PF_WANT; do
		grep -q "^CONFIG_$o=y\$" "$src/.config" || lacks="$lacks $o"
	done
	for o in $PF_MODULES; do
		grep -q "^CONFIG_$o=m\$" "$src/.config" || lacks="$lacks $o(m)"
	done
	[ -z "$lacks" ] || { fetch_fail "the kernel configuration lacks:$lacks (in $src/.config)"; return 1; }
}

# compile_kernel - build the kernel and modules in $src, and install them
# in r=$KDIR/root.new with their depmod files; set KVER
compile_kernel() {
	say "[$label] building $KPKG with -j${VM_BUILD_JOBS:-2} (log: $log)"
	mk -j"${VM_BUILD_JOBS:-2}" bzImage modules ||
		{ fetch_fail "the kernel build failed (log: $log)"; tail -n 20 "$log" | sed 's/^/    /'; return 1; }
	KVER=$(make -s -C "$src" kernelrelease 2>/dev/null)
	[ -n "$KVER" ] || { fetch_fail "no kernel release from $src"; return 1; }
	r=$KDIR/root.new
	rm -rf "$r"
	mkdir -p "$r/boot" &&
	cp "$src/arch/x86/boot/bzImage" "$r/boot/vmlinuz-$KVER" &&
	mk INSTALL_MOD_PATH="$r" INSTALL_MOD_STRIP=1 DEPMOD=/bin/true modules_install ||
		{ fetch_fail "cannot install the kernel and modules"; return 1; }
	depmod -b "$r" "$KVER" || { fetch_fail "depmod failed"; return 1; }
}

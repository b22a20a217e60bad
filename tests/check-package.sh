#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/check-package.sh - the Debian package: built, linted, installed, used,
# removed, and installed beside libbpf-tools in either order
#
# usage: tests/check-package.sh (root; setup.sh installs what it needs)
# Builds the .deb with dpkg-buildpackage from a copy of the tracked files in a
# temporary directory (nothing is written in the source tree); lintian must
# print no E: line. Then dpkg -i: opensnoop from PATH (/usr/sbin, an
# alternative) is the package's, with the version the build computed; every
# free /usr/sbin/TOOL leads to /usr/libexec/ftrace-tools/TOOL; the man pages,
# examples and bash completion are in place. dpkg -r and dpkg -P must leave
# none of the package's files, links or alternatives.
# Beside libbpf-tools (downloaded with apt-get download; SKIP offline), whose
# opensnoop and execsnoop are real files in /usr/sbin and killsnoop a link to
# its sigsnoop: installed after it,
# ours installs and its files stay its own; removed, its files stay; installed
# before it, it takes /usr/sbin/opensnoop; when it goes, our link comes back.
# The host is left as found: a test that installed a package purges it.
# A host with ftrace-tools already installed is not touched: one SKIP line.
# Prints PASS/FAIL/SKIP lines; exit 1 on any failure.
cd "$(dirname "$0")/.." || exit 1
TOP=$(pwd)
TOOLS=$(for f in tools/*.c; do basename "$f" .c; done)
LIBEXEC=/usr/libexec/ftrace-tools
DOC=/usr/share/doc/ftrace-tools
COMP=/usr/share/bash-completion/completions
SYSPATH=/usr/sbin:/usr/bin:/sbin:/bin
bad=0

pass() { echo "PASS package/$1"; }
fail() { echo "FAIL package/$1"; bad=1; }
skip() { echo "SKIP package/$1"; }

# status PKG - dpkg's status of PKG ("installed", "config-files", ...), empty if unknown
status() {
	dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null
}

if [ "$(id -u)" -ne 0 ]; then
	skip "all: needs root (dpkg -i)"
	exit 0
fi
if ! command -v dpkg-buildpackage > /dev/null || ! command -v dpkg > /dev/null; then
	skip "all: no dpkg-buildpackage (not a Debian system; setup.sh installs dpkg-dev)"
	exit 0
fi
case $(status ftrace-tools) in
''|not-installed) ;;
*)	skip "all: ftrace-tools is already on this host ($(status ftrace-tools)); the test installs and removes it, so it leaves it alone"
	exit 0 ;;
esac
for c in dh lintian fakeroot; do
	command -v $c > /dev/null || { fail "all: no $c (run setup.sh)"; exit 1; }
done

T=$(mktemp -d) || exit 1
ours=0 theirs=0
cleanup() {
	[ $ours -eq 1 ] && dpkg -P ftrace-tools > /dev/null 2>&1
	[ $theirs -eq 1 ] && dpkg -P libbpf-tools > /dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# libbpf-tools' package is fetched meanwhile (for the part beside it)
mkdir "$T/apt" && chmod 777 "$T/apt" || exit 1
(cd "$T/apt" && timeout 60 apt-get download -q libbpf-tools) > "$T/apt.log" 2>&1 &
apt=$!

# the source: the tracked files as they are in the work tree, or the tree
SRC=$T/ftrace-tools
mkdir "$SRC" || exit 1
if [ -e .git ] && git ls-files > /dev/null 2>&1; then
	git ls-files -z | tar --null -T - --ignore-failed-read -cf - 2> /dev/null | tar -xf - -C "$SRC"
else
	tar --exclude=./build --exclude=./bin --exclude=./tests/bin --exclude=./bench/results \
		--exclude=./debian/ftrace-tools --exclude=./debian/.debhelper -cf - . | tar -xf - -C "$SRC"
fi
[ -f "$SRC/debian/rules" ] || { fail "build: no debian/rules in the copy"; exit 1; }

# build
if (cd "$SRC" && dpkg-buildpackage -us -uc -b) > "$T/build.log" 2>&1; then
	pass "build: dpkg-buildpackage -us -uc -b"
else
	fail "build: dpkg-buildpackage failed:"; tail -20 "$T/build.log"
	exit 1
fi
VERSION=$(sed -n '1s/ .*//p' "$SRC/build/version.stamp")
DEB=$T/ftrace-tools_${VERSION}_$(dpkg --print-architecture).deb
if [ -f "$DEB" ] && [ "$VERSION" = "$(cat VERSION)" ] &&
   [ "$(dpkg-deb -f "$DEB" Version)" = "$VERSION" ]; then
	pass "version: the package's version is VERSION's and the tools' ($VERSION)"
else
	fail "version: tools built as '$VERSION', VERSION says '$(cat VERSION)', package $(ls "$T"/*.deb)"
	exit 1
fi

# lintian runs meanwhile; its result is read after the remove
lintian --fail-on none "$DEB" > "$T/lintian" 2>&1 &
lintian=$!

# the paths the package may leave behind: its files and the alternatives'
{
	dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }'
	echo "$LIBEXEC"; echo "$DOC"
	for t in $TOOLS; do
		echo "/usr/sbin/$t"; echo "/etc/alternatives/$t"; echo "/var/lib/dpkg/alternatives/$t"
	done
} | sort -u > "$T/paths"
: > "$T/there"
while read -r p; do
	if [ -e "$p" ] || [ -L "$p" ]; then echo "$p" >> "$T/there"; fi
done < "$T/paths"

# is_free TOOL - /usr/sbin/TOOL was not there before the test (another package's)
is_free() { ! grep -qx "/usr/sbin/$1" "$T/there"; }

# left [TOOL...] - the package's paths there now that were not there before;
# /usr/sbin/TOOL of the TOOLs named is not looked at (libbpf-tools' file)
left() {
	while read -r p; do
		case " $* " in *" ${p#/usr/sbin/} "*) continue ;; esac
		if { [ -e "$p" ] || [ -L "$p" ]; } && ! grep -qx "$p" "$T/there"; then echo "$p"; fi
	done < "$T/paths"
	for t in $TOOLS; do
		update-alternatives --query "$t" 2>/dev/null | grep -q "^Alternative: $LIBEXEC/" &&
			echo "alternative $t"
	done
}

# dpkg_install DEB WHAT - dpkg -i; PASS/FAIL line; status 1 on failure
dpkg_install() {
	if dpkg -i "$1" > "$T/dpkg.log" 2>&1 && ! grep -q 'dpkg: error' "$T/dpkg.log"; then
		return 0
	fi
	fail "$2: dpkg -i failed:"; tail -10 "$T/dpkg.log"
	return 1
}

# ours_at TOOL - /usr/sbin/TOOL is the package's: a link to $LIBEXEC/TOOL
ours_at() {
	[ -L "/usr/sbin/$1" ] && [ "$(readlink -f "/usr/sbin/$1")" = "$LIBEXEC/$1" ]
}

# theirs_at TOOL - /usr/sbin/TOOL is libbpf-tools' own, unchanged: its file,
# or its symbolic link (killsnoop -> sigsnoop), not an alternative
theirs_at() {
	{ { [ -f "/usr/sbin/$1" ] && [ ! -L "/usr/sbin/$1" ]; } ||
	  { [ -L "/usr/sbin/$1" ] && [ "$(readlink "/usr/sbin/$1")" != "/etc/alternatives/$1" ]; }; } &&
		[ "$(dpkg-query -S "/usr/sbin/$1" 2>/dev/null)" = "libbpf-tools: /usr/sbin/$1" ] &&
		dpkg --verify libbpf-tools > "$T/verify" 2>&1 && [ ! -s "$T/verify" ]
}

dpkg_install "$DEB" install || exit 1
ours=1
pass "install: dpkg -i"

# the one tool run from PATH: opensnoop, or tpoint where another package
# holds /usr/sbin/opensnoop on this host
run=opensnoop
is_free opensnoop || run=tpoint
got=$(PATH=$SYSPATH command -v $run)
if [ "$got" = "/usr/sbin/$run" ] && ours_at $run &&
   [ "$(PATH=$SYSPATH $run --version 2>&1)" = "$run $VERSION" ] &&
   PATH=$SYSPATH $run -h > "$T/help" 2>&1 && head -1 "$T/help" | grep -q "^USAGE: $run " &&
   [ "$(tail -1 "$T/help")" = "See man $run(8) and $DOC/examples/${run}_example.txt" ]; then
	pass "path: '$run' from PATH is /usr/sbin/$run -> $LIBEXEC/$run, version $VERSION, -h works"
else
	fail "path: '$run' from PATH is '$got' -> '$(readlink -f "$got")', --version '$(PATH=$SYSPATH $run --version 2>&1)', -h: $(head -c 200 "$T/help")"
fi

# every tool in libexec and, where no other package's file is, in /usr/sbin
ok=1
for t in $TOOLS; do
	if [ "$("$LIBEXEC/$t" --version 2>&1)" != "$t $VERSION" ]; then
		fail "tools: $LIBEXEC/$t --version: $("$LIBEXEC/$t" --version 2>&1)"; ok=0
	elif is_free $t && ! ours_at $t; then
		fail "tools: /usr/sbin/$t is not a link to $LIBEXEC/$t: $(ls -l "/usr/sbin/$t" 2>&1)"; ok=0
	fi
done
[ $ok -eq 1 ] && pass "tools: all $(echo $TOOLS | wc -w) in $LIBEXEC, /usr/sbin/TOOL leads there"

# aliases_ok WHAT - every tool runs from PATH as TOOL-ftrace, the package's
# own link in /usr/sbin, whatever holds /usr/sbin/TOOL; its -h says so
aliases_ok() {
	ok=1
	for t in $TOOLS; do
		got=$(PATH=$SYSPATH command -v "$t-ftrace")
		if [ "$got" != "/usr/sbin/$t-ftrace" ] || [ "$(readlink -f "$got")" != "$LIBEXEC/$t" ] ||
		   [ "$(PATH=$SYSPATH "$t-ftrace" --version 2>&1)" != "$t $VERSION" ]; then
			fail "$1: '$t-ftrace' from PATH is '$got' -> '$(readlink -f "$got")', --version '$(PATH=$SYSPATH "$t-ftrace" --version 2>&1)'"
			ok=0
		elif ! PATH=$SYSPATH "$t-ftrace" -h 2>&1 | grep -qx "Also installed as $t-ftrace, a name no other package takes."; then
			fail "$1: $t-ftrace -h does not name $t-ftrace"; ok=0
		fi
	done
	[ $ok -eq 1 ] && pass "$1: every tool runs from PATH as TOOL-ftrace, and its -h says so"
}
aliases_ok aliases

# man pages: man -w finds them where man-db is, else the files
ok=1
for t in $TOOLS; do
	f=/usr/share/man/man8/$t.8.gz
	[ -f "$f" ] || { fail "man: no $f"; ok=0; continue; }
	[ "$(readlink -f "/usr/share/man/man8/$t-ftrace.8.gz")" = "$f" ] ||
		{ fail "man: /usr/share/man/man8/$t-ftrace.8.gz does not lead to $f"; ok=0; }
	if command -v man > /dev/null && [ "$(status man-db)" = installed ]; then
		w=$(PATH=$SYSPATH man -w "$t" 2>&1)
		[ "$w" = "$f" ] || { fail "man: man -w $t gives '$w', not $f"; ok=0; }
	fi
done
if [ $ok -eq 1 ]; then
	if command -v man > /dev/null && [ "$(status man-db)" = installed ]; then
		pass "man: man -w finds each tool's page in /usr/share/man/man8, TOOL-ftrace(8) leads there"
	else
		pass "man: each tool's page is in /usr/share/man/man8 (no man-db: files checked)"
	fi
fi

# examples and completion, as make install puts them
ok=1
for f in examples/*; do
	cmp -s "$f" "$DOC/$f" || { fail "examples: $DOC/$f is missing or differs"; ok=0; }
done
cmp -s completion/ftrace-tools.bash "$COMP/ftrace-tools" ||
	{ fail "completion: $COMP/ftrace-tools is missing or differs"; ok=0; }
for t in $TOOLS; do
	[ "$(readlink "$COMP/$t")" = ftrace-tools ] && [ "$(readlink "$COMP/$t-ftrace")" = ftrace-tools ] ||
		{ fail "completion: $COMP/$t or $COMP/$t-ftrace is not a link to ftrace-tools"; ok=0; }
done
[ $ok -eq 1 ] && pass "files: examples in $DOC/examples, completion in $COMP"

# remove, then purge: nothing of the package is left
dpkg -r ftrace-tools > "$T/dpkg.log" 2>&1 || { fail "remove: dpkg -r failed:"; tail -10 "$T/dpkg.log"; }
dpkg -P ftrace-tools > "$T/dpkg.log" 2>&1 || { fail "remove: dpkg -P failed:"; tail -10 "$T/dpkg.log"; }
ours=0
if [ -z "$(left)" ] && [ "$(status ftrace-tools)" != installed ]; then
	pass "remove: dpkg -r, dpkg -P leave no file, link or alternative"
else
	fail "remove: left behind: $(left | tr '\n' ' ')"
fi

# lintian: no error; warnings are listed
wait $lintian
nerr=$(grep -c '^E:' "$T/lintian") nwarn=$(grep -c '^W:' "$T/lintian")
if [ "$nerr" -eq 0 ]; then
	pass "lintian: no errors, $nwarn warnings"
else
	fail "lintian: $nerr errors"
fi
grep '^[EW]:' "$T/lintian" | sed 's/^/    /'

# beside libbpf-tools
case $(status libbpf-tools) in
''|not-installed) ;;
*)	skip "libbpf: libbpf-tools is on this host ($(status libbpf-tools)); the install above ran beside it"
	exit $bad ;;
esac
if ! wait $apt || ! LIBBPF=$(ls "$T"/apt/libbpf-tools_*.deb 2> /dev/null); then
	skip "libbpf: apt-get download libbpf-tools failed (offline?): $(grep -E '^(E|W):' "$T/apt.log" | head -1)"
	exit $bad
fi
dpkg-deb -c "$LIBBPF" > "$T/libbpf.list"
clash=
for t in $TOOLS; do
	grep -Eq " \./usr/sbin/$t( -> .*)?\$" "$T/libbpf.list" && clash="$clash $t"
done
if [ -z "$clash" ]; then
	fail "libbpf: $(basename "$LIBBPF") has none of our names in /usr/sbin (opensnoop, execsnoop expected)"
	exit 1
fi

# libbpf-tools first, then ours
if dpkg -i "$LIBBPF" > "$T/dpkg.log" 2>&1; then
	theirs=1
else
	theirs=1
	skip "libbpf: libbpf-tools does not install here: $(grep 'dpkg: ' "$T/dpkg.log" | tail -1)"
	exit $bad
fi
dpkg_install "$DEB" "libbpf-first" && ours=1
ok=$ours
for t in $clash; do
	theirs_at $t || { fail "libbpf-first: /usr/sbin/$t is no longer libbpf-tools': $(ls -l "/usr/sbin/$t" 2>&1) $(cat "$T/verify")"; ok=0; }
	[ "$("$LIBEXEC/$t" --version 2>&1)" = "$t $VERSION" ] || { fail "libbpf-first: $LIBEXEC/$t does not run"; ok=0; }
done
ours_at tpoint || { fail "libbpf-first: /usr/sbin/tpoint is not ours"; ok=0; }
[ $ok -eq 1 ] && pass "libbpf-first: ours installs;$clash stay libbpf-tools' in /usr/sbin, ours in $LIBEXEC"
[ $ours -eq 1 ] && aliases_ok libbpf-first

# ours removed: libbpf-tools' files stay
dpkg -P ftrace-tools > "$T/dpkg.log" 2>&1 || { fail "libbpf-first: dpkg -P ftrace-tools failed:"; tail -10 "$T/dpkg.log"; }
ours=0
ok=1
for t in $clash; do
	theirs_at $t || { fail "libbpf-first: removing ours took libbpf-tools' /usr/sbin/$t: $(ls -l "/usr/sbin/$t" 2>&1)"; ok=0; }
done
[ -z "$(left $clash)" ] || { fail "libbpf-first: left behind: $(left $clash | tr '\n' ' ')"; ok=0; }
[ $ok -eq 1 ] && pass "libbpf-first: purging ours leaves libbpf-tools' files and nothing of ours"

# ours first, then libbpf-tools
dpkg -P libbpf-tools > /dev/null 2>&1
theirs=0
dpkg_install "$DEB" "ours-first" && ours=1
if [ $ours -eq 1 ] && dpkg -i "$LIBBPF" > "$T/dpkg.log" 2>&1; then
	theirs=1
	ok=1
	for t in $clash; do
		theirs_at $t || { fail "ours-first: /usr/sbin/$t is not libbpf-tools': $(ls -l "/usr/sbin/$t" 2>&1)"; ok=0; }
	done
	[ $ok -eq 1 ] && pass "ours-first: libbpf-tools installs after ours and takes /usr/sbin:$clash"
else
	fail "ours-first: dpkg -i libbpf-tools after ours failed:"; tail -10 "$T/dpkg.log"
	theirs=1
fi

# libbpf-tools removed: our links come back (debian/triggers)
dpkg -P libbpf-tools > "$T/dpkg.log" 2>&1 || { fail "ours-first: dpkg -P libbpf-tools failed:"; tail -10 "$T/dpkg.log"; }
theirs=0
ok=1
for t in $clash; do
	ours_at $t || { fail "ours-first: after libbpf-tools went, /usr/sbin/$t is not ours: $(ls -l "/usr/sbin/$t" 2>&1)"; ok=0; }
done
[ $ok -eq 1 ] && pass "ours-first: purging libbpf-tools gives /usr/sbin:$clash back to ours"
dpkg -P ftrace-tools > "$T/dpkg.log" 2>&1 || { fail "ours-first: dpkg -P ftrace-tools failed:"; tail -10 "$T/dpkg.log"; }
ours=0
if [ -z "$(left)" ] && [ "$(status libbpf-tools)" != installed ]; then
	pass "libbpf: both purged, the host as it was"
else
	fail "libbpf: left behind: $(left | tr '\n' ' ') libbpf-tools: $(status libbpf-tools)"
fi
exit $bad

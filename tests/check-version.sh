#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/check-version.sh - the version a tree builds (make print-version, what
# --version and the man pages' footer give; check-cli.sh checks the tools
# print it): from a tarball without .git, the VERSION file's number alone;
# from a git clone, the number and +N.gHASH, N the commits since the one that
# last changed VERSION and HASH the head's short hash, worked out here with
# git; with a tracked file changed, that and -dirty. The package's is checked
# by check-package.sh. Prints PASS/FAIL lines; exit 1 on any failure.
cd "$(dirname "$0")/.." || exit 1
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
bad=0
base=$(cat VERSION)

# check NAME GOT WANT
check() {
	if [ "$2" = "$3" ]; then
		echo "PASS version/$1: $2"
	else
		echo "FAIL version/$1: '$2', want '$3'"
		bad=1
	fi
}

if [ ! -e .git ] || ! git rev-parse --verify -q HEAD > /dev/null; then
	echo "SKIP version/git: not a git tree (the tarball case is this tree's)"
	check tarball "$(make -s print-version)" "$base"
	exit $bad
fi
# a tarball: the tracked files without .git
mkdir "$T/tar" && git archive HEAD | tar -x -C "$T/tar" || { echo "FAIL version/tarball: git archive"; exit 1; }
check tarball "$(make -s -C "$T/tar" print-version)" "$base"
# a clone at HEAD, then with a tracked file changed
git clone -q --no-hardlinks . "$T/git" 2>/dev/null && git -C "$T/git" checkout -q "$(git rev-parse HEAD)" ||
	{ echo "FAIL version/git: git clone"; exit 1; }
c=$(git log -1 --format=%H -- VERSION) n=$(git rev-list --count "$c..HEAD")
want=$base
[ "$n" = 0 ] || want="$base+$n.g$(git rev-parse --short=7 HEAD)"
check git "$(make -s -C "$T/git" print-version)" "$want"
echo >> "$T/git/README.md"
check git-dirty "$(make -s -C "$T/git" print-version)" "$want-dirty"
exit $bad

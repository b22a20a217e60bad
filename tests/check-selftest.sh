#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/check-selftest.sh - the source and documentation checks fail on the
# inputs they exist for, and pass clean ones
#
#   tests/check-source/bad/{tools,common}/*.c: one violation each, its first
#     line "/* expect: RULE - what */"; alone in a tree, each must make
#     check-source.sh fail RULE on that file and no other rule
#   tests/check-source/bad/trees/CASE/: a tree of several files (a rule that
#     looks at files together, such as no-dependency-cycle) and "expect", the
#     whole FAIL block check-source.sh must print for it; no other rule may fail
#   tests/check-source/clean/: code every rule must pass
#   tests/check-docs/bad/CASE.sed: one bad case each, a sed script run on one
#     file of a copy of tests/check-docs/clean/, named by its "# file: PATH"
#     line; it must change that file, and then check-docs.sh must print
#     exactly one FAIL line, matching the ERE of its "# expect: ERE" line
#   tests/check-docs/clean/: a tool, man page and example check-docs.sh must pass
# Prints PASS/FAIL lines; exit 1 on any failure.
cd "$(dirname "$0")" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
bad=0

# result NAME WHY - PASS NAME if WHY is empty, else FAIL NAME: WHY and the output
result() {
	if [ -z "$2" ]; then
		echo "PASS selftest/$1"
	else
		echo "FAIL selftest/$1: $2"
		[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/    /'
		bad=1
	fi
}

# fresh - an empty tree at $tmp/t
fresh() {
	rm -rf "$tmp/t" && mkdir -p "$tmp/t/tools" "$tmp/t/common"
}

for f in check-source/bad/tools/*.c check-source/bad/common/*.c; do
	[ -f "$f" ] || continue
	sub=${f#check-source/bad/}
	rule=$(sed -n '1s|^/\* expect: \([a-z-]*\) - .*|\1|p' "$f")
	fresh
	cp "$f" "$tmp/t/$sub"
	out=$(sh ./check-source.sh "$tmp/t")
	rc=$?
	why=
	if [ -z "$rule" ]; then
		why="no '/* expect: RULE - what */' first line"
	elif [ $rc -ne 1 ]; then
		why="check-source.sh exit $rc, wanted 1"
	elif ! printf '%s\n' "$out" | grep -q "^FAIL source/$rule:\$"; then
		why="rule $rule did not fail"
	elif [ "$(printf '%s\n' "$out" | grep -c '^FAIL')" -ne 1 ]; then
		why="a rule other than $rule failed too"
	elif ! printf '%s\n' "$out" | grep -q "^    $sub:[0-9]"; then
		why="the failure does not name $sub"
	fi
	result "source/$sub" "$why"
done

for c in check-source/bad/trees/*/; do
	c=${c%/}
	[ -f "$c/expect" ] || continue
	fresh
	cp -R "$c/." "$tmp/t/" && rm -f "$tmp/t/expect"
	out=$(sh ./check-source.sh "$tmp/t")
	rc=$?
	# the lines from a FAIL line up to the next PASS or FAIL line
	block=$(printf '%s\n' "$out" | awk '/^(PASS|FAIL) / { in_fail = /^FAIL / } in_fail')
	why=
	if [ $rc -ne 1 ]; then
		why="check-source.sh exit $rc, wanted 1"
	elif [ "$(printf '%s\n' "$out" | grep -c '^FAIL')" -ne 1 ]; then
		why="more than one rule failed"
	elif [ "$block" != "$(cat "$c/expect")" ]; then
		why="the failure is not the one in $c/expect"
	fi
	result "source/trees/${c##*/}" "$why"
done

fresh
cp -R check-source/clean/. "$tmp/t/"
out=$(sh ./check-source.sh "$tmp/t")
rc=$?
[ $rc -eq 0 ] && why= || why="check-source.sh exit $rc on clean code, wanted 0"
result source/clean "$why"

for s in check-docs/bad/*.sed; do
	[ -f "$s" ] || continue
	c=${s##*/}
	c=${c%.sed}
	file=$(sed -n 's/^# file: //p' "$s")
	expect=$(sed -n 's/^# expect: //p' "$s")
	rm -rf "$tmp/t" && mkdir -p "$tmp/t"
	cp -R check-docs/clean/. "$tmp/t/"
	out= why=
	if [ -z "$file" ] || [ -z "$expect" ]; then
		why="no '# file: PATH' or no '# expect: ERE' line"
	elif [ ! -f "check-docs/clean/$file" ]; then
		why="no $file in check-docs/clean"
	elif ! out=$(sed -f "$s" "check-docs/clean/$file" 2>&1 > "$tmp/t/$file"); then
		why="sed -f $s failed"
	elif cmp -s "check-docs/clean/$file" "$tmp/t/$file"; then
		why="$s changes nothing in $file"
	else
		out=$(sh ./check-docs.sh "$tmp/t")
		rc=$?
		fails=$(printf '%s\n' "$out" | grep '^FAIL')
		if [ $rc -ne 1 ]; then
			why="check-docs.sh exit $rc, wanted 1"
		elif [ "$(printf '%s\n' "$fails" | wc -l)" -ne 1 ]; then
			why="more than one FAIL line"
		elif ! printf '%s\n' "$fails" | grep -Eq -- "$expect"; then
			why="the FAIL line does not match /$expect/"
		fi
	fi
	result "docs/$c" "$why"
done

rm -rf "$tmp/t" && mkdir -p "$tmp/t"
cp -R check-docs/clean/. "$tmp/t/"
out=$(sh ./check-docs.sh "$tmp/t")
rc=$?
[ $rc -eq 0 ] && why= || why="check-docs.sh exit $rc on a clean page, wanted 0"
result docs/clean "$why"
exit $bad

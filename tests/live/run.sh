#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/live/run.sh - run the live tests against the real tracefs (root)
#
# usage: tests/live/run.sh [BINDIR] [TOOL...]
# Prints PASS/FAIL/SKIP per test and a final "N passed, N failed, N skipped" line;
# exits 1 if any test failed. Runs under busybox sh as well as dash and bash.
# Each test file is read and run in a subshell of its own, so the functions and
# variables one file defines are never seen by another; the file's counts come
# back through $WORK/.counts. A file that ends before its last test, and a
# TOOL with no file, are one FAIL line each.
# A file that says "exit_paths TOOL" also runs TOOL's exit-path tests
# (tests/exits.sh) after its own.
# LIVE_ONLY (shell patterns, space-separated, e.g. "kprobe/exit_*") keeps only
# the tests whose FILE/TEST name matches one of them; LIVE_SKIP (the same
# form) leaves out those that match one of its patterns.

HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$(cd "${1:-bin}" && pwd)
WORKLOADS=$(cd "$HERE/../bin" 2>/dev/null && pwd)
[ $# -gt 0 ] && shift
. "$HERE/../lib.sh"
. "$HERE/../exits.sh"

if [ "$(id -u)" != 0 ]; then
	echo "SKIP live: not root"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
# the tools mount tracefs themselves; the snapshot needs it mounted first
[ -e "$T/trace" ] || mount -t tracefs nodev "$T" 2>/dev/null || {
	echo "FAIL live: tracefs not available at $T"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
}

WORK=$(mktemp -d /tmp/ftt-live.XXXXXX) || exit 1
trap 'rm -rf "$WORK"' EXIT
passed=0 failed=0 skipped=0
KERNEL=$(uname -r)

files=
if [ $# -gt 0 ]; then
	for t in "$@"; do files="$files $HERE/$t.sh"; done
else
	files=$(ls "$HERE"/*.sh | grep -v '/run.sh$')
fi

for f in $files; do
	tool=$(basename "$f" .sh)
	if [ ! -r "$f" ]; then
		echo "FAIL $tool [$KERNEL]: no test file $f" | tee -a "$WORK/.failures"
		failed=$((failed + 1))
		continue
	fi
	rm -f "$WORK/.counts"
	(
		passed=0 failed=0 skipped=0
		. "$f"
		tests=$(grep -o '^t_[a-z0-9_]*' "$f")
		grep -q '^exit_paths ' "$f" && tests="$tests $EXIT_TESTS"
		for t in $tests; do
			name="$tool/${t#t_}"
			keep=1
			set -f		# the patterns are for names, not files
			if [ -n "${LIVE_ONLY:-}" ]; then
				keep=0
				for pat in $LIVE_ONLY; do
					case $name in $pat) keep=1 ;; esac
				done
			fi
			for pat in ${LIVE_SKIP:-}; do
				case $name in $pat) keep=0 ;; esac
			done
			set +f
			[ $keep = 1 ] || continue
			TMP="$WORK/$tool.${t#t_}"
			mkdir -p "$TMP"
			tracefs_snapshot > "$TMP/.before"
			start=$(date +%s)
			( cd "$TMP" && $t ) > "$TMP/.log" 2>&1
			rc=$?
			tracefs_snapshot > "$TMP/.after"
			dur=$(( $(date +%s) - start ))
			if ! snapshot_compare "$TMP/.before" "$TMP/.after" > "$TMP/.diff"; then
				echo "tracefs state changed:" >> "$TMP/.why"
				head -20 "$TMP/.diff" >> "$TMP/.why"
				rc=1
			fi
			# a tool's "internal:" message is a bug, whatever the test checked
			if grep -q 'internal:' "$TMP/err" 2>/dev/null; then
				echo "the tool said: $(grep 'internal:' "$TMP/err" | head -2)" >> "$TMP/.why"
			fi
			if [ -s "$TMP/.why" ] || [ $rc -ne 0 ]; then
				{
					echo "FAIL $name [$KERNEL] (${dur}s)"
					[ -s "$TMP/.why" ] && sed 's/^/    /' "$TMP/.why"
					[ -s "$TMP/.why" ] || sed 's/^/    /' "$TMP/.log" | tail -10
					# what the tool printed last, for a failure that does not say
					for f in out err; do
						[ -s "$TMP/$f" ] || continue
						echo "    the tool's std$f, last lines:"
						tail -n 5 "$TMP/$f" | cut -c1-300 | sed 's/^/      | /'
					done
				} | tee -a "$WORK/.failures"
				failed=$((failed + 1))
			elif [ -e "$TMP/.skip" ]; then
				echo "SKIP $name [$KERNEL]: $(cat "$TMP/.skip")"
				skipped=$((skipped + 1))
			else
				# a test may leave its measured figures in .info
				echo "PASS $name [$KERNEL] (${dur}s)$([ -s "$TMP/.info" ] && printf ': %s' "$(head -c 200 "$TMP/.info")")"
				passed=$((passed + 1))
			fi
			echo "$passed $failed $skipped" > "$WORK/.counts"
		done
		echo "$passed $failed $skipped end" > "$WORK/.counts"
		exit 0
	)
	rc=$?
	# what the file's tests counted, up to where it ended
	n_p=0 n_f=0 n_s=0 end=
	[ -s "$WORK/.counts" ] && read -r n_p n_f n_s end < "$WORK/.counts"
	passed=$((passed + n_p)) failed=$((failed + n_f)) skipped=$((skipped + n_s))
	if [ $rc -ne 0 ] || [ "$end" != end ]; then
		echo "FAIL $tool [$KERNEL]: $f ended before its last test (status $rc)" |
			tee -a "$WORK/.failures"
		failed=$((failed + 1))
	fi
done
# the failures again at the end, where a log cut to its last lines shows them
if [ $failed -ne 0 ] && [ $failed -le 8 ]; then
	echo "what failed:"
	cat "$WORK/.failures"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]

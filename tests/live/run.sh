#!/bin/sh
# tests/live/run.sh - run the live tests against the real tracefs (root)
#
# usage: tests/live/run.sh [BINDIR] [TOOL...]
# Prints PASS/FAIL/SKIP per test and a final "N passed, N failed, N skipped" line;
# exits 1 if any test failed. Runs under busybox sh as well as dash and bash.
# LIVE_ONLY (shell patterns, space-separated, e.g. "reliability/*_kprobe")
# keeps only the tests whose FILE/TEST name matches one of them.

HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$(cd "${1:-bin}" && pwd)
WORKLOADS=$(cd "$HERE/../bin" 2>/dev/null && pwd)
[ $# -gt 0 ] && shift
. "$HERE/../lib.sh"

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
	. "$f"
	for t in $(grep -o '^t_[a-z0-9_]*' "$f"); do
		name="$tool/${t#t_}"
		if [ -n "${LIVE_ONLY:-}" ]; then
			keep=0
			set -f		# the patterns are for names, not files
			for pat in $LIVE_ONLY; do
				case $name in $pat) keep=1 ;; esac
			done
			set +f
			[ $keep = 1 ] || continue
		fi
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
		if [ -s "$TMP/.why" ] || [ $rc -ne 0 ]; then
			{
				echo "FAIL $name [$KERNEL] (${dur}s)"
				[ -s "$TMP/.why" ] && sed 's/^/    /' "$TMP/.why"
				[ -s "$TMP/.why" ] || sed 's/^/    /' "$TMP/.log" | tail -10
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
	done
done
# the failures again at the end, where a log cut to its last lines shows them
if [ $failed -ne 0 ] && [ $failed -le 8 ]; then
	echo "what failed:"
	cat "$WORK/.failures"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]

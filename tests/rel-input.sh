# SPDX-License-Identifier: GPL-2.0-only
# tests/rel-input.sh - what every tool must refuse, for tests/live/reliability.sh:
# the bad-input table (tests/rel-bad-input.txt), run row by row; a user who
# is not root; a tracefs read-only or missing (a private mount namespace)

# the table: rows of TOOL :: NEEDS :: EXIT :: STDERR-ERE :: ARGS
REL_BAD_TABLE=$HERE/../rel-bad-input.txt

# rel_needs WHAT - can the kernel run rows that need WHAT
rel_needs() {
	case $1 in
	-) return 0 ;;
	kprobes) kernel_has kprobe_events ;;
	uprobes) kernel_has uprobe_events ;;
	fgraph) rel_has_tracer function_graph ;;
	ftrace) rel_has_tracer function && head -1 "$T/set_ftrace_filter" > /dev/null 2>&1 ;;
	*) return 1 ;;
	esac
}

# rel_bad_parse LINE - one row of the table: sets tool, needs, want (the
# exit status), re (the stderr ERE) and args (ARGS, not yet eval'd)
rel_bad_parse() {
	tool=${1%% :: *} rest=${1#* :: }
	needs=${rest%% :: *} rest=${rest#* :: }
	want=${rest%% :: *} rest=${rest#* :: }
	re=${rest%% :: *} args=${rest#* :: }
	[ "$re" = "$rest" ] && re=${rest%" ::"} args=
	return 0
}

# rel_bad_row - run the row rel_bad_parse read: exit status, one line on
# stderr naming the problem, no crash, tracefs untouched
rel_bad_row() {
	eval "set -- $args"
	tracefs_snapshot > "$TMP/snap.before"
	timeout -k 10 $((60 * SLOW)) "$BIN/$tool" "$@" > "$TMP/eout" 2> "$TMP/eerr" < /dev/null
	rc=$?	# (124: it traced for a minute instead of refusing)
	tracefs_snapshot > "$TMP/snap.after"
	what="$tool $args"
	[ $rc -lt 128 ] || fail "'$what': killed by signal $((rc - 128))"
	[ "$rc" = "$want" ] || fail "'$what': exit $rc, wanted $want; stderr: $(head -c 200 "$TMP/eerr")"
	l=$(wc -l < "$TMP/eerr")
	[ "$l" -eq 1 ] || fail "'$what': $l lines on stderr: $(head -c 300 "$TMP/eerr")"
	grep -Eq -- "$re" "$TMP/eerr" || fail "'$what': stderr '$(head -c 200 "$TMP/eerr")' does not match /$re/"
	snapshot_compare "$TMP/snap.before" "$TMP/snap.after" > "$TMP/snap.diff" ||
		fail "'$what' changed tracefs: $(head -5 "$TMP/snap.diff")"
}

# rel_bad_rows KIND - run the rows of the bad-input table that need nothing
# (KIND plain) or a kernel feature (KIND kernel), each checked by
# rel_bad_row; sets rows (the rows of KIND), ran (those run) and
# skipped_rows (the tools, and features, of those not run)
rel_bad_rows() {
	kind=$1 rows=0 ran=0 skipped_rows=
	grep -v '^#' "$REL_BAD_TABLE" > "$TMP/table"
	while IFS= read -r line; do
		rel_bad_parse "$line"
		case $kind:$needs in plain:-|kernel:[!-]*) ;; *) continue ;; esac
		rows=$((rows + 1))
		[ -x "$BIN/$tool" ] || { skipped_rows="$skipped_rows $tool"; continue; }
		rel_needs "$needs" || { skipped_rows="$skipped_rows $tool($needs)"; continue; }
		ran=$((ran + 1))
		rel_bad_row
	done < "$TMP/table"
	echo "bad input ($kind): $rows rows, $ran run; skipped:${skipped_rows:- none}"
}

# rel_exit1_line WHAT RC - run WHAT ended with RC 1 and one line on stderr
# ($TMP/eerr)
rel_exit1_line() {
	[ "$2" = 1 ] || fail "$1: exit $2, wanted 1: $(head -c 200 "$TMP/eerr")"
	[ "$(wc -l < "$TMP/eerr")" -eq 1 ] || fail "$1: stderr not one line: $(head -c 300 "$TMP/eerr")"
}

# rel_as_nobody CMD... - run CMD as user nobody (setpriv, su or chroot);
# 127 with REL_WHY set if none of them works here
rel_as_nobody() {
	if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	elif chroot --userspec=65534:65534 / true 2>/dev/null; then
		chroot --userspec=65534:65534 / "$@"
	elif su -s /bin/sh nobody -c true 2>/dev/null; then
		# su takes one command string: quote every word
		cmd=
		for a in "$@"; do cmd="$cmd '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"; done
		su -s /bin/sh nobody -c "$cmd"
	else
		REL_WHY="no setpriv --reuid, chroot --userspec or su here"
		return 127
	fi
}

# rel_in_ns SETUP CMD... - run CMD in a private mount namespace after the
# shell commands SETUP; 127 with REL_WHY if unshare cannot do it here, 125 if
# SETUP failed or the mounts would propagate out (126: CMD could not be executed)
rel_in_ns() {
	setup=$1
	shift
	unshare -m true 2>/dev/null || { REL_WHY="unshare -m not possible here"; return 127; }
	# shellcheck disable=SC2016
	# refuse to touch mounts that would propagate back out of the namespace
	unshare -m sh -c 'mount --make-rprivate / 2>/dev/null
		grep -E " /sys/kernel/(tracing|debug)" /proc/self/mountinfo | grep -q shared: && exit 125
		eval "$0" || exit 125
		exec "$@"' "$setup" "$@"
}

# the tracefs mount points, deepest first
REL_MOUNTS='$(grep -E " (tracefs|debugfs) " /proc/mounts | cut -d" " -f2 | sort -r)'

# rel_ro_check - tracefs is still writable here (the namespace did not leak)
rel_ro_check() {
	grep " $T tracefs " /proc/mounts | grep -q ' rw[, ]' ||
		fail "tracefs at $T is no longer mounted rw outside the namespace!"
}

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench/exact.sh - exactness of opensnoop and execsnoop on real programs
#
# usage: sh bench/exact.sh         (as root)
#
# What it measures: for each open and exec that a workload of real programs
# makes, whether the tool's row shows exactly the right path (opensnoop) or
# argv (execsnoop -x), with the right PID and result; and whether any row of
# the workload's processes shows a value that is not the one the call was
# made with.
#
# The workload: BENCH_EXACT_N programs (default 200), in turn
#   cat      cat DIR/f_I DIR/nf_I           (one open that works, one ENOENT)
#   ls       ls DIR/d_I
#   python3  python3 -c "open('DIR/p_I').read()"
#   sh       sh -c 'true a_I b_I <DIR/s_I; /nonexistent/x_I c_I'
#            (an exec inside, with a redirect, and a failed exec inside)
#   fail     /nonexistent/y_I e_I           (a failed exec)
# run by sh under `strace -f -e trace=open,openat,openat2,execve,execveat`.
# Every program's own paths and argv are unique to it, so the workload knows
# what it opens and execs, and with what result: that list is "expected". The
# strace log, kept apart from the tool, is the record of every open and exec
# of the workload's processes (the shell, the programs, the dynamic loader,
# the C library): each call's PID (strace sees the real ones), its path or
# argv and its result, in order per PID.
#
# Each tool runs alone: started, its "Tracing" line awaited on its stdout, the
# workload run, 0.5 s to settle, then SIGINT and wait for it to exit. Its rows
# of the workload's PIDs are matched to that PID's calls in order (a row takes
# the next call with its result and its value, else the next call with its
# result). Per program kind:
#   expected  the workload's own opens (execs) of that kind
#   exact     the matched row shows that path (argv), PID and result (FD or
#             -1; RET 0 or the error)
#   unknown   the matched row shows [?] (exec: the file and [?], argv unknown)
#   missing   no row for it
#   wrong     rows of the kind's PIDs (any row, not only the expected ones)
#             whose value is not the one strace recorded for that call; [?]
#             is never wrong. A wrong row on an expected call counts there too.
#   [?] not its own  rows of the kind's PIDs with [?] that are not the
#             workload's own calls (the dynamic loader's opens of libraries)
#   calls, rows  the opens (execs) strace recorded for the kind's PIDs, and
#             the tool's rows of those PIDs
# The PIDs of no kind (the workload's shell) show as "other".
#
# Two runs per tool: the rung the tool picks by itself, and FTT_CAPTURE=none
# (no value taken at the call: all [?], none wrong). Exit status 1 if any row
# is wrong, if exact/expected is under 99% for a tool on its own rung, if a
# tool does not exit 0 after SIGINT, or if the workload did not do what it
# says. The wrong rows are listed after the table, each with its strace line.
#
# Settings (environment):
#   BINDIR          our binaries (default bin)
#   BENCH_EXACT_N   programs per run (default 200)
#   BENCH_EXACT_KEEP  1: keep the run's files (printed at the end)

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
BINDIR=${BINDIR:-bin}
case $BINDIR in /*) ;; *) BINDIR=$TOP/$BINDIR ;; esac
N=${BENCH_EXACT_N:-200}
KEEP=${BENCH_EXACT_KEEP:-0}

die() { echo "exact: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root (tracefs)"
case $N in '' | *[!0-9]*) die "BENCH_EXACT_N must be a number" ;; esac
[ "$N" -ge 5 ] || die "BENCH_EXACT_N must be at least 5 (one program of each kind)"
for t in opensnoop execsnoop; do
	[ -x "$BINDIR/$t" ] || die "$BINDIR/$t is not built (make)"
done
command -v strace > /dev/null 2>&1 || die "strace is not installed (apt-get install strace)"

# the programs, by full path (the files, not shell builtins), so no PATH
# search makes extra execs
WPATH=/usr/bin:/bin
prog() {
	for dir in /usr/bin /bin; do
		[ -f "$dir/$1" ] && [ -x "$dir/$1" ] && { echo "$dir/$1"; return 0; }
	done
	return 1
}
for p in cat ls sh true python3; do
	prog $p > /dev/null || die "no $p in $WPATH"
done
CAT=$(prog cat) LS=$(prog ls) SH=$(prog sh) TRUE=$(prog true) PY=$(prog python3)

W=$(mktemp -d "${TMPDIR:-/tmp}/exact.XXXXXX") || die "cannot make a directory"
TPID=
cleanup() {
	[ -n "$TPID" ] && kill -INT "$TPID" 2> /dev/null
	if [ "$KEEP" = 1 ]; then echo "exact: files kept in $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# mkwork DIR - DIR/work.sh (the workload, with the files it opens) and
# DIR/expect: one line per open and exec it makes of its own, tab-separated:
# kind, open|exec, path or argv joined by spaces, result (fd, 0 or the error)
mkwork() {
	w_d=$1 i=1
	: > "$w_d/work.sh"
	: > "$w_d/expect"
	while [ "$i" -le "$N" ]; do
		case $((i % 5)) in
		1)
			echo "$i" > "$w_d/f_$i"
			echo "$CAT $w_d/f_$i $w_d/nf_$i >/dev/null 2>&1" >> "$w_d/work.sh"
			printf 'cat\topen\t%s\tfd\n' "$w_d/f_$i" "$w_d/nf_$i" |
				sed '2s/fd$/ENOENT/' >> "$w_d/expect"
			printf 'cat\texec\t%s\t0\n' "$CAT $w_d/f_$i $w_d/nf_$i" >> "$w_d/expect"
			;;
		2)
			mkdir "$w_d/d_$i"
			echo "$LS $w_d/d_$i >/dev/null" >> "$w_d/work.sh"
			printf 'ls\topen\t%s\tfd\n' "$w_d/d_$i" >> "$w_d/expect"
			printf 'ls\texec\t%s\t0\n' "$LS $w_d/d_$i" >> "$w_d/expect"
			;;
		3)
			echo "$i" > "$w_d/p_$i"
			echo "$PY -c \"open('$w_d/p_$i').read()\"" >> "$w_d/work.sh"
			printf 'python3\topen\t%s\tfd\n' "$w_d/p_$i" >> "$w_d/expect"
			printf 'python3\texec\t%s\t0\n' "$PY -c open('$w_d/p_$i').read()" >> "$w_d/expect"
			;;
		4)
			echo "$i" > "$w_d/s_$i"
			w_s="$TRUE a_$i b_$i <$w_d/s_$i; /nonexistent/x_$i c_$i"
			echo "$SH -c '$w_s' 2>/dev/null" >> "$w_d/work.sh"
			printf 'sh\topen\t%s\tfd\n' "$w_d/s_$i" >> "$w_d/expect"
			printf 'sh\texec\t%s\t0\n' "$SH -c $w_s" "$TRUE a_$i b_$i" >> "$w_d/expect"
			printf 'sh\texec\t%s\tENOENT\n' "/nonexistent/x_$i c_$i" >> "$w_d/expect"
			;;
		0)
			echo "/nonexistent/y_$i e_$i 2>/dev/null" >> "$w_d/work.sh"
			printf 'fail\texec\t%s\tENOENT\n' "/nonexistent/y_$i e_$i" >> "$w_d/expect"
			;;
		esac
		i=$((i + 1))
	done
	echo "exit 0" >> "$w_d/work.sh"
}

# trace TOOL RUNG DIR ARGS... - run TOOL (RUNG: FTT_CAPTURE, empty for its own
# choice) around the workload in DIR: DIR/out, DIR/err, DIR/strace, DIR/rc
trace() {
	t_tool=$1 t_rung=$2 t_d=$3
	shift 3
	(
		if [ -n "$t_rung" ]; then export FTT_CAPTURE="$t_rung"; else unset FTT_CAPTURE; fi
		exec "$BINDIR/$t_tool" -v "$@"
	) > "$t_d/out" 2> "$t_d/err" &
	TPID=$!
	n=0
	until grep -q '^Tracing' "$t_d/out" 2> /dev/null; do
		if ! kill -0 "$TPID" 2> /dev/null || [ $n -ge 1200 ]; then
			kill -INT "$TPID" 2> /dev/null
			wait "$TPID"
			TPID=
			sed 's/^/  /' "$t_d/err" >&2
			die "$t_tool did not start (no Tracing line)"
		fi
		sleep 0.1
		n=$((n + 1))
	done
	PATH=$WPATH strace -f -qq -s 8192 -e signal=none \
		-e trace=open,openat,openat2,execve,execveat \
		-o "$t_d/strace" "$SH" "$t_d/work.sh" > /dev/null 2>&1
	sleep 0.5
	kill -INT "$TPID"
	wait "$TPID"
	echo $? > "$t_d/rc"
	TPID=
}

# The matcher. Files: DIR/expect, DIR/strace, DIR/out; -v mode=open|exec.
# Prints one line per kind: kind expected exact unknown missing wrong calls
# rows unknown-other; then "nostrace N", "badresult N"; on fd 3 (DIR/wrong) the
# wrong rows with their strace lines.
MATCH='
function unesc(s,   o, i, c, e) {
	o = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\" && i < length(s)) {
			e = substr(s, ++i, 1)
			if (e == "n") c = "\n"; else if (e == "t") c = "\t"; else c = e
		}
		o = o c
	}
	return o
}
# strs(S) - the quoted strings of an strace argument list: STR[1..NS], and
# those of the first [...] array in ARR[1..NA]
function strs(s,   i, j, c, L, inarr, done, v) {
	NS = NA = 0; inarr = done = 0; L = length(s)
	for (i = 1; i <= L; i++) {
		c = substr(s, i, 1)
		if (c == "\"") {
			for (j = i + 1; j <= L; j++) {
				c = substr(s, j, 1)
				if (c == "\\") { j++; continue }
				if (c == "\"") break
			}
			v = unesc(substr(s, i + 1, j - i - 1))
			STR[++NS] = v
			if (inarr) ARR[++NA] = v
			i = j
		} else if (c == "[" && !done) inarr = 1
		else if (c == "]" && inarr) { inarr = 0; done = 1 }
	}
}
# hex(n) - n as the tools print an FD
function hex(n) { return sprintf("0x%x", n) }
BEGIN { FS = "\t" }
FILENAME ~ /expect$/ {
	EXPK[$2, $3] = $1; EXPR[$2, $3] = $4; NEXP[$2]++
	next
}
FILENAME ~ /strace$/ {
	line = $0
	if (!match(line, /^[0-9]+ +/)) next
	pid = substr(line, 1, RLENGTH); sub(/ +$/, "", pid)
	rest = substr(line, RLENGTH + 1)
	WPID[pid] = 1
	if (rest ~ /<unfinished \.\.\.>$/) {
		sub(/ *<unfinished \.\.\.>$/, "", rest); PEND[pid] = rest; next
	}
	if (rest ~ /^<\.\.\. [a-z0-9_]+ resumed>/) {
		sub(/^<\.\.\. [a-z0-9_]+ resumed> ?/, "", rest)
		rest = PEND[pid] rest; delete PEND[pid]; line = pid " " rest
	}
	name = rest; sub(/\(.*/, "", name)
	if (name ~ /^open(at2?)?$/) t = "open"
	else if (name ~ /^execve(at)?$/) t = "exec"
	else next
	if (t != mode) next
	# the result: after the last " = "
	r = rest; p = 0
	while ((q = index(r, " = ")) > 0) { p += q + 2; r = substr(r, q + 3) }
	if (!p) next
	split(r, w, " ")
	args = substr(rest, 1, p - 3)
	strs(args)
	if (w[1] ~ /^[0-9]+$/) res = (t == "open") ? hex(w[1] + 0) : w[1]
	else if (w[1] == "-1") res = (t == "open") ? "-1" : w[2]
	else res = "?"
	if (t == "open") { file = (NS ? STR[1] : "?"); val = file }
	else {
		file = (NS ? STR[1] : "?"); val = ""
		for (i = 1; i <= NA; i++) val = val (i > 1 ? " " : "") ARR[i]
	}
	k = ++NC[pid]
	CV[pid, k] = val; CF[pid, k] = file; CR[pid, k] = res; CL[pid, k] = line
	CE[pid, k] = w[1] " " w[2]
	if ((t, val) in EXPK) {
		if ((t, val) in WHERE) DUP++
		WHERE[t, val] = pid SUBSEP k
		if (!(pid in KIND) || KIND[pid] == "other") KIND[pid] = EXPK[t, val]
	}
	next
}
# the tool rows
{
	line = $0
	if (mode == "open") {
		if (length(line) < 18 || substr(line, 17, 1) != " ") next
		r = substr(line, 18)
		if (!match(r, /^ *[0-9]+ +[^ ]+ /)) next
		split(substr(r, 1, RLENGTH), w, " ")
		pid = w[1]; res = w[2]; val = substr(r, RLENGTH + 1)
		if (res != "-1" && res !~ /^0x[0-9a-f]+$/) next
		if (val == "[?]") { known = 0; file = "" }
		else { known = 1; file = val }
	} else {
		if (!match(line, /^ *[0-9]+ +([0-9]+|\?) +/)) next
		split(substr(line, 1, RLENGTH), w, " ")
		pid = w[1]; r = substr(line, RLENGTH + 1)
		res = r; sub(/ .*/, "", res)
		r = substr(r, length(res) + 1)
		if (length(res) < 7) r = substr(r, 7 - length(res) + 1)
		val = substr(r, 2)
		if (res != "0" && res !~ /^E[A-Z0-9]+$/) next
		if (val == "[?]") { known = 0; file = "" }
		else if (val ~ / \[\?\]$/) { known = 0; file = substr(val, 1, length(val) - 4) }
		else known = 1
	}
	if (!(pid in WPID)) next
	kind = (pid in KIND) ? KIND[pid] : "other"
	ROWS[kind]++
	# the next call of pid with this result and this value, else with this result
	m = 0
	for (k = POS[pid] + 1; k <= NC[pid]; k++) {
		if (CR[pid, k] != res) continue
		if (!m) m = -k
		if (known && ok(val, CV[pid, k])) { m = k; break }
		if (!known && (file == "" || file == CF[pid, k])) { m = k; break }
	}
	if (m > 0) {
		POS[pid] = m
		ST[pid, m] = known ? "exact" : "unknown"
		if (!known && !((mode, CV[pid, m]) in EXPK)) UNK[kind]++
		next
	}
	WRONG[kind]++
	if (m < 0) { POS[pid] = -m; ST[pid, -m] = "wrong" }
	nw++
	printf "  row:    %s\n  strace: %s\n", line, \
		m < 0 ? CL[pid, -m] : "(no call of PID " pid " left with this result)" > wrongf
}
# ok(shown, called) - the shown value is the called one (or its start, cut short)
function ok(s, c) {
	if (s == c) return 1
	if (s ~ / \[\.\.\.\]$/) { s = substr(s, 1, length(s) - 6); return index(c, s " ") == 1 }
	if (s ~ / \[cut\]$/) { s = substr(s, 1, length(s) - 6); return index(c, s) == 1 }
	return 0
}
END {
	for (key in EXPK) {
		split(key, kk, SUBSEP)
		if (kk[1] != mode) continue
		kind = EXPK[key]; E[kind]++
		if (!(key in WHERE)) { NOSTRACE++; continue }
		split(WHERE[key], pk, SUBSEP)
		want = EXPR[key]
		got = CE[pk[1], pk[2]]
		if (want == "fd" ? got !~ /^[0-9]+ / : (want == "0" ? got !~ /^0 / : got != "-1 " want))
			BADRES++
		s = ST[pk[1], pk[2]]
		if (s == "") s = "missing"
		C[kind, s]++
	}
	for (pid in WPID)
		CALLS[(pid in KIND) ? KIND[pid] : "other"] += NC[pid]
	nk = split("cat ls python3 sh fail other", kinds, " ")
	for (i = 1; i <= nk; i++) {
		kind = kinds[i]
		printf "%s %d %d %d %d %d %d %d %d\n", kind, E[kind], C[kind, "exact"], \
			C[kind, "unknown"], C[kind, "missing"], WRONG[kind], CALLS[kind], \
			ROWS[kind], UNK[kind]
	}
	printf "nostrace %d\nbadresult %d\ndup %d\n", NOSTRACE, BADRES, DUP
}
'

RES=$W/results
: > "$RES"
fail=0 why=
runs=0
for rung in own none; do
	for tool in opensnoop execsnoop; do
		runs=$((runs + 1))
		d=$W/run$runs
		mkdir "$d" || die "cannot make $d"
		mkwork "$d"
		if [ $tool = opensnoop ]; then mode=open args=; else mode=exec args=-x; fi
		trace $tool "${rung#own}" "$d" $args
		name=$(sed -n 's/.*(capture rung \([a-z]*\).*/\1/p' "$d/err" | head -n 1)
		[ -n "$name" ] || name=?
		rc=$(cat "$d/rc")
		awk -v mode=$mode -v wrongf="$d/wrong" "$MATCH" \
			"$d/expect" "$d/strace" "$d/out" > "$d/counts" || die "the matcher failed"
		: >> "$d/wrong"
		lost=$(grep -i 'lost' "$d/err" | head -n 1)
		while read -r kind e x u m wr calls rows unk; do
			case $kind in
			nostrace | badresult | dup)
				[ "$e" = 0 ] || {
					echo "exact: $tool: the workload: $kind $e (see $d)" >&2
					fail=1
				}
				continue ;;
			esac
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
				$tool "$name" "$rung" $kind $e $x $u $m $wr $calls $rows $unk >> "$RES"
		done < "$d/counts"
		echo "$tool $name $rc $d ${lost:-}" >> "$W/runs"
	done
done

# the table
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b) printf "%.1f%%", 100 * a / b; else printf "-" }'; }
echo "## Exactness against strace: $N programs per run ($(uname -r))"
echo
echo "| tool | rung | program | expected | exact | unknown | missing | wrong | exact/expected | calls of its PIDs (strace) | rows of its PIDs | [?] not its own |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for rung in own none; do
	for tool in opensnoop execsnoop; do
		what=$(if [ $tool = opensnoop ]; then echo opens; else echo execs; fi)
		awk -F '\t' -v t=$tool -v r="$rung" '$1 == t && $3 == r' "$RES" > "$W/sel"
		while IFS='	' read -r tl name rg kind e x u m wr calls rows unk; do
			[ "$kind" = other ] && [ "$e" = 0 ] && [ "$rows" = 0 ] && continue
			p=$(pct "$x" "$e")
			[ "$e" = 0 ] && e=- x=- u=- m=- p=-
			echo "| $tool | $name | $kind | $e | $x | $u | $m | $wr | $p | $calls | $rows | $unk |"
		done < "$W/sel"
		set -- $(awk -F '\t' '{ for (i = 5; i <= 12; i++) s[i] += $i }
			END { for (i = 5; i <= 12; i++) printf "%d ", s[i] }' "$W/sel")
		name=$(head -n 1 "$W/sel" | cut -f 2)
		p=$(pct "$2" "$1")
		echo "| $tool | $name | **all $what** | $1 | $2 | $3 | $4 | **$5** | **$p** | $6 | $7 | $8 |"
		[ "$5" = 0 ] || why="$why; $tool $name: $5 wrong"
		if [ $rung = own ] && [ "$(awk -v a="$2" -v b="$1" 'BEGIN { print (b && a >= 0.99 * b) }')" != 1 ]; then
			why="$why; $tool $name: exact under 99%"
		fi
	done
done
echo
while read -r tool name rc d lost; do
	st="exited $rc after SIGINT"
	[ "$rc" -gt 128 ] && st="$st (killed by signal $((rc - 128)))"
	echo "- $tool, rung $name: $st${lost:+; it said: $lost}"
	[ "$rc" = 0 ] || why="$why; $tool $name: exit status $rc"
	if [ -s "$d/wrong" ]; then
		echo "- $tool, rung $name: wrong rows, each with the strace line of its call:"
		echo
		echo '```'
		cat "$d/wrong"
		echo '```'
	fi
done < "$W/runs"
echo
[ $fail = 0 ] || why="$why; the workload did not do what it says"
if [ -z "$why" ]; then echo "Result: pass"; exit 0; fi
echo "Result: FAIL (${why#; })"
exit 1

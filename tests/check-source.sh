#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/check-source.sh - source rules the reliability promises rest on
#
#   1. no shell is ever started: no system(), popen(), exec*(), posix_spawn(),
#      fork(), vfork(), clone() (or their syscall numbers) or "/bin/sh" in
#      tools/ and common/; the children are the capture check's
#      (common/ladder.c), which opens and execs a path under /proc that
#      cannot exist, and runs nothing, and the command a tool runs and
#      traces (common/child.c: a keeper process and the command's), exec'd
#      as the user typed it (syscount's operand), or as the text --exec
#      gives, which the user asks a shell to run (sh -c)
#   2. no tracefs path is built or opened by hand: no "/sys/kernel" or debugfs
#      path anywhere, and tools/ never call the raw tracefs file helpers
#      (writes, appends, opens, path builders): that is common/'s job
#   3. files outside tracefs are created only safely: O_CREAT only with O_EXCL
#      and O_NOFOLLOW on the same line (common/journal.c, in a private root
#      directory), no creat(), fopen()/freopen() only with a literal mode that
#      cannot create (no "w", no "a", no mode in a variable), no
#      mktemp()/tmpnam()/tempnam()
#   4. no dependency cycle among common/ files: the files are layered, every
#      arrow pointing down (leaves, utilities, tracefs core, mechanisms,
#      tools). X (common/X.c and common/X.h together) depends on Y when
#      either of them includes "Y.h" of common/. A call is not looked for
#      apart: a function of Y.h is only called where Y.h is included, by
#      X.c or X.h or by a header they include, itself an arrow, so a cycle
#      of calls is always a cycle of includes too. A failure names each
#      cycle (the shortest through each file on one not named yet) and the
#      include line behind each of its arrows.
#   5. every source file, script and the Makefile carries the line
#      "SPDX-License-Identifier: GPL-2.0-only" among its first three lines;
#      so do the files of debian/ whose format has comments (not changelog
#      and source/format; debian/copyright states it for every file)
#   6. an allocation that fails dies through common/xalloc.h (xmalloc,
#      xstrdup, xasprintf... or xalloc_die after a library's allocator), so
#      "out of memory" is written in common/xalloc.c alone: the string, in
#      any case, nowhere else in the files XALLOC_SCOPE matches (common/
#      and tools/)
#   7. no include points up: common/layers gives each file its layer
#      ("LAYER: FILE...", lowest first), and for each arrow of rule 4 (X
#      includes "Y.h") both X and Y are listed there and Y's layer is X's or
#      one below it. A failure names each such include line and the layers.
#
# The rules look at code only: comments are blanked out first (a line that
# starts with '*' or holds a comment before the code is still checked), and
# string literals are kept.
#
# usage: tests/check-source.sh [DIR]
# DIR (default: the source tree) is the root whose tools/*.c, common/*.c and
# common/*.h are checked; tests/check-selftest.sh points it at known-bad files.
# Prints PASS/FAIL lines; exit 1 on any violation.
if [ $# -gt 0 ]; then
	cd "$1" || exit 1
else
	cd "$(dirname "$0")/.." || exit 1
fi
bad=0

# code FILE... - every line as FILE:LINE:CODE, the comments blanked out and
# string and character literals kept (a "/*" in a string starts no comment)
code() {
	awk '
	FNR == 1 { inc = 0 }
	{
		s = $0; n = length(s); out = ""; q = ""; i = 1
		while (i <= n) {
			c = substr(s, i, 1); d = substr(s, i + 1, 1)
			if (inc) {
				if (c == "*" && d == "/") { inc = 0; out = out "  "; i += 2 }
				else { out = out " "; i++ }
			} else if (q != "") {
				if (c == "\\") { out = out c d; i += 2; continue }
				if (c == q)
					q = ""
				out = out c; i++
			} else if (c == "\"" || c == "'\''") {
				q = c; out = out c; i++
			} else if (c == "/" && d == "*") {
				inc = 1; out = out "  "; i += 2
			} else if (c == "/" && d == "/") {
				break
			} else {
				out = out c; i++
			}
		}
		sub(/[ \t]+$/, "", out)
		print FILENAME ":" FNR ":" out
	}' "$@"
}

FILES=
for f in tools/*.c common/*.c common/*.h; do
	[ -f "$f" ] && FILES="$FILES $f"
done
# shellcheck disable=SC2086
CODE=$([ -n "$FILES" ] && code $FILES)

# check NAME ERE SCOPE - fail NAME for every line of code in a file whose path
# matches ERE SCOPE and whose code matches ERE (and whose FILE:LINE:CODE does
# not match $EXCEPT, an ERE, when set)
check() {
	name=$1
	hits=$(printf '%s\n' "$CODE" | RE=$2 SCOPE=$3 awk '
	{
		match($0, /^[^:]*:[0-9]+:/)
		file = substr($0, 1, index($0, ":") - 1)
		if (file ~ ENVIRON["SCOPE"] && substr($0, RLENGTH + 1) ~ ENVIRON["RE"] &&
		    (ENVIRON["EXCEPT"] == "" || $0 !~ ENVIRON["EXCEPT"]))
			print
	}')
	if [ -n "$hits" ]; then
		echo "FAIL source/$name:"
		printf '%s\n' "$hits" | sed 's/^/    /'
		bad=1
	else
		echo "PASS source/$name"
	fi
}

ALL='^(tools|common)/'
TOOLS='^tools/'
W='[^A-Za-z0-9_]'	# a character that cannot be part of a name
# the capture check's child (common/ladder.c, prove and proof_child), and the
# keeper and the command's (common/child.c, child_start, in_keeper, in_child
# and the shell child_shell runs), exactly
export EXCEPT='^common/ladder\.c:[0-9]+:[[:space:]]*(p\.child = fork\(\);|execve\(path, argv, \(char \*const\[\]\)\{ NULL \}\);)[[:space:]]*$|^common/child\.c:[0-9]+:[[:space:]]*(keeper = fork\(\);|cmd = fork\(\);|execve\(path, argv, environ\);|#define SHELL_PATH "/bin/sh")[[:space:]]*$'
check no-shell "(^|$W)(system|popen|exec(l|lp|le|v|vp|vpe|ve|veat)|fexecve|posix_spawnp?|vfork|fork|clone3?)[[:space:]]*\\(|(SYS|__NR)_(execve|execveat|fork|vfork|clone|clone3)(\$|$W)|\"/bin/(ba|da)?sh\"" "$ALL"
EXCEPT=
check no-hand-made-tracefs-path '"/sys/kernel/(tracing|debug)|"/debug/tracing|debugfs' "$ALL"
check tools-use-common-for-tracefs 'tracefs_(instance_file_write|instance_file_append|instance_file_clear|event_file_write|event_file_append|event_file_clear|instance_file_open|get_tracing_file|put_tracing_file|instance_get_file|event_get_file|tracing_dir|get_tracing_dir|set_tracing_dir|tracing_dir_is_mounted|debug_dir|instance_get_dir|instance_get_trace_dir|dynevent_destroy_all|instance_reset)[[:space:]]*\(' "$TOOLS"
# fopen()/freopen(): a literal mode with "w" or "a"; a mode that is not a
# literal (the second argument); a call whose arguments go on to the next line
FOPEN="(^|$W)f(re)?open[[:space:]]*\\("
check no-unsafe-file-creation "(^|$W)creat[[:space:]]*\\(|${FOPEN}[^;]*,[[:space:]]*\"[^\"]*[wa]|${FOPEN}[^,;]*,[[:space:]]*[^\"[:space:]]|${FOPEN}[^,;]*(,[[:space:]]*)?\$|(^|$W)(mktemp|tmpnam|tempnam)[[:space:]]*\\(" "$ALL"
# O_CREAT only with O_EXCL and O_NOFOLLOW on the same line
EXCEPT='O_EXCL.*O_NOFOLLOW|O_NOFOLLOW.*O_EXCL'
check create-exclusive-nofollow 'O_CREAT' "$ALL"
EXCEPT=

# the arrows: "X Y FILE:LINE" for each include of common/Y.h by common/X.[ch]
# (the first line that makes it), Y.h present in the tree and Y not X
arrows=$(printf '%s\n' "$CODE" | awk '
{
	match($0, /^[^:]*:[0-9]+:/)
	where = substr($0, 1, RLENGTH - 1)
	file = substr(where, 1, index(where, ":") - 1)
	code = substr($0, RLENGTH + 1)
	if (file !~ /^common\/[^\/]+\.[ch]$/ ||
	    code !~ /^[ \t]*#[ \t]*include[ \t]*"[^"\/]+\.h"/)
		next
	from = substr(file, 8); sub(/\.[ch]$/, "", from)
	to = code; sub(/^[^"]*"/, "", to); sub(/\.h".*$/, "", to)
	if (to != from && !((from, to) in seen)) {
		seen[from, to] = 1
		print from, to, where
	}
}' | while read -r from to where; do
	[ -f "common/$to.h" ] && printf '%s %s %s\n' "$from" "$to" "$where"
done | sort -k1,1 -k2,2)

# the cycles among them, as "cycle: A -> B -> A" and the arrows' include lines
cycles=$(printf '%s\n' "$arrows" | awk '
NF == 3 {
	edge[$1, $2] = $3
	if (!($1 in known)) { known[$1] = 1; node[++n] = $1 }
	if (!($2 in known)) { known[$2] = 1; node[++n] = $2 }
}
END {
	# the nodes in name order
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && node[j - 1] > node[j]; j--) {
			t = node[j]; node[j] = node[j - 1]; node[j - 1] = t
		}
	for (i = 1; i <= n; i++)
		for (j = 1; j <= n; j++)
			reach[i, j] = ((node[i], node[j]) in edge)
	for (k = 1; k <= n; k++)
		for (i = 1; i <= n; i++)
			if (reach[i, k])
				for (j = 1; j <= n; j++)
					if (reach[k, j])
						reach[i, j] = 1
	for (s = 1; s <= n; s++) {
		if (!reach[s, s] || named[s])
			continue
		# breadth first from s, neighbours in name order: the shortest way back
		split("", parent); split("", queued)
		head = 1; tail = 1; queue[1] = s; queued[s] = 1; last = 0
		while (head <= tail && !last) {
			u = queue[head++]
			for (v = 1; v <= n; v++) {
				if (!((node[u], node[v]) in edge))
					continue
				if (v == s) { last = u; break }
				if (!(v in queued)) {
					queued[v] = 1; parent[v] = u; queue[++tail] = v
				}
			}
		}
		m = 0
		for (u = last; u != s; u = parent[u])
			path[++m] = u
		path[++m] = s
		line = "cycle: " node[s]; from = s; lines = ""
		for (i = m - 1; i >= 0; i--) {
			to = i ? path[i] : s
			line = line " -> " node[to]
			lines = lines "\n    " edge[node[from], node[to]] ": #include \"" node[to] ".h\""
			named[to] = 1
			from = to
		}
		print line lines
	}
}')
if [ -n "$cycles" ]; then
	echo "FAIL source/no-dependency-cycle:"
	printf '%s\n' "$cycles" | sed 's/^/    /'
	bad=1
else
	echo "PASS source/no-dependency-cycle"
fi

# rule 7: every arrow stays in its layer or points down (common/layers)
upward=$(printf '%s\n' "$arrows" | awk -v table=common/layers '
BEGIN {
	while ((getline line < table) > 0) {
		if (line ~ /^#/ || line ~ /^[ \t]*$/)
			continue
		if (line ~ /^[^ \t]/) {
			name = line; sub(/:.*/, "", name)
			rank[name] = ++n
			sub(/^[^:]*:/, "", line)
		}
		k = split(line, f, /[ \t]+/)
		for (i = 1; i <= k; i++)
			if (f[i] != "") {
				at[f[i]] = n
				layer[f[i]] = name
			}
	}
}
NF == 3 {
	inc = "    " $3 ": #include \"" $2 ".h\": "
	if (!($1 in at))
		print inc $1 " is not in common/layers"
	else if (!($2 in at))
		print inc $2 " is not in common/layers"
	else if (at[$2] > at[$1])
		print inc $1 " (" layer[$1] ") includes " $2 " (" layer[$2] "), a higher layer"
}')
if [ -n "$upward" ]; then
	echo "FAIL source/no-upward-include:"
	printf '%s\n' "$upward"
	bad=1
else
	echo "PASS source/no-upward-include"
fi

# rule 5: every file states its licence in an SPDX line among its first three
spdx=
for f in tools/*.c common/*.c common/*.h common/layers tests/unit/*.[ch] tests/replay/*.[ch] tests/workloads/*.c \
	 tests/fuzz/*.[ch] tests/preload/*.c bench/*.c tests/*.sh tests/live/*.sh \
	 tests/vm/*.sh bench/*.sh setup.sh Makefile .ci/run completion/*.bash \
	 debian/control debian/copyright debian/rules debian/postinst debian/prerm \
	 debian/triggers; do
	[ -f "$f" ] || continue
	head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-only' ||
		spdx="$spdx$f:1: no 'SPDX-License-Identifier: GPL-2.0-only' in the first 3 lines
"
done
if [ -n "$spdx" ]; then
	echo "FAIL source/spdx-licence-line:"
	printf '%s' "$spdx" | sed 's/^/    /'
	bad=1
else
	echo "PASS source/spdx-licence-line"
fi

# rule 6: "out of memory" only in common/xalloc.c, where the x allocations die
XALLOC_SCOPE='^(common|tools)/'
EXCEPT='^common/xalloc\.c:'
check out-of-memory-only-in-xalloc '[Oo][Uu][Tt] [Oo][Ff] [Mm][Ee][Mm][Oo][Rr][Yy]' "$XALLOC_SCOPE"
EXCEPT=
exit $bad

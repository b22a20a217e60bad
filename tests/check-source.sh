#!/bin/sh
# tests/check-source.sh - source rules the reliability promises rest on
#
#   1. no shell is ever started: no system(), popen(), exec*(), posix_spawn(),
#      fork() or "/bin/sh" in tools/ and common/; the one child is the capture
#      check's (common/capture.c), which opens and execs a path under /proc
#      that cannot exist, and runs nothing
#   2. no tracefs path is built or opened by hand: no "/sys/kernel" or debugfs
#      path anywhere, and tools/ never call the raw tracefs file helpers
#      (writes, appends, opens, path builders): that is common/'s job
#   3. files outside tracefs are created only safely: O_CREAT only with O_EXCL
#      and O_NOFOLLOW on the same line (common/journal.c, in a private root
#      directory), no creat(), fopen() for writing, mktemp()/tmpnam()/tempnam()
# Prints PASS/FAIL lines; exit 1 on any violation.
cd "$(dirname "$0")/.." || exit 1
bad=0

# check NAME ERE FILES... - fail NAME for every non-comment line matching ERE
# (and not matching $EXCEPT, an ERE, when set)
check() {
	name=$1 re=$2
	shift 2
	hits=$(grep -nE -- "$re" "$@" 2>/dev/null |
		grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)' |
		grep -vE -- "${EXCEPT:-^\$}")
	if [ -n "$hits" ]; then
		echo "FAIL source/$name:"
		echo "$hits" | sed 's/^/    /'
		bad=1
	else
		echo "PASS source/$name"
	fi
}

ALL="tools/*.c common/*.c common/*.h"
EXCEPT='^common/capture\.c:[0-9]+:.*= fork\(\);[[:space:]]*/\* the check.s child'
check no-shell '(^|[^a-z_])(system|popen|execl|execlp|execle|execv|execvp|execvpe|fexecve|posix_spawnp?|vfork|fork)[[:space:]]*\(|"/bin/(ba|da)?sh"' $ALL
EXCEPT=
check no-hand-made-tracefs-path '"/sys/kernel/(tracing|debug)|"/debug/tracing|debugfs' $ALL
check tools-use-common-for-tracefs 'tracefs_(instance_file_write|instance_file_append|instance_file_clear|event_file_write|event_file_append|event_file_clear|instance_file_open|get_tracing_file|instance_get_file|tracing_dir|get_tracing_dir|instance_get_dir|dynevent_destroy_all|instance_reset)[[:space:]]*\(' tools/*.c
check no-unsafe-file-creation '[^a-z_]creat[[:space:]]*\(|fopen[[:space:]]*\([^,]*,[[:space:]]*"[wa]|(^|[^a-z_])(mktemp|tmpnam|tempnam)[[:space:]]*\(' $ALL
# O_CREAT only with O_EXCL and O_NOFOLLOW on the same line
EXCEPT='O_EXCL.*O_NOFOLLOW|O_NOFOLLOW.*O_EXCL'
check create-exclusive-nofollow 'O_CREAT' $ALL
EXCEPT=
exit $bad

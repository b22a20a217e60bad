#!/bin/sh
# tests/check-docs.sh - every tool has a man page and an example, and every
# option its usage text lists is documented in the man page's OPTIONS
cd "$(dirname "$0")/.." || exit 1
bad=0
for src in tools/*.c; do
	t=$(basename "$src" .c)
	man=man/man8/$t.8
	[ -f "$man" ] || { echo "FAIL docs/$t: no $man"; bad=1; continue; }
	[ -f "examples/${t}_example.txt" ] || { echo "FAIL docs/$t: no examples/${t}_example.txt"; bad=1; }
	for sec in NAME SYNOPSIS DESCRIPTION REQUIREMENTS OPTIONS EXAMPLES FIELDS OVERHEAD "EXIT STATUS" "SEE ALSO"; do
		grep -q "^\.SH \"\{0,1\}$sec" "$man" || { echo "FAIL docs/$t: man page lacks $sec"; bad=1; }
	done
	# option lines of the usage text look like '   -x ... # text'
	for opt in $(sed -n 's/^"[[:space:]]*\(-[A-Za-z]\)[[:space:]].*#.*/\1/p' "$src" | sort -u); do
		letter=${opt#-}
		grep -q "^\\\\fB\\\\-$letter\\\\fR" "$man" || { echo "FAIL docs/$t: option $opt missing from $man"; bad=1; }
	done
	[ $bad -eq 0 ] && echo "PASS docs/$t"
done
exit $bad

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

# --- man page lint (mandoc) and title line ---
# check_mandoc - every man page passes `mandoc -T lint` with no WARNING or
# ERROR (style notes allowed), and its .TH line has the one form all pages
# share: .TH NAME 8 "YYYY-MM-DD" "ftrace tools VERSION" "System Administration",
# VERSION the VERSION file's, one date on all
check_mandoc() {
	if ! command -v mandoc > /dev/null; then
		echo "FAIL docs/mandoc: mandoc not installed (Debian package mandoc)"
		return 1
	fi
	mbad=0 v=$(cat VERSION)
	for man in man/man8/*.8; do
		t=$(basename "$man" .8)
		T=$(echo "$t" | tr a-z A-Z)
		out=$(mandoc -T lint -W warning "$man" 2>&1)
		[ -z "$out" ] || { echo "FAIL docs/mandoc/$t:"; echo "$out" | sed 's/^/    /'; mbad=1; }
		head -1 "$man" | grep -qx "\.TH $T 8 \"[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]\" \"ftrace tools $v\" \"System Administration\"" ||
			{ echo "FAIL docs/mandoc/$t: .TH is not: .TH $T 8 \"YYYY-MM-DD\" \"ftrace tools $v\" \"System Administration\""; mbad=1; }
	done
	[ "$(awk 'FNR == 1' man/man8/*.8 | cut -d' ' -f4- | sort -u | wc -l)" -le 1 ] ||
		{ echo "FAIL docs/mandoc: the pages' .TH dates or versions differ"; mbad=1; }
	[ $mbad -eq 0 ] && echo "PASS docs/mandoc: $(ls man/man8/*.8 | wc -l) pages lint clean"
	return $mbad
}
check_mandoc || bad=1
exit $bad

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/check-docs.sh - every tool has a man page and an example; the man page
# has each house section (by its exact name), in the house order (see
# section_order); every option the usage text
# lists is documented in the man page's OPTIONS section and named in its
# SYNOPSIS; and the usage text
# (what -h prints) and the getopt string agree: each option letter getopt
# accepts has its line in the usage text and is in the USAGE lines, each flag
# the usage text shows is accepted, and an option takes an argument in the
# usage text exactly when it does in getopt
#
# usage: tests/check-docs.sh [DIR]
# DIR (default: the source tree) is the root whose tools/*.c, man/man8/*.8 and
# examples/ are checked; tests/check-selftest.sh points it at known-bad pages.
# Prints PASS/FAIL lines; exit 1 on any problem.
if [ $# -gt 0 ]; then
	cd "$1" || exit 1
else
	cd "$(dirname "$0")/.." || exit 1
fi
bad=0

# usage_text SRC - the text of SRC's usage_text[] string, one line a line
usage_text() {
	awk '/usage_text\[\] =/ { u = 1; next } u { print; if (/;[[:space:]]*$/) exit }' "$1" |
		sed 's/^[[:space:]]*"//; s/"[[:space:]]*;\{0,1\}[[:space:]]*$//; s/\\n$//; s/\\"/"/g'
}

# man_section MAN NAME - the lines of MAN's section NAME (without its .SH line)
man_section() {
	SEC=$2 awk '/^\.SH/ {
		s = $0
		sub(/^\.SH[[:space:]]+/, "", s)
		sub(/[[:space:]]+$/, "", s)
		gsub(/"/, "", s)
		o = (s == ENVIRON["SEC"])
		next
	} o' "$1"
}

# section_order MAN - nothing if MAN's sections come in the house order (NAME,
# SYNOPSIS first; then DESCRIPTION, OPTIONS, EXAMPLES, FIELDS, OVERHEAD, NOTES
# in this order, other sections between them allowed), else the first problem
section_order() {
	awk '/^\.SH/ {
		s = $0
		sub(/^\.SH[[:space:]]+/, "", s)
		sub(/[[:space:]]+$/, "", s)
		gsub(/"/, "", s)
		if (!(s in at))
			at[s] = ++n
	}
	END {
		k = split("NAME SYNOPSIS DESCRIPTION OPTIONS EXAMPLES FIELDS OVERHEAD NOTES", w, " ")
		for (i = 1; i <= k; i++) {
			if (!(w[i] in at)) {
				print "section " w[i] " missing from " FILENAME
				exit
			}
			if (i <= 2 && at[w[i]] != i) {
				print "section " w[i] " of " FILENAME " is misplaced: it must be section " i
				exit
			}
			if (i > 2 && at[w[i]] < at[w[i - 1]]) {
				print "section " w[i] " of " FILENAME " is misplaced: it must come after " w[i - 1]
				exit
			}
		}
	}' "$1"
}

# has_letter LIST LETTER - is LETTER one of the letters in LIST
has_letter() {
	case $1 in *"$2"*) return 0 ;; esac
	return 1
}

for src in tools/*.c; do
	[ -f "$src" ] || continue
	t=$(basename "$src" .c)
	man=man/man8/$t.8
	tbad=0
	[ -f "$man" ] || { echo "FAIL docs/$t: no $man"; bad=1; continue; }
	[ -f "examples/${t}_example.txt" ] || { echo "FAIL docs/$t: no examples/${t}_example.txt"; tbad=1; }
	for sec in NAME SYNOPSIS DESCRIPTION REQUIREMENTS OPTIONS EXAMPLES FIELDS OVERHEAD "EXIT STATUS" "SEE ALSO"; do
		grep -Eq "^\.SH[[:space:]]+(\"$sec\"|$sec)[[:space:]]*\$" "$man" ||
			{ echo "FAIL docs/$t: man page lacks $sec"; tbad=1; }
	done
	usage=$(usage_text "$src")
	[ -n "$usage" ] || { echo "FAIL docs/$t: no usage_text in $src"; bad=1; continue; }
	# option lines of the usage text look like '   -x [ARG] ... # text':
	# "x" for an option without an argument, "x:" for one with
	optlines=$(printf '%s\n' "$usage" |
		sed -n 's/^[[:space:]]*-\([A-Za-z]\)[[:space:]]*#.*/\1/p; s/^[[:space:]]*-\([A-Za-z]\)[[:space:]][[:space:]]*[^#[:space:]][^#]*#.*/\1:/p')
	# the USAGE lines: those before the first option line
	synopsis=$(printf '%s\n' "$usage" | sed '/^[[:space:]]*-[A-Za-z][[:space:]]/,$d')
	# every flag the usage text shows, anywhere: -x, -xy, [-xyz]
	shown=$(printf '%s\n' "$usage" | awk '{
		s = " " $0
		while (match(s, /[ \t([]-[A-Za-z]+/)) {
			f = substr(s, RSTART + 2, RLENGTH - 2)
			for (i = 1; i <= length(f); i++)
				print substr(f, i, 1)
			s = substr(s, RSTART + RLENGTH)
		}
	}' | sort -u)
	# the getopt string: its letters, "x:" for one that takes an argument
	gs=$(sed -n -e 's/.*getopt\(_long\)\{0,1\}([^"]*"\([^"]*\)".*/\2/p' \
		-e 's/.*opt_next([^"]*"\([^"]*\)".*/\1/p' "$src" | head -n 1)
	[ -n "$gs" ] || { echo "FAIL docs/$t: no getopt string in $src"; bad=1; continue; }
	gs=${gs#[:+-]}
	gs=${gs#[:+-]}
	accepted=$(printf '%s\n' "$gs" | awk '{
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c ~ /[A-Za-z]/) {
				if (a != "")
					print a
				a = c
			} else if (c == ":" && a !~ /:$/)
				a = a ":"
		}
		if (a != "")
			print a
	}')
	letters=$(printf '%s\n' "$accepted" | tr -d ':\n')
	for a in $accepted; do
		l=${a%:}
		lines=$(printf '%s\n' "$optlines" | grep -c "^$l:\\{0,1\\}\$")
		if [ "$lines" -eq 0 ]; then
			echo "FAIL docs/$t: -$l is in the getopt string but has no line in the usage text"
			tbad=1
			continue
		elif [ "$lines" -gt 1 ]; then
			echo "FAIL docs/$t: -$l has $lines lines in the usage text"
			tbad=1
		elif ! printf '%s\n' "$optlines" | grep -qx "$a"; then
			case $a in
			*:) echo "FAIL docs/$t: -$l takes an argument (getopt) but its usage line shows none" ;;
			*) echo "FAIL docs/$t: -$l takes no argument (getopt) but its usage line shows one" ;;
			esac
			tbad=1
		fi
		printf '%s\n' "$synopsis" | grep -Eq "(^|[[:space:]]|\\[)-[A-Za-z]*$l" ||
			{ echo "FAIL docs/$t: -$l is in the getopt string but not in the USAGE lines"; tbad=1; }
	done
	for l in $shown; do
		has_letter "$letters" "$l" ||
			{ echo "FAIL docs/$t: the usage text shows -$l, which the getopt string does not accept"; tbad=1; }
	done
	# every option line is named in the man page's SYNOPSIS ([\-xyz] or
	# [\-x ARG]) and documented in its OPTIONS section
	msyn=$(man_section "$man" SYNOPSIS)
	options=$(man_section "$man" OPTIONS)
	for a in $optlines; do
		l=${a%:}
		printf '%s\n' "$msyn" | grep -Eq "\\\\-[A-Za-z]*$l" ||
			{ echo "FAIL docs/$t: option -$l missing from the SYNOPSIS of $man"; tbad=1; }
		printf '%s\n' "$options" | grep -q "^\\\\fB\\\\-$l\\\\fR" ||
			{ echo "FAIL docs/$t: option -$l missing from the OPTIONS of $man"; tbad=1; }
	done
	# the section order, on a page with no other problem (one line a page)
	if [ $tbad -eq 0 ]; then
		why=$(section_order "$man")
		[ -z "$why" ] || { echo "FAIL docs/$t: $why"; tbad=1; }
	fi
	if [ $tbad -eq 0 ]; then
		echo "PASS docs/$t"
	else
		bad=1
	fi
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

# --- rendered as a reader sees them: groff without a warning, and every jq
# program in a page's text (the argument after "| jq" and its options) one
# that jq compiles (exit 3 is jq's for a program it cannot compile)
check_rendered() {
	rbad=0 n=0
	for man in man/man8/*.8; do
		t=$(basename "$man" .8)
		out=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
		[ -z "$out" ] || { echo "FAIL docs/groff/$t:"; echo "$out" | sed 's/^/    /'; rbad=1; }
		MANWIDTH=500 man -l "$man" 2>/dev/null | sed -n 's/.*| *jq\( -[a-z]\)* //p' |
			while IFS= read -r rest; do
				case $rest in
				\'*) prog=${rest#\'}; prog=${prog%%\'*} ;;
				*) prog=${rest%% *} ;;
				esac
				jq -n "$prog" > /dev/null 2>&1
				[ $? != 3 ] || echo "jq cannot compile: $prog"
			done > "${TMPDIR:-/tmp}/ftt-jq.$$"
		if [ -s "${TMPDIR:-/tmp}/ftt-jq.$$" ]; then
			echo "FAIL docs/jq/$t:"; sed 's/^/    /' "${TMPDIR:-/tmp}/ftt-jq.$$"; rbad=1
		fi
		n=$((n + $(MANWIDTH=500 man -l "$man" 2>/dev/null | grep -c '| *jq')))
	done
	rm -f "${TMPDIR:-/tmp}/ftt-jq.$$"
	[ $rbad -eq 0 ] && echo "PASS docs/rendered: no groff warning; $n jq programs compile"
	return $rbad
}
if command -v groff > /dev/null && command -v jq > /dev/null && command -v man > /dev/null; then
	check_rendered || bad=1
else
	echo "FAIL docs/rendered: groff, man or jq not installed (Debian packages groff-base, man-db, jq)"
	bad=1
fi

# --- OVERHEAD figures: each measured figure a page's OVERHEAD gives (a ratio
# such as 0.99x, a time such as 1.46 s or 6.2 us, a percentage) is in
# bench/RESULTS.md, where the run that measured it is published
check_overhead() {
	ok=1
	for m in man/man8/*.8; do
		man_section "$m" OVERHEAD | sed 's/\\-/-/g; s/\\(ti/~/g' |
			grep -oE '[0-9]+(\.[0-9]+)?(x\b| (s|ms|us|ns)\b|%)' | sort -u > "$tmpd/figs"
		while read -r f; do
			re="(^|[^0-9.])$(printf '%s' "$f" | sed 's/\./\\./g')([^0-9A-Za-z]|\$)"
			grep -qE -- "$re" bench/RESULTS.md 2>/dev/null ||
				{ echo "FAIL docs/overhead: ${m##*/}: '$f' is not in bench/RESULTS.md"; ok=0; }
		done < "$tmpd/figs"
	done
	[ $ok -eq 1 ] && echo "PASS docs/overhead: every figure of every OVERHEAD is in bench/RESULTS.md"
	[ $ok -eq 1 ]
}
tmpd=$(mktemp -d) || exit 1
check_overhead || bad=1
rm -rf "$tmpd"

# --- one version: the VERSION file's number is the package's (debian/changelog)
v=$(cat VERSION) c=$(sed -n '1s/^ftrace-tools (\([^)]*\)).*/\1/p' debian/changelog)
if [ "$v" = "$c" ]; then
	echo "PASS docs/version: VERSION and debian/changelog agree ($v)"
else
	echo "FAIL docs/version: VERSION says '$v', debian/changelog '$c'"
	bad=1
fi
if [ -f README.md ] && ! grep -qF "VERSION file's number ($v)" README.md; then
	echo "FAIL docs/version: README.md does not give VERSION's number ($v)"
	bad=1
fi
exit $bad

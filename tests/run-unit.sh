#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/run-unit.sh - run the unit test programs, the documentation and source checks
#
# usage: tests/run-unit.sh UNIT_BINARY...
# Each unit program prints FAIL lines and a final PASS/FAIL tally line, and
# exits 0 (passed) or 1 (failed); one that cannot run here prints
# "SKIP name: reason" and exits 77 (UNIT_SKIP in tests/unit/unit.h). A skip
# is counted as a skip, never as a pass: a SKIP line from a program that
# exits 0, or exit 77 without a SKIP line and its reason, is a failure.
# Ends with "unit: N passed, N failed, N skipped"; exit 1 if any failed.
failed=0 passed=0 skipped=0
for t in "$@"; do
	out=$("$t")
	rc=$?
	[ -n "$out" ] && printf '%s\n' "$out"
	reason=$(printf '%s\n' "$out" | grep -E '^SKIP [^ ]+: [^ ]')
	if [ $rc -eq 77 ] && [ -n "$reason" ]; then
		skipped=$((skipped + 1))
	elif [ $rc -eq 77 ]; then
		echo "FAIL $t: exit 77 (skip) without a 'SKIP name: reason' line"
		failed=$((failed + 1))
	elif [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^SKIP'; then
		echo "FAIL $t: prints SKIP but exits 0 (a pass)"
		failed=$((failed + 1))
	elif [ $rc -eq 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
if sh "$(dirname "$0")/check-docs.sh"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
if sh "$(dirname "$0")/check-source.sh"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
echo "unit: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]

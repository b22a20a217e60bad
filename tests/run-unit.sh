#!/bin/sh
# tests/run-unit.sh - run the unit test programs, the documentation and source checks
#
# usage: tests/run-unit.sh UNIT_BINARY...
# Each unit program prints FAIL lines and a final PASS/FAIL tally line.
failed=0 passed=0
for t in "$@"; do
	if "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
if sh "$(dirname "$0")/check-docs.sh"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
if sh "$(dirname "$0")/check-source.sh"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
echo "unit: $passed passed, $failed failed"
[ $failed -eq 0 ]

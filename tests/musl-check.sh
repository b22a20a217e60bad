#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/musl-check.sh - every source file compiles against musl's libc headers
# (with the libtracefs/libtraceevent headers), warnings as errors
cd "$(dirname "$0")/.." || exit 1
if ! command -v musl-gcc > /dev/null; then
	echo "FAIL build/musl: musl-gcc not installed (Debian package musl-tools)"
	exit 1
fi
inc=$(pkg-config --cflags-only-I libtracefs libtraceevent)
bad=0
for f in common/*.c tools/*.c; do
	if ! musl-gcc -D_GNU_SOURCE -Icommon $inc -Wall -Wextra \
		-Werror -c -o /dev/null "$f"; then
		echo "FAIL build/musl: $f"
		bad=1
	fi
done
[ $bad -eq 0 ] && echo "PASS build/musl: $(ls common/*.c tools/*.c | wc -l) files compile with musl-gcc"
exit $bad

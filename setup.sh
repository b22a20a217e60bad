#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# setup.sh - install what the suite needs to build and test (Debian 12), then build
#
# Build: gcc or clang, make, pkg-config, libtracefs-dev, libtraceevent-dev.
# Tests: musl-tools (musl compile check), qemu-system-x86, busybox-static, cpio,
# kmod, xz-utils (the real-kernel test bed), perf-tools-unstable and gawk (bench/:
# the perf-tools scripts, and gawk for opensnoop-perf),
# libclang-rt-14-dev (sanitizer and libFuzzer runtimes: check-asan, fuzz),
# mandoc (the man pages' lint in tests/check-docs.sh),
# debhelper, dpkg-dev, fakeroot, lintian and man-db (tests/check-package.sh:
# builds the .deb with dpkg-buildpackage, lints it, checks man -w),
# jq (the live tests parse every line the tools print with -j, JSON Lines).
set -e
PKGS="gcc clang make pkg-config libtracefs-dev libtraceevent-dev musl-tools
qemu-system-x86 busybox-static cpio kmod xz-utils perf-tools-unstable gawk libclang-rt-14-dev mandoc
debhelper dpkg-dev fakeroot lintian man-db jq"
missing=
for p in $PKGS; do
	dpkg -s "$p" > /dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi
make

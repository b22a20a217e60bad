/* expect: no-shell - a shell's path */
/* SPDX-License-Identifier: GPL-2.0-only */
static const char *shell = "/bin/sh";

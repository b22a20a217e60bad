/* expect: no-shell - code on a line that starts with '*' */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(FILE **fp, const char *cmd)
{
	*fp = popen(cmd, "r");
}

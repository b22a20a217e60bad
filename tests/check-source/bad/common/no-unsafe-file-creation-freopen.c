/* expect: no-unsafe-file-creation - freopen() for appending */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(const char *path)
{
	freopen(path, "ae", stdout);
}

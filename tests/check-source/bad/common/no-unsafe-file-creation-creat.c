/* expect: no-unsafe-file-creation - creat() */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(const char *path)
{
	int fd = creat(path, 0600);
}

/* expect: no-unsafe-file-creation - fopen() with its mode in a variable */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(const char *path, const char *mode)
{
	FILE *f = fopen(path, mode);
}

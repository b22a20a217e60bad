/* expect: no-unsafe-file-creation - fopen() whose mode is on the next line */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(const char *path)
{
	FILE *f = fopen(path,
			"a");
}

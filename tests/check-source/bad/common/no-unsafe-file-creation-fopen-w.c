/* expect: no-unsafe-file-creation - fopen() for writing */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(const char *path)
{
	FILE *f = fopen(path, "w");
}

/* expect: no-unsafe-file-creation - mktemp() */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(char *tmpl)
{
	mktemp(tmpl);
}

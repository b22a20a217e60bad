/* expect: no-shell - code after a comment on the same line */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(void)
{
	/* c */ fork();
}

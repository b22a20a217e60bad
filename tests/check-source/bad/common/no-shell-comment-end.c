/* expect: no-shell - code after the end of a comment that began lines above */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(void)
{
	/* a comment
	 * on two lines */ vfork();
}

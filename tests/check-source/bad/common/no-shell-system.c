/* expect: no-shell - system() starts a shell */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(void)
{
	system("ls");
}

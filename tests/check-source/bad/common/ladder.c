/* expect: no-shell - a fork() in ladder.c that is not the check's child */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(void)
{
	pid_t pid = fork();	/* the check's child */
}

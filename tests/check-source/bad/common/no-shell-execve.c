/* expect: no-shell - execve() */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(const char *path, char *const *argv, char *const *envp)
{
	execve(path, argv, envp);
}

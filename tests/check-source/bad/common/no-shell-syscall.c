/* expect: no-shell - the execve syscall by its number */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(const char *path, char *const *argv, char *const *envp)
{
	syscall(SYS_execve, path, argv, envp);
}

/* expect: no-shell - the execve syscall by its number */
void f(const char *path, char *const *argv, char *const *envp)
{
	syscall(SYS_execve, path, argv, envp);
}

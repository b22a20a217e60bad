/* expect: no-shell - execve() */
void f(const char *path, char *const *argv, char *const *envp)
{
	execve(path, argv, envp);
}

/* expect: no-shell - a fork() in capture.c that is not the check's child */
void f(void)
{
	pid_t pid = fork();	/* the check's child */
}

/* expect: no-shell - system() starts a shell */
void f(void)
{
	system("ls");
}

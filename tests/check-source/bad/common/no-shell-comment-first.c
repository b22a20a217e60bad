/* expect: no-shell - code after a comment on the same line */
void f(void)
{
	/* c */ fork();
}

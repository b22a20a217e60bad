/* expect: no-shell - code after the end of a comment that began lines above */
void f(void)
{
	/* a comment
	 * on two lines */ vfork();
}

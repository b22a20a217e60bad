/* expect: no-shell - a "/*" in a string starts no comment */
void f(void)
{
	const char *a = "/*"; pid_t p = fork(); const char *b = "*/";
}

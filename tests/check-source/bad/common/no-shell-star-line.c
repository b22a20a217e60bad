/* expect: no-shell - code on a line that starts with '*' */
void f(FILE **fp, const char *cmd)
{
	*fp = popen(cmd, "r");
}

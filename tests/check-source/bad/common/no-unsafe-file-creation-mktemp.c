/* expect: no-unsafe-file-creation - mktemp() */
void f(char *tmpl)
{
	mktemp(tmpl);
}

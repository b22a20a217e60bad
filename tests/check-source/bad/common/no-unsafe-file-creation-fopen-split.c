/* expect: no-unsafe-file-creation - fopen() whose mode is on the next line */
void f(const char *path)
{
	FILE *f = fopen(path,
			"a");
}

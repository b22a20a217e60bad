/* expect: no-unsafe-file-creation - fopen() with its mode in a variable */
void f(const char *path, const char *mode)
{
	FILE *f = fopen(path, mode);
}

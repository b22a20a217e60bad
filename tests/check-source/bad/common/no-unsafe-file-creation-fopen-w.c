/* expect: no-unsafe-file-creation - fopen() for writing */
void f(const char *path)
{
	FILE *f = fopen(path, "w");
}

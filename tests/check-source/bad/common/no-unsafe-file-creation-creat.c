/* expect: no-unsafe-file-creation - creat() */
void f(const char *path)
{
	int fd = creat(path, 0600);
}

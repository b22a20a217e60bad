/* expect: no-unsafe-file-creation - freopen() for appending */
void f(const char *path)
{
	freopen(path, "ae", stdout);
}

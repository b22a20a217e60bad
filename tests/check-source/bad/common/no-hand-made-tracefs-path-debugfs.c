/* expect: no-hand-made-tracefs-path - debugfs */
void f(void)
{
	mount("none", "/mnt", "debugfs", 0, NULL);
}

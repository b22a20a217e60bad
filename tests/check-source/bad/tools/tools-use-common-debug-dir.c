/* expect: tools-use-common-for-tracefs - tracefs_debug_dir() in a tool */
void f(struct tracefs_instance *inst)
{
	const char *p = tracefs_debug_dir();
}

/* expect: tools-use-common-for-tracefs - tracefs_instance_file_write() in a tool */
void f(struct tracefs_instance *inst)
{
	tracefs_instance_file_write(inst, "tracing_on", "1");
}

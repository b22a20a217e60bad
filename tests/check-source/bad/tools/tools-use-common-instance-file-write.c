/* expect: tools-use-common-for-tracefs - tracefs_instance_file_write() in a tool */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(struct tracefs_instance *inst)
{
	tracefs_instance_file_write(inst, "tracing_on", "1");
}

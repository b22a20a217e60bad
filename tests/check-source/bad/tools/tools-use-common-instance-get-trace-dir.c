/* expect: tools-use-common-for-tracefs - tracefs_instance_get_trace_dir() in a tool */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(struct tracefs_instance *inst)
{
	char *p = tracefs_instance_get_trace_dir(inst);
}

/* expect: tools-use-common-for-tracefs - tracefs_debug_dir() in a tool */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(struct tracefs_instance *inst)
{
	const char *p = tracefs_debug_dir();
}

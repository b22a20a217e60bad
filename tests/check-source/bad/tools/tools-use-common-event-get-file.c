/* expect: tools-use-common-for-tracefs - tracefs_event_get_file() in a tool */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(struct tracefs_instance *inst)
{
	char *p = tracefs_event_get_file(inst, "sched", "sched_switch", "enable");
}

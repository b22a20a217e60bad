/* SPDX-License-Identifier: GPL-2.0-only */
/* clean.c - a tool may enable events and read through tracefs; it names
 * tracefs_instance_file_write() and tracefs_event_get_file() only in comments
 */
void f(struct tracefs_instance *inst)
{
	char *s = tracefs_instance_file_read(inst, "trace_clock", NULL);

	tracefs_event_enable(inst, "sched", "sched_switch");
	tracefs_event_file_exists(inst, "sched", "sched_switch", "format");	// not _get_file(
}

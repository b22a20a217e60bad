/* expect: tools-use-common-for-tracefs - tracefs_event_get_file() in a tool */
void f(struct tracefs_instance *inst)
{
	char *p = tracefs_event_get_file(inst, "sched", "sched_switch", "enable");
}

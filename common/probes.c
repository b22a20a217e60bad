/* probes.c - dynamic kprobes owned by one run: unique names, always removed
 *
 * Probe definitions are global even when the events are enabled only in our
 * instance, so each run defines its probes in its own group (ftt_TOOL_PID), keeps
 * the handle, and removes exactly those probes on exit. Other users' probes are
 * never listed for removal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "options.h"
#include "probes.h"
#include "session.h"

/* probes_available - the kernel has kprobe_events (CONFIG_KPROBE_EVENTS) */
int probes_available(void)
{
	return tracefs_file_exists(NULL, "kprobe_events");
}

/* probes_readme_has - the tracing README documents this syntax */
int probes_readme_has(const char *text)
{
	static char *readme;

	if (!readme)
		readme = tracefs_instance_file_read(NULL, "README", NULL);
	return readme && strstr(readme, text) != NULL;
}

/* probe_name_ok - a probe/event name the kernel accepts */
int probe_name_ok(const char *name)
{
	return opt_is_ident(name) && strlen(name) < 64;
}

/* remove_probe - undo action: disable the probe everywhere, then delete it */
static void remove_probe(void *arg)
{
	struct tracefs_dynevent *ev = arg;

	if (tracefs_dynevent_destroy(ev, true) < 0)
		msg_warn("could not remove a probe of this run:");
	tracefs_dynevent_free(ev);
}

/* probe_add - define a kprobe or kretprobe in the session's group */
int probe_add(struct session *s, const char *name, int ret, const char *addr,
	      const char *fetchargs)
{
	struct tracefs_dynevent *ev;

	if (!probe_name_ok(name))
		return -1;
	if (ret)
		ev = tracefs_kretprobe_alloc(s->group, name, addr, fetchargs, 0);
	else
		ev = tracefs_kprobe_alloc(s->group, name, addr, fetchargs);
	if (!ev)
		return -1;
	tracefs_error_clear(NULL);
	if (tracefs_dynevent_create(ev) < 0) {
		int err = errno;

		tracefs_dynevent_free(ev);
		errno = err;
		return -1;
	}
	session_defer(remove_probe, ev);
	return 0;
}

/* probes.h - dynamic kprobes owned by one run: unique names, always removed */
#ifndef FTT_PROBES_H
#define FTT_PROBES_H

#include <tracefs.h>

struct session;

/* probes_available - the kernel has kprobe_events (CONFIG_KPROBE_EVENTS) */
int probes_available(void);
/* probes_readme_has - the tracing README documents this syntax (e.g. "$arg<N>", "ustring") */
int probes_readme_has(const char *text);
/*
 * probe_add - define a kprobe (ret == 0) or kretprobe in the session's group
 * ftt_TOOL_PID as GROUP/NAME at `addr` with `fetchargs` (may be NULL); its
 * removal is pushed on the session's undo stack. On failure returns -1 with
 * the kernel's reason left in error_log (print it with msg_kernel).
 */
int probe_add(struct session *s, const char *name, int ret, const char *addr,
	      const char *fetchargs);
/* probe_name_ok - a probe/event name the kernel accepts: [A-Za-z_][A-Za-z0-9_]{0,63} */
int probe_name_ok(const char *name);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* test_setting - settings files as the kernel shows them: comments, clocks,
 * function lists compared by their names */
#include <tracefs.h>

#include "setting.h"
#include "unit.h"

static char dir[128];

int main(void)
{
	static char *const two[] = { "vfs_write", "vfs_read" };
	static char *const mod[] = { "nfs_file_read", "vfs_read", "vfs_read" };
	char *s;

	unit_tmpdir(dir, sizeof(dir), "setting");
	if (tracefs_set_tracing_dir(dir) < 0) {
		printf("FAIL setting: tracefs_set_tracing_dir %s\n", dir);
		return 1;
	}
	unit_put(dir, "set_ftrace_filter", "#### all functions enabled ####\n");
	s = setting_read(NULL, "set_ftrace_filter");
	CHECK("read: the empty list", s && !strcmp(s, ""));
	free(s);
	unit_put(dir, "set_ftrace_pid", "no pid\n");
	s = setting_read(NULL, "set_ftrace_pid");
	CHECK("read: no pid", s && !strcmp(s, ""));
	free(s);
	unit_put(dir, "trace_clock", "local global counter uptime perf [mono] mono_raw boot\n");
	s = setting_read(NULL, "trace_clock");
	CHECK("read: the clock in use", s && !strcmp(s, "mono"));
	free(s);
	unit_put(dir, "set_graph_function", "vfs_read\nnfs_file_read [nfs]\nvfs_read\n");
	s = setting_read(NULL, "set_graph_function");
	CHECK("read: a list", s && !strcmp(s, "vfs_read\nnfs_file_read [nfs]\nvfs_read"));
	CHECK("holds: names, a module's, a name twice", s && setting_holds(s, mod, 3));
	CHECK("holds: not a subset", s && !setting_holds(s, mod + 1, 2) && !setting_holds(s, two, 2));
	free(s);
	CHECK("holds: the empty list", setting_holds("", NULL, 0) && !setting_holds("vfs_read", NULL, 0));
	CHECK("holds: one of two", !setting_holds("vfs_read", two, 2));
	CHECK("holds: two of two, any order", setting_holds("vfs_read\nvfs_write", two, 2));

	CHECK("is_list", setting_is_list("set_ftrace_filter") && setting_is_list("set_graph_function") &&
	      setting_is_list("set_ftrace_notrace") && !setting_is_list("set_ftrace_pid") &&
	      !setting_is_list("current_tracer"));
	CHECK("same: lists by names", setting_same("set_ftrace_filter", "vfs_read\nvfs_write",
						   "vfs_write\nvfs_read\n"));
	CHECK("same: a module's name", setting_same("set_graph_function", "nfs_file_read [nfs]",
						    "nfs_file_read"));
	CHECK("same: lists differ", !setting_same("set_ftrace_filter", "vfs_read", "vfs_read\nvfs_write") &&
	      !setting_same("set_ftrace_filter", "", "vfs_read"));
	CHECK("same: one value", setting_same("current_tracer", "nop", "nop\n") &&
	      !setting_same("current_tracer", "nop", "function") &&
	      !setting_same("tracing_on", "1", "10"));
	CHECK("same: words of a value are not a list",
	      !setting_same("set_ftrace_pid", "1 2", "2 1"));

	/* a file of one value is written as it is */
	unit_put(dir, "current_tracer", "nop\n");
	CHECK("write: one value", setting_write(NULL, "current_tracer", "function_graph") == 0);
	s = setting_read(NULL, "current_tracer");
	CHECK("write: read back", s && !strcmp(s, "function_graph"));
	free(s);

	unit_rmtree(dir);
	return unit_done("setting");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* rp_tpoint - tpoint's own handler (the tool file, built in with its main
 * renamed) over replayed records: each row's TASK is the name at the event */
#define main tpoint_main
#include "../../tools/tpoint.c"
#undef main

#include "replay.h"

static struct session *sess;

/* setup - what tpoint's main sets up for EVENT (with -s: stacks; filtered: a
 * filter or -L narrows it); task 4000001 ("replaycat") exists from t=500 */
static void setup(const char *event, int stacks, int filtered)
{
	struct tep_event *evs[3] = { NULL, NULL, NULL };

	sess = rp_session();
	evs[0] = rp_event(event);
	evs[1] = stacks ? rp_event("ftrace:kernel_stack") : NULL;
	comm_rows(sess, evs, filtered, on_record, sess);
	rp_rec(0, 500, "sched:sched_process_fork", "child_pid=4000001 child_comm=replaycat");
}

/* an openat entry of task `tid` at ts on cpu */
static void open_at(int cpu, unsigned long long ts, int tid)
{
	char f[96];

	snprintf(f, sizeof(f), "common_pid=%d filename=0x1000 flags=0 mode=0", tid);
	rp_rec(cpu, ts, "syscalls:sys_enter_openat", f);
}

/* renamed - an open, a rename, an open: each under the name it had then */
static void renamed(void)
{
	setup("syscalls:sys_enter_openat", 0, 0);
	open_at(0, 1000, 4000001);
	rp_rec(1, 2000, "task:task_rename", "pid=4000001 oldcomm=replaycat newcomm=renamed");
	open_at(0, 3000, 4000001);
	rp_run();
}

/*
 * held - task 4000002 slept from before tracing began: its open waits for its
 * switch out, with the open of a named task on the other CPU behind it
 */
static void held(void)
{
	setup("syscalls:sys_enter_openat", 0, 0);
	open_at(0, 1000, 4000002);
	open_at(1, 1500, 4000001);
	rp_rec(0, 3000, "sched:sched_switch",
	       "prev_pid=4000002 prev_comm=sleeper next_pid=0 next_comm=swapper/0");
	rp_run();
}

/*
 * stacks - -s: the kernel records a stack after every record of the
 * instance, the naming records' too; only the open's stack is shown
 */
static void stacks(void)
{
	setup("syscalls:sys_enter_openat", 1, 0);
	rp_rec(0, 900, "sched:sched_switch",
	       "prev_pid=4000003 prev_comm=other next_pid=4000001 next_comm=replaycat");
	rp_rec(0, 900, "ftrace:kernel_stack", "common_pid=4000003");
	open_at(0, 1000, 4000001);
	rp_rec(0, 1000, "ftrace:kernel_stack", "common_pid=4000001");
	rp_rec(0, 1100, "sched:sched_switch",
	       "prev_pid=4000001 prev_comm=replaycat next_pid=4000003 next_comm=other");
	rp_rec(0, 1100, "ftrace:kernel_stack", "common_pid=4000001");
	rp_rec(1, 1200, "task:task_rename", "pid=4000003 oldcomm=other newcomm=another");
	rp_rec(1, 1200, "ftrace:kernel_stack", "common_pid=4000003");
	rp_run();
}

/*
 * rename_traced - the traced event is task_rename: its rows name tasks too,
 * and each shows the name from before it
 */
static void rename_traced(void)
{
	setup("task:task_rename", 0, 0);
	rp_rec(0, 1000, "task:task_rename",
	       "common_pid=4000001 pid=4000001 oldcomm=replaycat newcomm=first");
	rp_rec(0, 2000, "task:task_rename",
	       "common_pid=4000001 pid=4000001 oldcomm=first newcomm=second");
	rp_run();
}

/* rename_filtered - the same with a filter on task_rename: no name is trusted */
static void rename_filtered(void)
{
	setup("task:task_rename", 0, 1);
	rp_rec(0, 1000, "task:task_rename",
	       "common_pid=4000001 pid=4000001 oldcomm=replaycat newcomm=first");
	rp_run();
}

int main(void)
{
	char *out;

	out = rp_case(renamed);
	rp_check("tpoint/name_at_each_event",
		 rp_lines(out, "replaycat-4000001 ") == 1 && rp_lines(out, "renamed-4000001 ") == 1 &&
		 rp_at(out, "replaycat-4000001 ") < rp_at(out, "renamed-4000001 "), out);
	free(out);
	out = rp_case(held);
	rp_check("tpoint/held_until_named",
		 rp_lines(out, "sleeper-4000002 ") == 1 && rp_lines(out, "replaycat-4000001 ") == 1 &&
		 rp_at(out, "sleeper-4000002 ") < rp_at(out, "replaycat-4000001 "), out);
	free(out);
	out = rp_case(stacks);
	rp_check("tpoint/stacks_of_naming_records_dropped",
		 rp_lines(out, "<stack trace>") == 1 && rp_lines(out, "replaycat-4000001 ") == 2 &&
		 rp_at(out, "sys_openat") < rp_at(out, "<stack trace>"), out);
	free(out);
	out = rp_case(rename_traced);
	rp_check("tpoint/traced_renames_name_tasks",
		 rp_lines(out, "replaycat-4000001 ") == 1 && rp_lines(out, "first-4000001 ") == 1, out);
	free(out);
	out = rp_case(rename_filtered);
	rp_check("tpoint/filtered_renames_trust_no_name",
		 rp_lines(out, "<...>-4000001 ") == 1 && rp_lines(out, "replaycat-4000001") == 0, out);
	free(out);
	return rp_done("replay tpoint");
}

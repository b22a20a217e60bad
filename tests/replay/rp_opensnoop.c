/* SPDX-License-Identifier: GPL-2.0-only */
/* rp_opensnoop - opensnoop's own handlers (the tool file, built in with its
 * main renamed) over replayed syscall records */
#define main opensnoop_main
#include "../../tools/opensnoop.c"
#undef main

#include "replay.h"

/* setup - what opensnoop's main sets up, with -e, the capture off (paths [?]) */
static void setup(void)
{
	char *filter;

	o.flags = 1;
	setenv("FTT_CAPTURE", "none", 1);
	sess = rp_session();
	cap = capture_open(sess, CAP_OPEN, 0);
	load_formats();
	pending = pidmap_new(free);
	comms = pidmap_new(free);
	filter = build_filter(NULL);
	reorder_follow(sess, "sched", "sched_process_fork", NULL, NULL, on_rename);
	capture_follow(cap, filter);
	follow_calls(filter);
	free(filter);
	/* task 4000001 ("replaycat") exists from t=500 */
	rp_rec(0, 500, "sched:sched_process_fork", "child_pid=4000001 child_comm=replaycat");
}

/* paired - an openat's entry and exit on two CPUs: its own flags */
static void paired(void)
{
	setup();
	rp_rec(0, 1000, "syscalls:sys_enter_openat",
	       "common_pid=4000001 filename=0x1000 flags=0101 mode=0644");
	rp_page(1, 1, 0);
	rp_rec(1, 2000, "syscalls:sys_exit_openat", "common_pid=4000001 ret=3");
	rp_run();
}

/*
 * exit_after_gap - the entry of an openat with flags 0, then events lost on
 * the same CPU (they can hold its exit and the entry of the next call), then
 * an exit: the flags of the first call must not be shown for it
 */
static void exit_after_gap(void)
{
	setup();
	rp_rec(0, 1000, "syscalls:sys_enter_openat",
	       "common_pid=4000001 filename=0x1000 flags=0 mode=0");
	rp_page(0, 1, 2);
	rp_rec(0, 5000, "syscalls:sys_exit_openat", "common_pid=4000001 ret=4");
	rp_run();
}

/*
 * name_after_gap - the task was named at its fork, then events were lost
 * (they can hold a rename): an open after them shows no name from before
 */
static void name_after_gap(void)
{
	setup();
	rp_page(0, 1, 3);
	rp_rec(0, 1000, "syscalls:sys_enter_openat",
	       "common_pid=4000001 filename=0x1000 flags=0101 mode=0644");
	rp_rec(0, 2000, "syscalls:sys_exit_openat", "common_pid=4000001 ret=3");
	rp_run();
}

int main(void)
{
	char *out;

	out = rp_case(paired);
	rp_check("opensnoop/flags_of_its_own_call",
		 rp_lines(out, "replaycat        4000001  0x3 00000101 [?]") == 1, out);
	free(out);
	out = rp_case(exit_after_gap);
	rp_check("opensnoop/no_flags_of_another_call_after_gap",
		 rp_lines(out, "4000001 ") == 0 || (rp_lines(out, "4000001  0x4 ? ") == 1 &&
						   rp_lines(out, "4000001 ") == 1), out);
	free(out);
	out = rp_case(name_after_gap);
	rp_check("opensnoop/no_name_from_before_a_gap",
		 rp_lines(out, "4000001 ") == 1 && rp_lines(out, "replaycat") == 0, out);
	free(out);
	return rp_done("replay opensnoop");
}

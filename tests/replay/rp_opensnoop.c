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
	cap = ladder_open(sess, CAP_OPEN, 0);
	load_formats();
	pending = calls_new("opens", free);
	filter = build_filter(NULL);
	comm_follow(sess, emit_row, NULL);
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

/* an openat of task `tid` returning fd at ts + 100, entered at ts */
static void open_at(int cpu, unsigned long long ts, int tid, int fd)
{
	char f[96];

	snprintf(f, sizeof(f), "common_pid=%d filename=0x1000 flags=0 mode=0", tid);
	rp_rec(cpu, ts, "syscalls:sys_enter_openat", f);
	snprintf(f, sizeof(f), "common_pid=%d ret=%d", tid, fd);
	rp_rec(cpu, ts + 100, "syscalls:sys_exit_openat", f);
}

/*
 * named_after - task 4000002 slept from before tracing began and its switch
 * back in was not recorded: its open is named by its switch out after it,
 * and held until then, so the open of a named task after it comes second
 */
static void named_after(void)
{
	setup();
	open_at(0, 1000, 4000002, 5);
	open_at(1, 1500, 4000001, 6);
	rp_rec(0, 3000, "sched:sched_switch",
	       "prev_pid=4000002 prev_comm=sleeper next_pid=0 next_comm=swapper/0");
	rp_rec(0, 4000, "sched:sched_switch",
	       "prev_pid=0 prev_comm=swapper/0 next_pid=4000002 next_comm=sleeper");
	open_at(0, 5000, 4000002, 7);
	rp_run();
}

/*
 * renamed_after - the first naming record after the open is a rename: the
 * open shows the old name, and the open after the rename the new one
 */
static void renamed_after(void)
{
	setup();
	open_at(0, 1000, 4000002, 5);
	rp_rec(1, 2000, "task:task_rename", "pid=4000002 oldcomm=before newcomm=after");
	open_at(0, 3000, 4000002, 6);
	rp_run();
}

/*
 * never_named - no record ever names the task: the open shows no name, after
 * the end (a hold of 1 s of trace time ends the same way: hold_expires)
 */
static void never_named(void)
{
	setup();
	open_at(0, 1000, 4000002, 5);
	rp_run();
}

/* hold_expires - 1 s of trace time passes with no name: the open goes out unnamed */
static void hold_expires(void)
{
	setup();
	open_at(0, 1000, 4000002, 5);
	rp_page(0, 1, 0);
	rp_rec(0, 1000 + 2 * COMM_HOLD_NS, "syscalls:sys_enter_openat",
	       "common_pid=4000001 filename=0x1000 flags=0 mode=0");
	rp_page(0, 2, 0);
	rp_rec(0, 1000 + 4 * COMM_HOLD_NS, "sched:sched_switch",
	       "prev_pid=4000002 prev_comm=toolate next_pid=0 next_comm=swapper/0");
	rp_page(0, 3, 0);
	rp_rec(0, 1000 + 6 * COMM_HOLD_NS, "syscalls:sys_exit_openat", "common_pid=4000001 ret=9");
	rp_run();
}

/*
 * name_lost_in_gap - the open waits for a name, then events are lost (they
 * can hold a rename): it goes out unnamed, not with the name after the gap
 */
static void name_lost_in_gap(void)
{
	setup();
	open_at(0, 1000, 4000002, 5);
	rp_page(0, 1, 2);
	rp_rec(0, 5000, "sched:sched_switch",
	       "prev_pid=4000002 prev_comm=later next_pid=0 next_comm=swapper/0");
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
	out = rp_case(named_after);
	rp_check("opensnoop/named_by_the_switch_after",
		 rp_lines(out, "sleeper          4000002  0x5 00000000 [?]") == 1 &&
		 rp_lines(out, "sleeper          4000002  0x7 00000000 [?]") == 1 &&
		 rp_at(out, "4000002  0x5") >= 0 && rp_at(out, "4000002  0x5") < rp_at(out, "4000001  0x6") &&
		 rp_at(out, "4000001  0x6") < rp_at(out, "4000002  0x7"), out);
	free(out);
	out = rp_case(renamed_after);
	rp_check("opensnoop/old_name_before_a_rename",
		 rp_lines(out, "before           4000002  0x5 ") == 1 &&
		 rp_lines(out, "after            4000002  0x6 ") == 1, out);
	free(out);
	out = rp_case(never_named);
	rp_check("opensnoop/never_named_shows_unknown",
		 rp_lines(out, "?                4000002  0x5 ") == 1, out);
	free(out);
	out = rp_case(hold_expires);
	rp_check("opensnoop/hold_ends_unnamed",
		 rp_lines(out, "?                4000002  0x5 ") == 1 && rp_lines(out, "toolate") == 0 &&
		 rp_lines(out, "replaycat        4000001  0x9 ") == 1, out);
	free(out);
	out = rp_case(name_lost_in_gap);
	rp_check("opensnoop/no_name_from_after_a_gap",
		 rp_lines(out, "?                4000002  0x5 ") == 1 && rp_lines(out, "later") == 0, out);
	free(out);
	return rp_done("replay opensnoop");
}

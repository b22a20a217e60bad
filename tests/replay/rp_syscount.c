/* SPDX-License-Identifier: GPL-2.0-only */
/* rp_syscount - syscount's own counting (the tool file, built in with its
 * main renamed) over replayed raw_syscalls records, in user space, and over
 * hist entries as the kernel prints them, named from replayed records */
#define main syscount_main
#include "../../tools/syscount.c"
#undef main

#include "replay.h"

#define A "4000001"	/* "replaycat", from its fork at t=500 */
#define B "4000002"	/* named by a switch after its calls */
#define C "4000003"	/* never named */
#define D "4000004"	/* runs a 32-bit program */
#define P "4000006"	/* A's parent */

/* known - the replay's threads run this very (64-bit) program; D a 32-bit one
 * (a file with the ELF header's class byte of one, made here) */
static void known(void)
{
	char elf32[] = "/tmp/rp_syscount.XXXXXX";
	int fd;

	fd = mkstemp(elf32);
	if (fd < 0 || write(fd, "\177ELF\001\001\001", 7) != 7)
		abort();
	close(fd);
	task_exec(atoi(A), atoi(A), "/proc/self/exe", 0);
	task_exec(atoi(B), atoi(B), "/proc/self/exe", 0);
	task_exec(atoi(C), atoi(C), "/proc/self/exe", 0);
	task_exec(atoi(D), atoi(D), elf32, 0);
	task_exec(atoi(P), atoi(P), "/proc/self/exe", 0);
	unlink(elf32);	/* its class is read at the exec */
}

/* prepare - what syscount's main sets up for these options, counting in user space */
static void prepare(int by_call, int verbose, int failed, unsigned long top)
{
	msg_init("syscount");
	o.by_call = by_call;
	o.verbose = verbose;
	o.failed = failed;
	o.top = top;
	sess = rp_session();
	show_procs = !o.by_call || o.verbose;
	counts = table_new(free);
	strings = table_new(free);
	known();
	setup();
	rp_rec(0, 500, "sched:sched_process_fork",
	       "parent_pid=" P " parent_comm=parent child_pid=" A " child_comm=replaycat");
}

/* calls - n entries of call nr by tid on cpu, from ts on, 10 apart */
static void calls(int cpu, unsigned long long ts, const char *tid, long nr, int n)
{
	char f[96];

	snprintf(f, sizeof(f), "common_pid=%s id=%ld", tid, nr);
	while (n-- > 0) {
		rp_rec(cpu, ts, "raw_syscalls:sys_enter", f);
		ts += 10;
	}
}

/* returns - n returns of call nr with ret by tid on cpu, from ts on */
static void returns(int cpu, unsigned long long ts, const char *tid, long nr, long ret, int n)
{
	char f[96];

	snprintf(f, sizeof(f), "common_pid=%s id=%ld ret=%ld", tid, nr, ret);
	while (n-- > 0) {
		rp_rec(cpu, ts, "raw_syscalls:sys_exit", f);
		ts += 10;
	}
}

/* by_call - -c: each call counted by its number, on two CPUs and two drains */
static void by_call(void)
{
	prepare(1, 0, 0, 0);
	calls(0, 1000, A, SYS_getppid, 3);
	calls(1, 1005, C, SYS_read, 1);
	rp_page(1, 1, 0);
	calls(1, 2000, B, 1000, 1);		/* no call has that number */
	rp_run();
	summary(NULL);
}

/* top - -c -t 2: the two largest rows, the largest last */
static void top(void)
{
	prepare(1, 0, 0, 2);
	calls(0, 1000, A, SYS_getppid, 5);
	calls(0, 2000, A, SYS_read, 2);
	calls(1, 1500, C, SYS_close, 1);
	rp_run();
	summary(NULL);
}

/* failed - -cx: returns with an error, a row per call and error; a success is not counted */
static void failed(void)
{
	prepare(1, 0, 1, 0);
	returns(0, 1000, A, SYS_faccessat, -ENOENT, 2);
	returns(1, 1005, C, SYS_faccessat, -ENOTDIR, 1);
	returns(1, 1100, C, SYS_faccessat, 0, 4);
	returns(0, 1200, A, SYS_read, -512, 1);	/* ERESTARTSYS: a signal came */
	rp_run();
	summary(NULL);
}

/*
 * names - by name: each call under its thread's name at the call (a rename
 * in between splits them), a thread named only after its calls by its
 * switch out, a thread never named as :TID
 */
static void names(void)
{
	prepare(0, 0, 0, 0);
	calls(0, 1000, A, SYS_getppid, 2);
	calls(1, 1100, B, SYS_read, 1);
	calls(1, 1200, C, SYS_read, 1);
	rp_rec(0, 1500, "task:task_rename", "pid=" A " oldcomm=replaycat newcomm=renamed");
	calls(0, 2000, A, SYS_getppid, 3);
	rp_rec(1, 3000, "sched:sched_switch",
	       "prev_pid=" B " prev_comm=sleeper next_pid=0 next_comm=swapper/1");
	rp_run();
	summary(NULL);
}

/*
 * after_gap - events lost (they can hold a rename): the calls after them
 * are counted, under no name until a record names the thread again
 */
static void after_gap(void)
{
	prepare(0, 0, 0, 0);
	calls(0, 1000, A, SYS_getppid, 2);
	rp_page(0, 1, 5);
	calls(0, 5000, A, SYS_getppid, 3);
	rp_run();
	summary(NULL);
}

/*
 * ia32 - -c: a 32-bit program's call 64 is not x86-64's 64 (semget); a thread
 * that runs one from an exec on (A) counts its calls after it so, and its
 * child too; a thread whose program is not known (a fork of one not known) as ?:N
 */
static void ia32(void)
{
	prepare(1, 0, 0, 0);
	calls(0, 1000, A, 64, 1);
	calls(1, 1005, D, 64, 2);
	rp_rec(0, 1100, "sched:sched_process_exec", "pid=" A " filename=/nonexistent");
	calls(0, 1200, A, 64, 4);
	rp_rec(1, 1300, "task:task_newtask", "common_pid=" D " pid=4000005 clone_flags=0x11");
	calls(1, 1400, "4000005", 64, 8);
	rp_run();
	summary(NULL);
}

/* verbose - -cv: rows by thread, name and call */
static void verbose(void)
{
	prepare(1, 1, 0, 0);
	calls(0, 1000, A, SYS_getppid, 2);
	calls(1, 1100, C, SYS_read, 1);
	rp_run();
	summary(NULL);
}

/*
 * threads - -v: a process's threads are one row (PID the process), made by
 * task_newtask with CLONE_THREAD; a process made without it is its own; a
 * thread of a parent not known has no PID (?)
 */
static void threads(void)
{
	prepare(0, 1, 0, 0);
	rp_rec(0, 600, "task:task_newtask", "common_pid=" A " pid=4000007 clone_flags=0x3d0f00");
	rp_rec(0, 610, "sched:sched_process_fork",
	       "parent_pid=" A " parent_comm=replaycat child_pid=4000007 child_comm=replaycat");
	rp_rec(0, 700, "task:task_newtask", "common_pid=" A " pid=4000008 clone_flags=0x11");
	rp_rec(0, 710, "sched:sched_process_fork",
	       "parent_pid=" A " parent_comm=replaycat child_pid=4000008 child_comm=replaycat");
	rp_rec(1, 720, "task:task_newtask", "common_pid=4000099 pid=4000009 clone_flags=0x10000");
	rp_rec(1, 730, "sched:sched_process_fork",
	       "parent_pid=4000099 parent_comm=other child_pid=4000009 child_comm=other");
	calls(0, 1000, A, SYS_getppid, 2);
	calls(1, 1100, "4000007", SYS_getppid, 3);
	calls(0, 1200, "4000008", SYS_getppid, 4);
	calls(1, 1300, "4000009", SYS_getppid, 5);
	rp_run();
	summary(NULL);
}

/* json - -cj, then -vj: the counts as the text lists them */
static void json_call(void)
{
	line_json_init();
	prepare(1, 0, 0, 0);
	calls(0, 1000, A, SYS_getppid, 2);
	calls(1, 1100, C, 1000, 1);
	rp_run();
	summary(NULL);
}

static void json_names(void)
{
	line_json_init();
	prepare(0, 1, 0, 0);
	calls(0, 1000, A, SYS_getppid, 2);
	calls(1, 1100, C, SYS_read, 1);
	rp_run();
	summary(NULL);
}

/* kernel_entry - one hist entry of the kernel's table, as khist_read hands it on */
static void kernel_entry(const char *keys, unsigned long long hits)
{
	on_entry("hist:...", keys, hits, NULL);
}

/*
 * kernel_names - counted in the kernel by thread: each thread's count named
 * by its last name in the trace (a rename: the new one for all of them), a
 * thread never named as :TID; then a second summary with the differences
 */
static void kernel_names(void)
{
	static struct line line;
	struct row *v;
	size_t n, i;

	o.by_call = 0;
	sess = rp_session();
	show_procs = 1;
	in_kernel = 1;
	counts = table_new(free);
	strings = table_new(free);
	reorder_init(sess, NULL);
	comm_follow(sess, NULL, NULL);
	rp_rec(0, 500, "sched:sched_process_fork", "child_pid=" A " child_comm=replaycat");
	rp_rec(0, 1500, "task:task_rename", "pid=" A " oldcomm=replaycat newcomm=renamed");
	rp_rec(1, 3000, "sched:sched_switch",
	       "prev_pid=" B " prev_comm=sleeper next_pid=0 next_comm=swapper/1");
	rp_run();
	/* the kernel prints each key "name: %10llu" */
	kernel_entry(" common_pid:    " A " ", 5);
	kernel_entry(" common_pid:    " B " ", 1);
	kernel_entry(" common_pid:    " C " ", 7);
	for (i = 0; i < 2; i++) {
		header();
		v = rows(&n);
		for (size_t k = 0; k < n; k++) {
			put_row(&line, &v[k]);
			line_put(&line);
		}
		free(v);
		kernel_entry(" common_pid:    " A " ", 9);	/* 4 more */
	}
	fflush(stdout);
}

/* kernel_failed - -cx counted in the kernel: the keys id and ret (printed unsigned) */
static void kernel_failed(void)
{
	o.by_call = 1;
	o.failed = 1;
	show_procs = 0;
	in_kernel = 1;
	counts = table_new(free);
	strings = table_new(free);
	out_init(0);
	known();
	kernel_entry(" common_pid:    " A ", id:        269, ret: 18446744073709551614 ", 3);
	kernel_entry(" common_pid:    " C ", id:        269, ret: 18446744073709551596 ", 1);
	kernel_entry(" common_pid:    " A ", id:          0 ", 1);	/* no ret: not of this table */
	kernel_entry(" common_pid:    " D ", id:        269, ret: 18446744073709551614 ", 5);
	{
		static struct line line;
		struct row *v;
		size_t n, k;

		header();
		v = rows(&n);
		for (k = 0; k < n; k++) {
			put_row(&line, &v[k]);
			line_put(&line);
		}
		free(v);
	}
	fflush(stdout);
}

/* row - the text a row of the given columns prints (one of 8 static buffers, in turn) */
static const char *row(const char *fmt, ...)
{
	static char buf[8][256];
	static int at;
	va_list ap;

	at = (at + 1) % 8;
	va_start(ap, fmt);
	vsnprintf(buf[at], sizeof(buf[at]), fmt, ap);
	va_end(ap);
	return buf[at];
}

int main(void)
{
	char *out;

#ifndef __x86_64__
	(void)out;
	return rp_done("replay syscount (call names are x86-64's only: not run)");
#else
	out = rp_case(by_call);
	rp_check("syscount/by_call", rp_lines(out, row("%-17s %8s", "SYSCALL", "COUNT")) == 1 &&
		 rp_at(out, row("%-17s %8d\n", "read", 1)) >= 0 &&
		 rp_at(out, row("%-17s %8d\n", "read", 1)) < rp_at(out, row("%-17s %8d\n", "syscall_1000", 1)) &&
		 rp_at(out, row("%-17s %8d\n", "syscall_1000", 1)) < rp_at(out, row("%-17s %8d\n", "getppid", 3)) &&
		 rp_lines(out, " ") == 4, out);
	free(out);
	out = rp_case(top);
	rp_check("syscount/top", rp_lines(out, row("%-17s %8d", "close", 1)) == 0 &&
		 rp_at(out, row("%-17s %8d", "read", 2)) >= 0 &&
		 rp_at(out, row("%-17s %8d", "read", 2)) < rp_at(out, row("%-17s %8d", "getppid", 5)), out);
	free(out);
	out = rp_case(failed);
	rp_check("syscount/failed", rp_lines(out, row("%-17s %-15s %8s", "SYSCALL", "ERROR", "COUNT")) == 1 &&
		 rp_lines(out, row("%-17s %-15s %8d", "faccessat", "ENOENT", 2)) == 1 &&
		 rp_lines(out, row("%-17s %-15s %8d", "faccessat", "ENOTDIR", 1)) == 1 &&
		 rp_lines(out, row("%-17s %-15s %8d", "read", "ERESTARTSYS", 1)) == 1 &&
		 rp_lines(out, " ") == 4, out);
	free(out);
	out = rp_case(names);
	rp_check("syscount/names_at_the_call", rp_lines(out, row("%-16s %8s", "COMM", "COUNT")) == 1 &&
		 rp_lines(out, row("%-16s %8d", "replaycat", 2)) == 1 &&
		 rp_lines(out, row("%-16s %8d", "renamed", 3)) == 1 &&
		 rp_lines(out, row("%-16s %8d", "sleeper", 1)) == 1 &&
		 rp_lines(out, row("%-16s %8d", ":" C, 1)) == 1 &&
		 rp_at(out, "sleeper") < rp_at(out, ":" C) &&
		 rp_at(out, ":" C) < rp_at(out, "replaycat") &&
		 rp_at(out, "replaycat") < rp_at(out, "renamed"), out);
	free(out);
	out = rp_case(after_gap);
	rp_check("syscount/no_name_after_a_gap",
		 rp_lines(out, row("%-16s %8d", "replaycat", 2)) == 1 &&
		 rp_lines(out, row("%-16s %8d", ":" A, 3)) == 1, out);
	free(out);
	out = rp_case(verbose);
	rp_check("syscount/verbose", rp_lines(out, row("%-6s %-16s %-17s %8s", "PID", "COMM", "SYSCALL", "COUNT")) == 1 &&
		 rp_lines(out, row("%-6s %-16s %-17s %8d", A, "replaycat", "getppid", 2)) == 1 &&
		 rp_lines(out, row("%-6s %-16s %-17s %8d", C, ":" C, "read", 1)) == 1, out);
	free(out);
	out = rp_case(threads);
	rp_check("syscount/verbose_processes",
		 rp_lines(out, row("%-6s %-16s %8d", A, "replaycat", 2 + 3)) == 1 &&
		 rp_lines(out, row("%-6s %-16s %8d", "4000008", "replaycat", 4)) == 1 &&
		 rp_lines(out, row("%-6s %-16s %8d", "?", "other", 5)) == 1 &&
		 rp_lines(out, " ") == 4, out);
	free(out);
	out = rp_case(json_call);
	rp_check("syscount/json_by_call",
		 rp_lines(out, "\"tool\":\"syscount\",\"counts\":[{\"syscall\":null,\"nr\":1000,\"count\":1},"
			  "{\"syscall\":\"getppid\",\"nr\":110,\"count\":2}]}") == 1, out);
	free(out);
	out = rp_case(json_names);
	rp_check("syscount/json_names",
		 rp_lines(out, "\"counts\":[{\"pid\":" C ",\"comm\":null,\"tid\":" C ",\"count\":1},"
			  "{\"pid\":" A ",\"comm\":\"replaycat\",\"count\":2}]}") == 1, out);
	free(out);
	out = rp_case(kernel_names);
	rp_check("syscount/kernel_last_name",
		 rp_lines(out, row("%-16s %8d", "renamed", 5)) == 1 &&
		 rp_lines(out, row("%-16s %8d", "sleeper", 1)) == 1 &&
		 rp_lines(out, row("%-16s %8d", ":" C, 7)) == 1 &&
		 rp_lines(out, "replaycat") == 0 &&
		 rp_lines(out, row("%-16s %8d", "renamed", 4)) == 1 &&
		 rp_lines(out, "COUNT") == 2, out);
	free(out);
	out = rp_case(kernel_failed);
	rp_check("syscount/kernel_keys",
		 rp_lines(out, row("%-17s %-15s %8d", "faccessat", "ENOENT", 3)) == 1 &&
		 rp_lines(out, row("%-17s %-15s %8d", "faccessat", "ENOTDIR", 1)) == 1 &&
		 rp_lines(out, row("%-17s %-15s %8d", "32bit:269", "ENOENT", 5)) == 1 &&
		 rp_lines(out, " ") == 4, out);
	free(out);
	out = rp_case(ia32);
	rp_check("syscount/ia32_numbers",
		 rp_lines(out, row("%-17s %8d", "semget", 1)) == 1 &&
		 rp_lines(out, row("%-17s %8d", "32bit:64", 2 + 8)) == 1 &&
		 rp_lines(out, row("%-17s %8d", "?:64", 4)) == 1 &&
		 rp_lines(out, " ") == 4, out);
	free(out);
	return rp_done("replay syscount");
#endif
}

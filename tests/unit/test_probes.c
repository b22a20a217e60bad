/* SPDX-License-Identifier: GPL-2.0-only */
/* test_probes - probes_funcs: the kernel functions a list of globs names, read
 * from an available_filter_functions in a directory that stands in for tracefs */
#include <tracefs.h>

#include "probes.h"
#include "unit.h"

static char dir[128];

/*
 * an excerpt of available_filter_functions as the kernel prints it: one
 * name a line, a module's functions followed by "[module]", in the kernel's
 * own order (not sorted), and init_once twice (a static function of that
 * name in more than one file)
 */
static const char excerpt[] =
	"init_once\n"
	"vfs_readv\n"
	"vfs_read\n"
	"vfs_writev\n"
	"vfs_write\n"
	"ksys_read\n"
	"__traceiter_block_rq_issue\n"
	"tcp_sendmsg_locked\n"
	"tcp_sendmsg\n"
	"tcp_v4_connect\n"
	"init_once\n"
	"nfs_file_write [nfs]\n"
	"nfs_file_read [nfs]\n"
	"e1000_xmit_frame [e1000]\n";

/* funcs_are - probes_funcs(GLOBS) gives exactly WANT (names joined by spaces) */
static void funcs_are(const char *globs, const char *want)
{
	char **list = NULL, got[1024] = "", label[160];
	int n, i, count = 0;
	const char *p;

	for (p = want; *p; p += strcspn(p, " "), p += strspn(p, " "))
		count++;
	n = probes_funcs(globs, &list);
	for (i = 0; n > 0 && i < n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? " " : "",
			 list[i]);
	snprintf(label, sizeof(label), "probes_funcs '%s'", globs);
	CHECK(label, n == count && list && !list[n > 0 ? n : 0] && !strcmp(got, want));
	if (n != count || strcmp(got, want))
		printf("     got %d: '%s', wanted %d: '%s'\n", n, got, count, want);
	probes_funcs_free(list);
}

int main(void)
{
	char **list = (char **)1;
	int n, i, ok;

	unit_tmpdir(dir, sizeof(dir), "probes");
	if (tracefs_set_tracing_dir(dir) < 0) {
		printf("FAIL probes: tracefs_set_tracing_dir %s\n", dir);
		return 1;
	}

	unit_put(dir, "available_filter_functions", excerpt);
	/* sorted, unique, the module dropped; a glob matches the whole name */
	funcs_are("vfs_*", "vfs_read vfs_readv vfs_write vfs_writev");
	funcs_are("vfs_read*", "vfs_read vfs_readv");
	funcs_are("tcp_sendmsg", "tcp_sendmsg");
	funcs_are("nfs_*", "nfs_file_read nfs_file_write");
	funcs_are("e1000_*", "e1000_xmit_frame");
	funcs_are("init_once", "init_once");
	funcs_are("*block_rq*", "__traceiter_block_rq_issue");
	funcs_are("vfs_?ead vfs_write[v]", "vfs_read vfs_writev");
	/* several globs: the union, each name once however many globs match it */
	funcs_are("tcp_v4_connect vfs_write", "tcp_v4_connect vfs_write");
	funcs_are("vfs_read* *_read", "ksys_read nfs_file_read vfs_read vfs_readv");
	funcs_are("  vfs_write\ttcp_sendmsg  ", "tcp_sendmsg vfs_write");
	/* nothing matched: 0 and an empty list */
	funcs_are("vfs", "");
	funcs_are("no_such_function*", "");
	funcs_are("", "");
	funcs_are("[nfs]", "");

	/* no newline after the last name; empty lines */
	unit_put(dir, "available_filter_functions", "\n\nvfs_write\n\nvfs_read [ext4]");
	funcs_are("vfs_*", "vfs_read vfs_write");
	unit_put(dir, "available_filter_functions", "");
	funcs_are("*", "");

	/* a list larger than the first allocation, in reverse order, each name twice */
	{
		static char big[80000];
		size_t at = 0;

		for (i = 2999; i >= 0; i--)
			at += snprintf(big + at, sizeof(big) - at, "fn_%04d\nfn_%04d [mod]\n", i, i);
		unit_put(dir, "available_filter_functions", big);
		n = probes_funcs("fn_*", &list);
		ok = n == 3000 && list && !list[3000];
		for (i = 0; ok && i < n; i++) {
			char want[16];

			snprintf(want, sizeof(want), "fn_%04d", i);
			ok = !strcmp(list[i], want);
		}
		CHECK("probes_funcs: 6000 lines, 3000 names, sorted and unique", ok);
		probes_funcs_free(list);
	}

	/* no list (a kernel without the function tracer): -1 and ENOENT, *list untouched */
	{
		char path[256];

		snprintf(path, sizeof(path), "%s/available_filter_functions", dir);
		unlink(path);
	}
	list = (char **)1;
	errno = 0;
	n = probes_funcs("vfs_*", &list);
	CHECK("probes_funcs without the file: -1, ENOENT", n == -1 && errno == ENOENT);
	CHECK("probes_funcs without the file: *list untouched", list == (char **)1);

	/*
	 * the profiler cuts names to 30 bytes: a cut that one traced function
	 * has is that function's; one that several share counts them together,
	 * shown as the cut and '*'; a name of 30 bytes or less is itself
	 */
	{
		static char *const fl[] = {
			"__x64_sys_sched_get_priority_max",
			"__x64_sys_sched_get_priority_min",
			"__x64_sys_sched_rr_get_interval",
			"abcdefghijabcdefghijabcdefghij",	/* 30 bytes */
			"abcdefghijabcdefghijabcdefghijk",	/* 31, the same cut */
			"vfs_read",
		};
		char lab[64];

		CHECK("profiler_find: a cut name of one function",
		      probes_profiler_find(fl, 6, "__x64_sys_sched_rr_get_interva") == 2);
		CHECK("profiler_find: a cut two share, the first",
		      probes_profiler_find(fl, 6, "__x64_sys_sched_get_priority_m") == 0);
		CHECK("profiler_find: 30 bytes and a longer name",
		      probes_profiler_find(fl, 6, "abcdefghijabcdefghijabcdefghij") == 3);
		CHECK("profiler_find: a short name", probes_profiler_find(fl, 6, "vfs_read") == 5);
		CHECK("profiler_find: not traced", probes_profiler_find(fl, 6, "vfs_rea") == -1 &&
		      probes_profiler_find(fl, 6, "__x64_sys_sched_get_priority_x") == -1);
		probes_profiler_label(fl, 6, 2, lab, sizeof(lab));
		CHECK("profiler_label: one function, its whole name",
		      !strcmp(lab, "__x64_sys_sched_rr_get_interval"));
		probes_profiler_label(fl, 6, 1, lab, sizeof(lab));
		CHECK("profiler_label: a shared cut and '*'", !strcmp(lab, "__x64_sys_sched_get_priority_m*"));
		probes_profiler_label(fl, 6, 0, lab, sizeof(lab));
		CHECK("profiler_label: a shared cut, first", !strcmp(lab, "__x64_sys_sched_get_priority_m*"));
		probes_profiler_label(fl, 6, 3, lab, sizeof(lab));
		CHECK("profiler_label: 30 bytes shared with a longer name",
		      !strcmp(lab, "abcdefghijabcdefghijabcdefghij*"));
		probes_profiler_label(fl, 6, 5, lab, sizeof(lab));
		CHECK("profiler_label: short name", !strcmp(lab, "vfs_read"));
	}

	/* kprobe_profile: the hits and the misses (the third column) */
	{
		char name[64];
		unsigned long long hits = 1, missed = 1;

		CHECK("profile_line: hits and misses",
		      probes_profile_line("  ftt_funccount_12_34/f12_0      1234     56", name,
					  sizeof(name), &hits, &missed) == 0 &&
		      !strcmp(name, "ftt_funccount_12_34/f12_0") && hits == 1234 && missed == 56);
		CHECK("profile_line: no misses",
		      probes_profile_line("  f12_1   7   0", name, sizeof(name), &hits, &missed) == 0 &&
		      !strcmp(name, "f12_1") && hits == 7 && missed == 0);
		CHECK("profile_line: not a line", probes_profile_line("  f12_1", name, sizeof(name),
								       &hits, &missed) < 0);
	}

	unit_rmtree(dir);
	return unit_done("probes");
}

// SPDX-License-Identifier: GPL-2.0-only
/* cachestat - page cache hits and misses, per interval
 *
 * Four kernel functions are counted in the kernel (kcount: one kprobe each
 * in the run's group, else the function profiler): a page (folio) marked
 * accessed, one added to the page cache, one dirtied, and a buffer dirtied.
 * Which functions those are depends on the kernel (the folio conversion
 * renamed them and left the old names as wrappers few callers use), so each
 * role takes the first of its names the kernel can trace, and the set is
 * proven at startup: a file cachestat writes (which must count as dirtied
 * pages) is dropped from the page cache and read twice; the first read must
 * count as added pages, the second as accessed ones. Each row derives HITS and MISSES from the four counts as
 * perf-tools' cachestat does; -D shows the counts themselves.
 * Overhead: a kprobe hit on each page-cache access (a few hundred ns); on
 * busy file servers that is millions a second.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "clock.h"
#include "fmt.h"
#include "kcount.h"
#include "kernel.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "probes.h"
#include "procread.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "xalloc.h"

static const char usage_text[] =
"USAGE: cachestat [-Dhjt] [interval [count]]\n"
"                 -D              # print debug counters\n"
"                 -h              # this usage message\n"
"                 -j              # JSON Lines, one object per interval (also --json)\n"
"                 -t              # include timestamp\n"
"                 interval        # output interval in secs (default 1)\n"
"                 count           # stop after this many intervals\n"
"  eg,\n"
"       cachestat                 # show stats every second\n"
"       cachestat 5               # show stats every 5 seconds\n"
"       cachestat 1 10            # ten rows, one a second\n"
"\n";

struct opts {
	double interval;
	unsigned long count;
	int debug, stamp;
};

static struct opts o = { .interval = 1 };

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c, n;

	while ((c = opt_next(argc, argv, "Dhjt", NULL, usage_text)) != -1) {
		switch (c) {
		case 'D': o.debug = 1; break;
		case 't': o.stamp = 1; break;
		}
	}
	n = opt_operands(argc, 0, 2, NULL, "give at most an interval and a count");
	if (n >= 1)
		o.interval = opt_seconds(argv[optind], "interval");
	if (n == 2)
		o.count = opt_ulong(argv[optind + 1], "count", 1, 1000000000);
}

/*
 * The roles, each with its names, newest kernel first: from 5.16 the folio
 * functions do the work (the page names left are wrappers for a few callers,
 * and folio_account_dirtied is inlined into __folio_mark_dirty, which calls
 * it once per folio dirtied).
 */
enum { ACCESS, BUFDIRTY, ADD, DIRTY, NROLES };
static const char *const names[NROLES][4] = {
	[ACCESS] = { "folio_mark_accessed", "mark_page_accessed", NULL },
	[BUFDIRTY] = { "mark_buffer_dirty", NULL },
	[ADD] = { "filemap_add_folio", "add_to_page_cache_lru", NULL },
	[DIRTY] = { "folio_account_dirtied", "__folio_mark_dirty", "account_page_dirtied", NULL },
};

static const char *chosen[NROLES];	/* each role's function */
static char *list[NROLES + 1];		/* the same, sorted: what kcount counts */
static int at[NROLES];			/* each role's place in list */
static int folios;			/* the functions count folios, not pages */
static struct kcount kc;
static unsigned long long last[NROLES];	/* the totals at the last row, by place */
static unsigned long long missed_last;

/* cmp_str - qsort: names in strcmp order */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* choose - each role's first name the kernel can trace; refuse if one has none */
static void choose(void)
{
	int r, i;

	for (r = 0; r < NROLES; r++) {
		for (i = 0; names[r][i] && !probes_function_exists(names[r][i]); i++)
			;
		if (!names[r][i]) {
			if (errno == EPERM)
				msg_die(EXIT_ERR, "this kernel does not allow counting functions: "
					"it refuses function tracing (available_filter_functions: "
					"not permitted, kernel lockdown?)");
			msg_die(EXIT_ERR, "this kernel has none of the page-cache functions "
				"cachestat counts for %s (%s%s%s)", names[r][0], names[r][0],
				names[r][1] ? ", " : "", names[r][1] ? names[r][1] : "");
		}
		chosen[r] = names[r][i];
		list[r] = xstrdup(chosen[r]);
	}
	/* what a hit and a miss count: the unit of the accessed and added roles */
	folios = strstr(chosen[ACCESS], "folio") || strstr(chosen[ADD], "folio");
	qsort(list, NROLES, sizeof(*list), cmp_str);
	for (r = 0; r < NROLES; r++)
		for (i = 0; i < NROLES; i++)
			if (!strcmp(list[i], chosen[r]))
				at[r] = i;
}

/* delta - role R's calls since the last row (kcount_read first) */
static unsigned long long delta(int r)
{
	return kc.hits[at[r]] - last[at[r]];
}

/* ---- the proof: a file of ours, dropped, read twice ---- */

#define PROOF_PAGES 64

static long page;

/* resident - how many of the file's pages are in the page cache (mincore) */
static int resident(int fd)
{
	size_t len = (size_t)PROOF_PAGES * page;
	unsigned char vec[PROOF_PAGES];
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	int i, n = 0;

	if (map == MAP_FAILED)
		msg_die(EXIT_ERR, "cannot map the proof file:");
	if (mincore(map, len, vec) < 0)
		msg_die(EXIT_ERR, "cannot see the proof file's pages (mincore):");
	munmap(map, len);
	for (i = 0; i < PROOF_PAGES; i++)
		n += vec[i] & 1;
	return n;
}

/* proof_file - a nameless file of PROOF_PAGES pages on a disk, written back */
static int proof_file(const char **where)
{
	const char *dir = getenv("TMPDIR");
	struct statfs fs;
	char *buf, path[4096];
	int fd, i;

	if (!dir || dir[0] != '/')
		dir = "/var/tmp";
	*where = dir;
	if (statfs(dir, &fs) < 0)
		msg_die(EXIT_ERR, "cannot use %s for the proof file:", dir);
	if (fs.f_type == 0x01021994 || fs.f_type == 0x858458f6)	/* tmpfs, ramfs */
		msg_die(EXIT_ERR, "cannot prove the page-cache counts: %s is in memory, where "
			"pages are never dropped and read again; set TMPDIR to a directory "
			"on a disk", dir);
	fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL, 0600);
	if (fd < 0) {	/* no O_TMPFILE here: a name, removed at once */
		snprintf(path, sizeof(path), "%s/cachestat.XXXXXX", dir);
		fd = mkstemp(path);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0)
		msg_die(EXIT_ERR, "cannot create the proof file in %s:", dir);
	buf = xcalloc(1, page);
	for (i = 0; i < PROOF_PAGES; i++) {
		memset(buf, 'a' + i % 26, page);
		if (write(fd, buf, page) != page)
			msg_die(EXIT_ERR, "cannot write the proof file in %s:", dir);
	}
	free(buf);
	if (fdatasync(fd) < 0)
		msg_die(EXIT_ERR, "cannot write the proof file back to %s:", dir);
	return fd;
}

/* read_all - read the proof file through the page cache */
static void read_all(int fd)
{
	char *buf = xcalloc(PROOF_PAGES, page);

	if (pread(fd, buf, (size_t)PROOF_PAGES * page, 0) != (ssize_t)PROOF_PAGES * page)
		msg_die(EXIT_ERR, "cannot read the proof file:");
	free(buf);
}

/*
 * prove - with counting on: writing the file must count as pages dirtied;
 * after a drop, a read must count as pages added (misses), then a second
 * read as pages accessed (hits). (A buffer dirtied has no such proof: a
 * journaling filesystem dirties its buffers later, or not at all for data.)
 * Others' activity
 * only adds to the counts, so a failure is real; three tries, in case the
 * kernel reads ahead or drops in the middle.
 */
static void prove(void)
{
	const char *dir;
	int fd, try, gone;
	unsigned long long added = 0, accessed = 0;

	page = sysconf(_SC_PAGESIZE);
	kcount_read(&kc);
	memcpy(last, kc.hits, sizeof(last));
	fd = proof_file(&dir);
	kcount_read(&kc);
	if (!delta(DIRTY))
		msg_die(EXIT_ERR, "cannot prove the page-cache counts: a write of %d pages "
			"counted no call of %s", PROOF_PAGES, chosen[DIRTY]);
	for (try = 0; try < 3; try++) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		gone = resident(fd) == 0;
		kcount_read(&kc);
		memcpy(last, kc.hits, sizeof(last));
		read_all(fd);
		kcount_read(&kc);
		added = delta(ADD);
		memcpy(last, kc.hits, sizeof(last));
		read_all(fd);
		kcount_read(&kc);
		accessed = delta(ACCESS);
		if (gone && added && accessed)
			break;
	}
	close(fd);	/* (freeing its blocks dirties buffers) */
	if (!gone)
		msg_die(EXIT_ERR, "cannot prove the page-cache counts: the proof file's pages "
			"stay in the page cache after a drop (%s)", dir);
	if (!added || !accessed)
		msg_die(EXIT_ERR, "cannot prove the page-cache counts: a read of %d dropped "
			"pages counted %llu calls of %s, and a second read %llu of %s",
			PROOF_PAGES, added, chosen[ADD], accessed, chosen[ACCESS]);
	/* the first row starts here: none of the proof's calls in it */
	kcount_read(&kc);
	memcpy(last, kc.hits, sizeof(last));
	for (try = 0; try < NROLES; try++)
		missed_last += kc.missed[try];
}

/* ---- the rows ---- */

/* row - the counts since the last row, and the cache sizes now */
static void row(void *unused)
{
	static struct line l;
	unsigned long long a, b, m, d, total, misses, hits, missed = 0, now = clock_ns();
	long buf_kb = proc_file_number("/proc/meminfo", "Buffers");
	long cache_kb = proc_file_number("/proc/meminfo", "Cached");
	char hms[16];
	int r;

	(void)unused;
	kcount_read(&kc);
	a = delta(ACCESS), b = delta(BUFDIRTY), m = delta(ADD), d = delta(DIRTY);
	for (r = 0; r < NROLES; r++)
		missed += kc.missed[r];
	if (missed > missed_last)
		msg_warn("the kernel missed %llu calls of the page-cache functions (a probe hit "
			 "while another ran on that CPU): the row is short by them",
			 missed - missed_last);
	missed_last = missed;
	total = a > b ? a - b : 0;
	misses = m > d ? m - d : 0;
	hits = total > misses ? total - misses : 0;
	if (out_json) {
		line_begin(&l, now);
		col_dec(&l, "hits", (long long)hits, ALIGN_LEFT, 0);
		col_dec(&l, "misses", (long long)misses, ALIGN_LEFT, 0);
		col_dec(&l, "dirties", (long long)b, ALIGN_LEFT, 0);
		if (hits + misses)
			col_fixed(&l, "ratio", (hits * 10000 + (hits + misses) / 2) / (hits + misses),
				  2, 1, ALIGN_LEFT, 0);
		else
			col_null(&l, "ratio", "", ALIGN_LEFT, 0);
		col_dec(&l, "buffers_kb", buf_kb, ALIGN_LEFT, 0);
		col_dec(&l, "cached_kb", cache_kb, ALIGN_LEFT, 0);
		col_str(&l, "unit", folios ? "folio" : "page", ALIGN_LEFT, 0, -1);
		for (r = 0; r < NROLES; r++)
			col_dec(&l, chosen[r], (long long)delta(r), ALIGN_LEFT, 0);
		line_put(&l);
	} else {
		if (o.stamp)
			printf("%-8s ", fmt_hms(now, hms, sizeof(hms)));
		printf("%8llu %8llu %8llu ", hits, misses, b);
		if (hits + misses)
			printf("%7.1f%%", 100.0 * hits / (hits + misses));
		else
			printf("%8s", "-");
		printf(" %12.0f %10.0f", buf_kb / 1024.0, cache_kb / 1024.0);
		if (o.debug)
			printf("  (%llu %llu %llu %llu)", a, b, m, d);
		printf("\n");
	}
	out_batch_end();
	memcpy(last, kc.hits, sizeof(last));
}

int main(int argc, char **argv)
{
	char globs[256];

	msg_init("cachestat");
	sig_init();
	parse(argc, argv);
	session_tracefs();
	kc.profiler = !kernel_has(KF_KPROBES) && kernel_has(KF_FUNC_PROFILER);
	if (!kc.profiler && !kernel_has(KF_KPROBES))
		msg_die(EXIT_ERR, "this kernel cannot count the page-cache functions: no kprobes "
			"(kprobe_events) and no function profiler (CONFIG_FUNCTION_PROFILER)");
	choose();
	snprintf(globs, sizeof(globs), "%s %s %s %s", list[0], list[1], list[2], list[3]);
	kcount_setup(&kc, session_open("cachestat"), globs, list, NROLES);
	if (kc.probed < NROLES)
		msg_die(EXIT_ERR, "cannot count all four page-cache functions");
	kcount_switch(&kc, 1);
	prove();
	msg_warn("counting %s: %s, %s, %s, %s", folios ? "folios (one or more pages each)"
		 : "pages", chosen[ACCESS], chosen[ADD], chosen[DIRTY], chosen[BUFDIRTY]);

	out_init(0);
	out_banner("Counting cache functions... Output every %g seconds.\n", o.interval);
	if (!out_json) {
		if (o.stamp)
			printf("%-8s ", "TIME");
		printf("%8s %8s %8s %8s %12s %10s", "HITS", "MISSES", "DIRTIES", "RATIO",
		       "BUFFERS_MB", "CACHE_MB");
		if (o.debug)
			printf("  DEBUG");
		printf("\n");
	}
	fflush(stdout);
	stream_idle(o.count ? o.interval * o.count : 0, o.interval, row, NULL);
	kcount_switch(&kc, 0);
	if (!out_broken())
		row(NULL);	/* the last interval, cut short by Ctrl-C or not */
	out_ending();
	return EXIT_OK;
}

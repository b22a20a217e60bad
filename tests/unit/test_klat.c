/* SPDX-License-Identifier: GPL-2.0-only */
/* test_klat - the in-kernel latency counts, in a directory that stands in
 * for tracefs: the commands klat_setup gives the kernel (synthetic events,
 * the pairing triggers of each set, the bucket and count histograms), what
 * klat_poll hands on from the bucket histograms (each pair once, however the
 * sets split them; a latency the kernel computed as negative is not a
 * latency of 0), when a new pairing set is due, and the renewal itself.
 * klat.c and khist.c are built in, with the test's clock, and the commands
 * written to the stand-in files kept in order. */
#include <fcntl.h>
#include <math.h>
#include <tracefs.h>

#include "clock.h"
#include "unit.h"

static double now, step;	/* the clock klat reads: now, then step later each read */

static double fake_clock(void)
{
	double t = now;

	now += step;
	return t;
}

/*
 * the kernel takes each line written to a trigger file or synthetic_events
 * as one command; here each write goes to the end of the stand-in file, which
 * so lists every command given, in order
 */
static int append_line(struct tracefs_instance *inst, const char *file, const char *str)
{
	char *path = tracefs_instance_get_file(inst, file);
	int fd = path ? open(path, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
	ssize_t n = fd >= 0 ? write(fd, str, strlen(str)) : -1;

	tracefs_put_tracing_file(path);
	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(str) ? (int)n : -1;
}

#define clock_s fake_clock
#define tracefs_instance_file_append append_line
#include "../../common/khist.c"
#include "../../common/klat.c"

#define HIST "instances/ftt-iolatency-4242-k0/events/synthetic/ftt_iolatency_4242_lat0/hist"
#define RUN "instances/ftt-iolatency-4242-99"
#define K0 RUN "-k0"
#define K1 RUN "-k1"
#define SYN0 "/events/synthetic/ftt_iolatency_4242_99_lat0/"
#define SYN1 "/events/synthetic/ftt_iolatency_4242_99_lat1/"
#define ISSUE "/events/block/block_rq_issue/"
#define COMPLETE "/events/block/block_rq_complete/"

static char dir[128];
static char got[1024];

/* on_lat - klat_poll's callback: "group lat n;", or "group lat n sum;" with a sum */
static void on_lat(unsigned int group, unsigned long long lat, unsigned long long n,
		   unsigned long long sum, void *ctx)
{
	size_t len = strlen(got);

	(void)ctx;
	if (sum)
		snprintf(got + len, sizeof(got) - len, "%u %llu %llu %llu;", group, lat, n, sum);
	else
		snprintf(got + len, sizeof(got) - len, "%u %llu %llu;", group, lat, n);
}

/* fresh - klat's state as at startup, nothing handed on yet */
static void fresh(void)
{
	int i;

	for (i = 0; i < 2; i++)
		free(K.g[i].c);
	memset(&K, 0, sizeof(K));
	K.old = -1;
	K.margin = 0.1;
	got[0] = '\0';
}

static void same(const char *name, const char *text, const char *want)
{
	CHECK(name, text && !strcmp(text, want));
	if (!text || strcmp(text, want))
		printf("     got:\n%s\n     wanted:\n%s\n", text ? text : "(none)", want);
}

/* by_entry - qsort order of the entries "group lat n" */
static int by_entry(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* entries - TEXT's entries ("group lat n;" each) sorted, as one text: the
 * order within a set is its table's, which says nothing */
static const char *entries(const char *text, char *buf, size_t len)
{
	char copy[1024], *e[64], *p, *save = NULL;
	int n = 0, i;

	snprintf(copy, sizeof(copy), "%s", text);
	for (p = strtok_r(copy, ";", &save); p && n < 64; p = strtok_r(NULL, ";", &save))
		e[n++] = p;
	qsort(e, n, sizeof(e[0]), by_entry);
	buf[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s;", e[i]);
	return buf;
}

/* handed - CHECK that what klat_poll handed on is the entries of WANT, in any order */
static void handed(const char *name, const char *want)
{
	char a[1024], b[1024];

	same(name, entries(got, a, sizeof(a)), entries(want, b, sizeof(b)));
}

/* file_is - the stand-in file REL holds exactly WANT */
/* file_text - the stand-in file REL's text (NULL if none), until the next call */
static const char *file_text(const char *rel)
{
	static char text[8192];
	char path[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return text;
}

static void file_is(const char *name, const char *rel, const char *want)
{
	same(name, file_text(rel), want);
}

/* a negative latency: not handed on as 0, counted as unknown */
static void test_negative(void)
{
	struct klat_spec sp = { "block", "block_rq_issue", "block_rq_complete", "dev,sector", "dev",
				"", NULL, 1, 0 };
	static struct session ps;

	fresh();
	unit_put(dir, "instances/ftt-iolatency-4242-k0/trace", "");
	ps.inst = tracefs_instance_alloc(dir, "ftt-iolatency-4242-k0");
	if (!ps.inst) {
		CHECK("negative: the stand-in instance", 0);
		return;
	}
	/* 3 I/O of 87 us, 2 whose end came 5 us before the start it was paired with */
	unit_put(dir, HIST,
		 "# event histogram\n#\n"
		 "# trigger info: hist:keys=dev,lat:vals=hitcount:sort=hitcount:size=2048 if lat < 1024 [active]\n"
		 "#\n\n"
		 "{ dev:        259, lat:         87 } hitcount:          3\n"
		 "{ dev:        259, lat: 18446744073709551611 } hitcount:          2\n"
		 "\nTotals:\n    Hits: 5\n    Entries: 2\n    Dropped: 0\n");
	klat_attach(&ps, &sp, "ftt_iolatency_4242_lat0");
	klat_poll(on_lat, NULL);
	same("a negative latency is not handed on as 0", got, "259 87 3;");
	CHECK("and counts as unknown", klat_unknown() == 2);
	if (klat_unknown() != 2)
		printf("     unknown: %llu, wanted 2\n", klat_unknown());
	tracefs_instance_free(ps.inst);
}

/* whole milliseconds: a 1000-wide bucket's low end; only what grew since the last poll */
static void test_buckets(void)
{
	struct klat_spec sp = { "block", "block_rq_issue", "block_rq_complete", "dev,sector", "dev",
				"", NULL, 0, 0 };
	static struct session ps;

	fresh();
	ps.inst = tracefs_instance_alloc(dir, "ftt-iolatency-4242-k0");
	unit_put(dir, HIST,
		 "# trigger info: hist:keys=dev,lat.buckets=1000:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		 "{ dev:        8, lat: ~ 0-999 } hitcount:          4\n"
		 "{ dev:        8, lat: ~ 3000-3999 } hitcount:          5\n"
		 "{ dev:        259, lat: ~ 3000-3999 } hitcount:          1\n"
		 "\nTotals:\n    Hits: 10\n    Entries: 3\n    Dropped: 0\n");
	klat_attach(&ps, &sp, "ftt_iolatency_4242_lat0");
	klat_poll(on_lat, NULL);
	handed("buckets: every entry, in milliseconds, per device", "8 0 4;8 3 5;259 3 1;");
	got[0] = '\0';
	unit_put(dir, HIST,
		 "# trigger info: hist:keys=dev,lat.buckets=1000:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		 "{ dev:        8, lat: ~ 0-999 } hitcount:          4\n"
		 "{ dev:        8, lat: ~ 3000-3999 } hitcount:          7\n"
		 "{ dev:        259, lat: ~ 3000-3999 } hitcount:          1\n"
		 "{ dev:        259, lat: ~ 12000-12999 } hitcount:          2\n"
		 "\nTotals:\n    Hits: 14\n    Entries: 4\n    Dropped: 0\n");
	klat_poll(on_lat, NULL);
	handed("buckets: the next poll, only what grew", "8 3 2;259 12 2;");
	got[0] = '\0';
	klat_poll(on_lat, NULL);
	same("buckets: nothing new, nothing handed on", got, "");
	CHECK("buckets: pairs counted", K.g[0].pairs == 14);
	tracefs_instance_free(ps.inst);
}

/* due - renew_due at time T with the current set at PAIRS */
static int due(double t, unsigned long long pairs)
{
	now = t;
	K.g[K.cur].pairs = pairs;
	return renew_due();
}

/*
 * a new set is due after 2048 pairs at the soonest, at 32768 at the latest,
 * and in between once twice the peak rate, over what a renewal takes (twice
 * the making, the margin, the settling, the overlap, and a second), would
 * fill the 65536 entries
 */
static void test_due(void)
{
	fresh();
	step = 0;
	due(10, 0);		/* the first reading: no rate yet */
	/* 10000 a second: room 2 * 10000 * (0 + 0.1 + 0.25 + 0.5 + 1) = 37000 */
	CHECK("due: 10000 pairs, 47000 with the room", due(11, 10000) == 0 && K.peak == 10000);
	/* the peak decays by a tenth a second, the rate takes it back to 10000 */
	CHECK("due: 20000 pairs, 57000 with the room", due(12, 20000) == 0 && K.peak == 10000);
	CHECK("due: 30000 pairs, 67000 with the room", due(13, 30000) == 1);
	/* a slower second: the peak only decays, to 9000: room 33300 */
	CHECK("due: 31000 pairs at 1000 a second, 64300 with the room",
	      due(14, 31000) == 0 && K.peak == 9000);
	/* ten quiet seconds forget the peak: only 32768 makes it due */
	CHECK("due: quiet, the peak forgotten", due(24, 31000) == 0 && K.peak == 0);
	CHECK("due: 32767 pairs, no rate", due(25, 32767) == 0);
	CHECK("due: 32768 pairs, no rate", due(26, 32768) == 1);

	/* a slow making leaves less room: 2 * 10000 * (1 + 1.85) = 57000 */
	fresh();
	K.make_s = 0.5;
	due(10, 0);
	CHECK("due: 10000 pairs with 0.5 s to make a set", due(11, 10000) == 1);

	/* never before 2048 pairs, at any rate */
	fresh();
	due(10, 0);
	CHECK("due: 2047 pairs in 10 ms", due(10.01, 2047) == 0);
	fresh();
	due(10, 0);
	CHECK("due: 2048 pairs in 10 ms", due(10.01, 2048) == 1);
	/* 204.8 a second: room 757 */
	fresh();
	due(10, 0);
	CHECK("due: 2048 pairs in 10 s", due(20, 2048) == 0);
}

/* iolatency's spec, as -K in microseconds gives it */
static const struct klat_spec io = { "block", "block_rq_issue", "block_rq_complete", "dev,sector",
	"dev", "nr_sector > 0", "(nr_sector > 0 || rwbs ~ \"F*\")", 1, 0 };

#define START0 "hist:keys=dev,sector:ts0=common_timestamp.usecs:st0=common_timestamp.usecs:" \
	"size=65536:clock=mono if nr_sector > 0"
#define END0 "hist:keys=dev,sector:lat0=common_timestamp.usecs-$ts0:size=65536:clock=mono:" \
	"onmatch(block.block_rq_issue).trace(ftt_iolatency_4242_99_lat0,$lat0,dev,$st0) if nr_sector > 0"
#define START1 "hist:keys=sector,dev:ts1=common_timestamp.usecs:st1=common_timestamp.usecs:" \
	"size=65536:clock=mono if nr_sector > 0"
#define END1 "hist:keys=sector,dev:lat1=common_timestamp.usecs-$ts1:size=65536:clock=mono:" \
	"onmatch(block.block_rq_issue).trace(ftt_iolatency_4242_99_lat1,$lat1,dev,$st1) if nr_sector > 0"
/* set 0 counts what starts from T0, 0.25 s after its triggers are made, from klat_start */
#define BUCKETS0_AT(t0) "hist:keys=dev,lat:size=2048:pause if lat < 1024 && st >= " t0 "\n" \
	"hist:keys=dev,lat.buckets=1024:size=2048:pause if lat >= 1024 && st >= " t0 "\n"
#define BUCKETS0 BUCKETS0_AT("990250000")
/* T = 1000 s + the margin 0.1 + the settling 0.25, in microseconds */
#define LATE0 "hist:keys=lat,dev:size=2048 if lat < 1024 && st >= 1000350000\n" \
	"hist:keys=lat.buckets=1024,dev:size=2048 if lat >= 1024 && st >= 1000350000\n"
#define BUCKETS1 "hist:keys=dev,lat:size=2048 if lat < 1024 && st >= 1000350000\n" \
	"hist:keys=dev,lat.buckets=1024:size=2048 if lat >= 1024 && st >= 1000350000\n"

/* empty_files - the files klat_setup writes, there and empty */
static void empty_files(void)
{
	static const char *const files[] = {
		"synthetic_events", RUN COMPLETE "trigger",
		K0 ISSUE "trigger", K0 COMPLETE "trigger", K0 SYN0 "trigger",
		K1 ISSUE "trigger", K1 COMPLETE "trigger", K1 SYN1 "trigger",
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		unit_put(dir, files[i], "");
}

/* the commands for the kernel, and one renewal from start to end */
static void test_setup_renew(void)
{
	struct klat_spec bad = io;
	struct session s = { .name = "ftt-iolatency-4242-99", .group = "ftt_iolatency_4242_99" };
	size_t i;

	fresh();
	empty_files();
	s.inst = tracefs_instance_alloc(dir, s.name);
	bad.keys = "dev,sector,dev,sector,dev,sector,dev,sector,dev,sector,dev,sector,dev,sector,"
		   "dev,sector,dev,sector,dev,sector";
	CHECK("setup: pairing keys over 100 bytes refused", klat_setup(&s, &bad) == -1);
	file_is("setup: refused, nothing defined", "synthetic_events", "");

	now = 990;
	step = 0;
	CHECK("setup: made", klat_setup(&s, &io) == 0);
	file_is("setup: both sets' synthetic events", "synthetic_events",
		"ftt_iolatency_4242_99_lat0 u64 lat; u32 dev; u64 st\n"
		"ftt_iolatency_4242_99_lat1 u64 lat; u32 dev; u64 st\n");
	file_is("setup: the count of every end, in the run's instance", RUN COMPLETE "trigger",
		"hist:keys=dev:size=1024:clock=mono:pause if (nr_sector > 0 || rwbs ~ \"F*\")\n");
	file_is("setup: set 0 saves the start", K0 ISSUE "trigger", START0 "\n");
	file_is("setup: set 0 pairs the end", K0 COMPLETE "trigger", END0 "\n");
	file_is("setup: set 0's buckets, exact below 1024 us", K0 SYN0 "trigger", BUCKETS0);
	file_is("setup: set 1 not paired yet", K1 ISSUE "trigger", "");
	same("setup: set 1's start, keys the other way round", K.g[1].start_cmd, START1);
	same("setup: set 1's end, keys the other way round", K.g[1].end_cmd, END1);

	/* 32768 pairs: due at once; set 1 starts pairing, T 0.35 s ahead */
	unit_put(dir, K0 SYN0 "hist",
		 "# trigger info: hist:keys=dev,lat:vals=hitcount:sort=hitcount:size=2048 if lat < 1024 [active]\n"
		 "{ dev:        259, lat:         87 } hitcount:      32000\n"
		 "# trigger info: hist:keys=dev,lat.buckets=1024:vals=hitcount:sort=hitcount:size=2048 if lat >= 1024 [active]\n"
		 "{ dev:        259, lat: ~ 2048-3071 } hitcount:        768\n");
	now = 1000;
	klat_poll(on_lat, NULL);
	handed("renew: the counts handed on", "259 87 32000;259 2048 768;");
	CHECK("renew: set 1 is current, set 0 retiring", K.cur == 1 && K.old == 0 &&
	      fabs(K.t - 1000.35) < 1e-9);
	file_is("renew: set 1 saves the start", K1 ISSUE "trigger", START1 "\n");
	file_is("renew: set 1 pairs the end", K1 COMPLETE "trigger", END1 "\n");
	file_is("renew: set 0 also counts what starts from T", K0 SYN0 "trigger", BUCKETS0 LATE0);
	file_is("renew: set 1 counts only what starts from T", K1 SYN1 "trigger", BUCKETS1);

	/* before T + 0.5: 40 more pairs, 30 of them started from T, in both sets */
	unit_put(dir, K0 SYN0 "hist",
		 "# trigger info: hist:keys=dev,lat:vals=hitcount:sort=hitcount:size=2048 if lat < 1024 [active]\n"
		 "{ dev:        259, lat:         87 } hitcount:      32040\n"
		 "# trigger info: hist:keys=dev,lat.buckets=1024:vals=hitcount:sort=hitcount:size=2048 if lat >= 1024 [active]\n"
		 "{ dev:        259, lat: ~ 2048-3071 } hitcount:        768\n"
		 "# trigger info: hist:keys=lat,dev:vals=hitcount:sort=hitcount:size=2048 if lat < 1024 && st >= 1000350000 [active]\n"
		 "{ lat:         87, dev:        259 } hitcount:         30\n");
	unit_put(dir, K1 SYN1 "hist",
		 "# trigger info: hist:keys=dev,lat:vals=hitcount:sort=hitcount:size=2048 if lat < 1024 && st >= 1000350000 [active]\n"
		 "{ dev:        259, lat:         87 } hitcount:         30\n"
		 "{ dev:        259, lat:         90 } hitcount:          5\n");
	got[0] = '\0';
	now = 1000.5;
	klat_poll(on_lat, NULL);
	handed("renew: each pair once, by the set it started in", "259 87 10;259 87 30;259 90 5;");
	CHECK("renew: set 0 still pairs before T + 0.5", K.old == 0);

	/* after T + 0.5: set 0's triggers and histograms go */
	got[0] = '\0';
	now = 1000.9;
	klat_poll(on_lat, NULL);
	same("renew: nothing more to hand on", got, "");
	CHECK("renew: set 0 retired", K.old == -1 && K.cur == 1 && K.g[0].nhist == 0 &&
	      !K.g[0].paired);
	file_is("renew: set 0's start trigger removed", K0 ISSUE "trigger",
		START0 "\n!" START0 "\n");
	file_is("renew: set 0's end trigger removed", K0 COMPLETE "trigger", END0 "\n!" END0 "\n");
	file_is("renew: set 0's histograms removed, newest first", K0 SYN0 "trigger",
		BUCKETS0 LATE0
		"!hist:keys=lat.buckets=1024,dev:size=2048 if lat >= 1024 && st >= 1000350000\n"
		"!hist:keys=lat,dev:size=2048 if lat < 1024 && st >= 1000350000\n"
		"!hist:keys=dev,lat.buckets=1024:size=2048:pause if lat >= 1024 && st >= 990250000\n"
		"!hist:keys=dev,lat:size=2048:pause if lat < 1024 && st >= 990250000\n");

	/* the ends no set paired: every end counted, less every pair handed on */
	unit_put(dir, RUN COMPLETE "hist",
		 "# trigger info: hist:keys=dev:vals=hitcount:sort=hitcount:size=1024 if (nr_sector > 0 || rwbs ~ \"F*\") [active]\n"
		 "{ dev:        259 } hitcount:      32900\n"
		 "# trigger info: hist:keys=dev,sector:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		 "{ dev:        259, sector:       2048 } hitcount:         12\n");
	/* (only the count of every end: not another histogram of the event) */
	CHECK("unpaired: 32900 ends, 32813 pairs", klat_unpaired(&s) == 87);
	if (klat_unpaired(&s) != 87)
		printf("     unpaired %llu, wanted 87\n", klat_unpaired(&s));
	tracefs_instance_free(s.inst);
	for (i = 0; i < 2; i++)
		tracefs_instance_free(K.ps[i].inst);
}

/* funclatency's spec in microseconds: one pairing key, a probe's group field,
 * nanosecond stamps, five tiers of buckets with their sums */
#define FRUN "instances/ftt-funclatency-4242-99"
#define FSYS "/events/ftt_funclatency_4242_99/"
#define FSYN0 "/events/synthetic/ftt_funclatency_4242_99_lat0/"
/* T0: 500.25 s, in ns */
#define FTIERS \
	"hist:keys=g,lat.buckets=1000:vals=hitcount,lat:size=2048:pause if lat < 1024000 && st >= 500250000000\n" \
	"hist:keys=g,lat.buckets=1024000:vals=hitcount,lat:size=2048:pause if lat >= 1024000 && lat < 1048576000 && st >= 500250000000\n" \
	"hist:keys=g,lat.buckets=1048576000:vals=hitcount,lat:size=2048:pause if lat >= 1048576000 && lat < 1073741824000 && st >= 500250000000\n" \
	"hist:keys=g,lat.buckets=1073741824000:vals=hitcount,lat:size=2048:pause if lat >= 1073741824000 && lat < 1099511627776000 && st >= 500250000000\n" \
	"hist:keys=g,lat.buckets=1099511627776000:vals=hitcount,lat:size=2048:pause if lat >= 1099511627776000 && lat < 9223372036854775808 && st >= 500250000000\n"

/* conts - the lines of the stand-in file REL that continue a paused histogram */
static int conts(const char *rel)
{
	char path[512], line[1024];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, ":cont if ") != NULL;
	fclose(f);
	return n;
}

/* what the proof's known calls leave in set 0's histograms, as the kernel would */
static const char *proof_hist;

/* stand_in_calls - klat_prove's calls: the kernel's counts of them written */
static int stand_in_calls(void *ctx)
{
	(void)ctx;
	unit_put(dir, FRUN "-k0" FSYN0 "hist", proof_hist);
	unit_put(dir, FRUN FSYS "fl_return/hist",
		 "# trigger info: hist:keys=g:vals=hitcount:sort=hitcount:size=1024 if common_pid == 77 [active]\n"
		 "{ g:          0 } hitcount:          3\n");
	return 0;
}

/*
 * klat_reset after test_ns's run: the histograms, the pairing triggers, the
 * count, then the synthetic events removed, the instances kept; then
 * klat_prove with calls that stand in for the kernel's counts: three naps of
 * 10.1 ms counted as such pass, the same counted in us (stamps of the wrong
 * unit) do not
 */
static void test_reset_prove(struct session *s)
{
	static const struct klat_spec self = { "ftt_funclatency_4242_99", "fl_call", "fl_return",
		"common_pid", "g", "common_pid == 77", NULL, 0, 1000 };
	const struct klat_proof naps = { stand_in_calls, NULL, 3, 9900000, 1010000000 };
	struct tracefs_instance *k0 = K.ps[0].inst;
	const char *no, *t;

	klat_reset(s);
	file_is("reset: the synthetic events deleted last", "synthetic_events",
		"ftt_funclatency_4242_99_lat0 u64 lat; u32 g; u64 st\n"
		"ftt_funclatency_4242_99_lat1 u64 lat; u32 g; u64 st\n"
		"!ftt_funclatency_4242_99_lat0\n!ftt_funclatency_4242_99_lat1\n");
	file_is("reset: the count removed", FRUN FSYS "fl_return/trigger",
		"hist:keys=g:size=1024:clock=mono:pause\n"
		"hist:keys=g:size=1024:clock=mono:cont\n"
		"!hist:keys=g:size=1024:clock=mono:pause\n");
	file_is("reset: the pairing removed", FRUN "-k0" FSYS "fl_call/trigger",
		"hist:keys=common_pid:ts0=common_timestamp:st0=common_timestamp:size=65536:"
		"clock=mono if common_pid != 0\n"
		"!hist:keys=common_pid:ts0=common_timestamp:st0=common_timestamp:size=65536:"
		"clock=mono if common_pid != 0\n");
	CHECK("reset: the five histograms removed, the counts forgotten",
	      K.g[0].nhist == 0 && !K.g[0].paired && !K.g[0].defined && !K.counting &&
	      K.handed == 0 && K.old == -1);
	CHECK("reset: the instances kept", K.have_ps && K.ps[0].inst == k0);

	now = 600;
	step = 0.05;	/* klat_start's wait for T0 sees the clock move */
	proof_hist = "# trigger info: hist:keys=g,lat.buckets=1048576:vals=hitcount,lat:sort=hitcount:size=2048 if lat >= 1048576 && lat < 1073741824 [active]\n"
		     "{ g:          0, lat: ~ 9437184-10485759 } hitcount:          3  lat:   30300000\n";
	no = klat_prove(s, &self, &naps);
	CHECK("prove: three naps of 10.1 ms, counted so, prove it", no == NULL);
	if (no)
		printf("     %s\n", no);
	CHECK("prove: then reset, the instances kept", !K.counting && K.ps[0].inst == k0);
	t = file_text("synthetic_events");
	CHECK("prove: the synthetic events made again, and deleted",
	      t && strstr(t, "!ftt_funclatency_4242_99_lat1\nftt_funclatency_4242_99_lat0 u64 lat;") &&
	      strlen(t) > 60 && !strcmp(t + strlen(t) - 60,
		"!ftt_funclatency_4242_99_lat0\n!ftt_funclatency_4242_99_lat1\n"));

	proof_hist = "# trigger info: hist:keys=g,lat:vals=hitcount,lat:sort=hitcount:size=2048 if lat < 1024 [active]\n"
		     "# trigger info: hist:keys=g,lat.buckets=1024:vals=hitcount,lat:sort=hitcount:size=2048 if lat >= 1024 && lat < 1048576 [active]\n"
		     "{ g:          0, lat: ~ 10240-11263 } hitcount:          3  lat:      30300\n";
	no = klat_prove(s, &self, &naps);
	same("prove: the same naps counted in us fail it", no ? no : "(passed)",
	     "it timed 3 of 3 known calls, at 30300 ns in all (29700000 to 3030000000 made)");
	step = 0;
}

static void test_ns(void)
{
	static const struct klat_spec fl = { "ftt_funclatency_4242_99", "fl_call", "fl_return",
		"common_pid", "g", "common_pid != 0", "", 0, 1000 };
	static const char *const files[] = {
		"synthetic_events", FRUN FSYS "fl_return/trigger",
		FRUN "-k0" FSYS "fl_call/trigger", FRUN "-k0" FSYS "fl_return/trigger",
		FRUN "-k0" FSYN0 "trigger",
		FRUN "-k1" FSYS "fl_call/trigger", FRUN "-k1" FSYS "fl_return/trigger",
		FRUN "-k1/events/synthetic/ftt_funclatency_4242_99_lat1/trigger",
	};
	struct session s = { .name = "ftt-funclatency-4242-99", .group = "ftt_funclatency_4242_99" };
	size_t i;

	fresh();
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		unit_put(dir, files[i], "");
	s.inst = tracefs_instance_alloc(dir, s.name);
	now = 500;
	step = 0;
	CHECK("ns: made", klat_setup(&s, &fl) == 0);
	file_is("ns: the synthetic events", "synthetic_events",
		"ftt_funclatency_4242_99_lat0 u64 lat; u32 g; u64 st\n"
		"ftt_funclatency_4242_99_lat1 u64 lat; u32 g; u64 st\n");
	file_is("ns: every return counted, with no filter, from klat_start", FRUN FSYS "fl_return/trigger",
		"hist:keys=g:size=1024:clock=mono:pause\n");
	file_is("ns: the call's stamps in ns", FRUN "-k0" FSYS "fl_call/trigger",
		"hist:keys=common_pid:ts0=common_timestamp:st0=common_timestamp:size=65536:"
		"clock=mono if common_pid != 0\n");
	file_is("ns: the return pairs by the one key, the group through a variable",
		FRUN "-k0" FSYS "fl_return/trigger",
		"hist:keys=common_pid:g0=g:lat0=common_timestamp-$ts0:size=65536:clock=mono:"
		"onmatch(ftt_funclatency_4242_99.fl_call).trace(ftt_funclatency_4242_99_lat0,"
		"$lat0,$g0,$st0) if common_pid != 0\n");
	file_is("ns: five tiers, each 1024 times wider", FRUN "-k0" FSYN0 "trigger", FTIERS);
	same("ns: set 1 keys the same", K.g[1].start_cmd,
	     "hist:keys=common_pid:ts1=common_timestamp:st1=common_timestamp:size=65536:"
	     "clock=mono if common_pid != 0");

	/* klat_start after T0: the count, then the first set's five histograms, go on */
	unit_put(dir, FRUN "/tracing_on", "");
	unit_put(dir, FRUN "-k0/tracing_on", "");
	unit_put(dir, FRUN "-k1/tracing_on", "");
	now = 500.5;
	klat_start(&s);
	file_is("ns: klat_start starts the count", FRUN FSYS "fl_return/trigger",
		"hist:keys=g:size=1024:clock=mono:pause\n"
		"hist:keys=g:size=1024:clock=mono:cont\n");
	CHECK("ns: then the five histograms", conts(FRUN "-k0" FSYN0 "trigger") == 5);

	/* 3 calls of 87.x us (sum 263001 ns), 2 of 40.96 to 41.98 ms (sum 81920777 ns) */
	unit_put(dir, FRUN "-k0" FSYN0 "hist",
		 "# trigger info: hist:keys=g,lat.buckets=1000:vals=hitcount,lat:sort=hitcount:size=2048 if lat < 1024000 [active]\n"
		 "{ g:          0, lat: ~ 87000-87999 } hitcount:          3  lat:     263001\n"
		 "# trigger info: hist:keys=g,lat.buckets=1024000:vals=hitcount,lat:sort=hitcount:size=2048 if lat >= 1024000 && lat < 1048576000 [active]\n"
		 "{ g:          0, lat: ~ 40960000-41983999 } hitcount:          2  lat:   81920777\n"
		 "\nTotals:\n    Hits: 5\n    Entries: 2\n    Dropped: 0\n");
	now = 501;
	klat_poll(on_lat, NULL);
	handed("ns: microseconds, each bucket's low end, with its sum",
	       "0 87 3 263001;0 40960 2 81920777;");
	got[0] = '\0';
	klat_poll(on_lat, NULL);
	same("ns: nothing new, nothing handed on", got, "");
	test_reset_prove(&s);
	tracefs_instance_free(s.inst);
	for (i = 0; i < 2; i++)
		tracefs_instance_free(K.ps[i].inst);
}

/*
 * a renewal whose histograms are not all in place before T: taken back, the
 * margin twice the time it took (and 10 ms), tried again with the pairing
 * triggers kept
 */
static void test_late_renewal(void)
{
	struct session s = { .name = "ftt-iolatency-4242-99", .group = "ftt_iolatency_4242_99" };
	size_t i;

	fresh();
	empty_files();
	s.inst = tracefs_instance_alloc(dir, s.name);
	now = 1000;
	step = 0;
	if (klat_setup(&s, &io) < 0) {
		CHECK("late: made", 0);
		return;
	}
	/* each read of the clock 0.5 s after the last: making set 1 takes 0.5 s,
	 * T is 1001.35, and the histograms are checked at 1001.5 */
	step = 0.5;
	renew();
	CHECK("late: not switched", K.cur == 0 && K.old == -1 && K.t == 0);
	if (K.old >= 0)
		return;		/* (no second renewal beside a set still retiring) */
	CHECK("late: the margin twice the 1 s it took, and 10 ms", K.margin == 2 * 1.0 + 0.01);
	CHECK("late: the new set's pairing kept, its histograms gone",
	      K.g[1].paired && K.g[1].nhist == 0 && K.g[0].nhist == 2);
	file_is("late: set 0's late histograms taken back", K0 SYN0 "trigger",
		BUCKETS0_AT("1000250000")
		"hist:keys=lat,dev:size=2048 if lat < 1024 && st >= 1001350000\n"
		"hist:keys=lat.buckets=1024,dev:size=2048 if lat >= 1024 && st >= 1001350000\n"
		"!hist:keys=lat.buckets=1024,dev:size=2048 if lat >= 1024 && st >= 1001350000\n"
		"!hist:keys=lat,dev:size=2048 if lat < 1024 && st >= 1001350000\n");

	/* next time, in time: the pairing triggers are not made again */
	step = 0;
	now = 1010;
	renew();
	CHECK("late: switched the second time", K.cur == 1 && K.old == 0);
	file_is("late: set 1 paired once", K1 ISSUE "trigger", START1 "\n");
	/* T = 1010 + the margin 2.01 + the settling 0.25 */
	CHECK("late: set 1's histograms from the new T", K.g[1].nhist == 2);
	same("late: set 1's first histogram", K.g[1].hist[0],
	     "hist:keys=dev,lat:size=2048 if lat < 1024 && st >= 1012260000");
	same("late: set 1's second histogram", K.g[1].hist[1],
	     "hist:keys=dev,lat.buckets=1024:size=2048 if lat >= 1024 && st >= 1012260000");
	tracefs_instance_free(s.inst);
	for (i = 0; i < 2; i++)
		tracefs_instance_free(K.ps[i].inst);
}

int main(void)
{
	unit_tmpdir(dir, sizeof(dir), "klat");
	if (tracefs_set_tracing_dir(dir) < 0) {
		printf("FAIL klat: tracefs_set_tracing_dir %s\n", dir);
		return 1;
	}
	test_negative();
	test_buckets();
	test_due();
	test_setup_renew();
	test_late_renewal();
	test_ns();
	if (unit_rmtree(dir) != 0)
		printf("FAIL klat: could not remove %s\n", dir);
	return unit_done("klat");
}

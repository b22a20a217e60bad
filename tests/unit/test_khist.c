/* SPDX-License-Identifier: GPL-2.0-only */
/* test_khist - keys of the kernel's hist entries, the entries and dropped
 * counts of a hist file (read from a directory that stands in for tracefs),
 * the pause and continue lines of a trigger, and latencies from ns to histogram slots the same way in user space as in
 * the kernel's buckets */
#include "hist.h"
#include "khist.h"
#include "session.h"
#include "unit.h"

/* key_is - khist_key finds NAME in KEYS with value WANT */
static void key_is(const char *keys, const char *name, unsigned long long want)
{
	unsigned long long v = ~0ULL;
	char label[160];
	int rc = khist_key(keys, name, &v);

	snprintf(label, sizeof(label), "khist_key '%s' in '%s'", name, keys);
	CHECK(label, rc == 0 && v == want);
	if (rc != 0 || v != want)
		printf("     got: rc %d, %llu\n", rc, v);
}

/* key_absent - khist_key does not find NAME in KEYS */
static void key_absent(const char *keys, const char *name)
{
	unsigned long long v = 0;
	char label[160];

	snprintf(label, sizeof(label), "khist_key '%s' absent from '%s'", name, keys);
	CHECK(label, khist_key(keys, name, &v) == -1);
}

static char dir[128];
static struct session sess;

/* what khist_read handed on: "info|keys|hits" lines */
static char seen[4096];

/* on_entry - khist_read's callback: note the entry, count the call */
static void on_entry(const char *info, const char *keys, unsigned long long hits, void *ctx)
{
	size_t n = strlen(seen);

	snprintf(seen + n, sizeof(seen) - n, "%s|%s|%llu\n", info, keys, hits);
	(*(int *)ctx)++;
}

/* the hist file of synthetic/ftt_iolatency_4242_lat0 in the instance */
#define HIST "instances/ftt-iolatency-4242-k0/events/synthetic/ftt_iolatency_4242_lat0/hist"

/* read_is - with TEXT in the hist file (NULL: no file), khist_read returns
 * DROPPED and hands on exactly WANT */
static void read_is(const char *what, const char *text, long long dropped, const char *want)
{
	char path[512];
	long long rc;
	int calls = 0, lines = 0;
	const char *p;

	if (text) {
		unit_put(dir, HIST, text);
	} else {
		snprintf(path, sizeof(path), "%s/%s", dir, HIST);
		unlink(path);
	}
	for (p = want; (p = strchr(p, '\n')); p++)
		lines++;
	seen[0] = '\0';
	rc = khist_read(&sess, "synthetic", "ftt_iolatency_4242_lat0", on_entry, &calls);
	CHECK(what, rc == dropped && calls == lines && !strcmp(seen, want));
	if (rc != dropped || calls != lines || strcmp(seen, want))
		printf("     got %lld, %d calls:\n%s     wanted %lld, %d calls:\n%s", rc, calls, seen,
		       dropped, lines, want);
}

/* the trigger file of raw_syscalls/sys_enter in the stand-in instance */
#define TRIGGER "instances/ftt-iolatency-4242-k0/events/raw_syscalls/sys_enter/trigger"

/* pause_is - khist_pause of CMD appends exactly WANT to the trigger file */
static void pause_is(const char *cmd, int pause, const char *want)
{
	char path[512], got[512] = "", label[600];
	FILE *f;
	size_t n = 0;

	unit_put(dir, TRIGGER, "");
	snprintf(path, sizeof(path), "%s/%s", dir, TRIGGER);
	CHECK("khist_pause: written", khist_pause(&sess, "raw_syscalls", "sys_enter", cmd, pause) == 0);
	f = fopen(path, "re");
	if (f) {
		n = fread(got, 1, sizeof(got) - 1, f);
		got[n] = '\0';
		fclose(f);
	}
	snprintf(label, sizeof(label), "khist_pause %d of '%s'", pause, cmd);
	CHECK(label, !strcmp(got, want));
	if (strcmp(got, want))
		printf("     got '%s', wanted '%s'\n", got, want);
}

/* pause_tests - the switch goes in before the filter, and a trigger made
 * paused is continued without its ":pause" (both would pause it) */
static void pause_tests(void)
{
	pause_is("hist:keys=id:vals=hitcount:size=2048:pause if common_pid != 7", 0,
		 "hist:keys=id:vals=hitcount:size=2048:cont if common_pid != 7\n");
	pause_is("hist:keys=id:vals=hitcount:size=2048:pause if common_pid != 7", 1,
		 "hist:keys=id:vals=hitcount:size=2048:pause if common_pid != 7\n");
	pause_is("hist:keys=id,ret:vals=hitcount if ret < 0 && common_pid != 7", 1,
		 "hist:keys=id,ret:vals=hitcount:pause if ret < 0 && common_pid != 7\n");
	pause_is("hist:keys=id:pause:size=4096", 0, "hist:keys=id:size=4096:cont\n");
	pause_is("hist:keys=id", 0, "hist:keys=id:cont\n");
	pause_is("hist:keys=id", 1, "hist:keys=id:pause\n");
	CHECK("khist_pause: a newline is refused",
	      khist_pause(&sess, "raw_syscalls", "sys_enter", "hist:keys=id\nx", 1) == -1);
}

/* read_tests - khist_read on hist files as the kernel prints them, and on broken ones */
static void read_tests(void)
{
	unit_tmpdir(dir, sizeof(dir), "khist");
	/* the instance's directory: tracefs_instance_alloc wants it there */
	unit_put(dir, "instances/ftt-iolatency-4242-k0/trace", "");
	sess.inst = tracefs_instance_alloc(dir, "ftt-iolatency-4242-k0");
	if (!sess.inst) {
		CHECK("tracefs_instance_alloc on the stand-in directory", 0);
		return;
	}

	/* iolatency -K -m's two histograms on one synthetic event, in the kernel's format */
	read_is("two histograms: every entry with its trigger, the dropped totals summed",
		"# event histogram\n"
		"#\n"
		"# trigger info: hist:keys=dev,lat:vals=hitcount:sort=hitcount:size=2048 if lat < 1024 [active]\n"
		"#\n"
		"\n"
		"{ dev:        259, lat:         87 } hitcount:          1\n"
		"{ dev:        259, lat:        112 } hitcount:          4\n"
		"\n"
		"Totals:\n"
		"    Hits: 5\n"
		"    Entries: 2\n"
		"    Dropped: 2\n"
		"\n"
		"\n"
		"# event histogram\n"
		"#\n"
		"# trigger info: hist:keys=dev,lat.buckets=1024:vals=hitcount:sort=hitcount:size=2048 if lat >= 1024 [active]\n"
		"#\n"
		"\n"
		"{ dev:          7, lat: ~ 3072-4095 } hitcount:          2\n"
		"{ dev:        259, lat: ~ 1024-2047 } hitcount:   18446744073709551615\n"
		"\n"
		"Totals:\n"
		"    Hits: 19\n"
		"    Entries: 2\n"
		"    Dropped: 40\n",
		42,
		"hist:keys=dev,lat:vals=hitcount:sort=hitcount:size=2048 if lat < 1024 [active]"
		"| dev:        259, lat:         87 |1\n"
		"hist:keys=dev,lat:vals=hitcount:sort=hitcount:size=2048 if lat < 1024 [active]"
		"| dev:        259, lat:        112 |4\n"
		"hist:keys=dev,lat.buckets=1024:vals=hitcount:sort=hitcount:size=2048 if lat >= 1024 [active]"
		"| dev:          7, lat: ~ 3072-4095 |2\n"
		"hist:keys=dev,lat.buckets=1024:vals=hitcount:sort=hitcount:size=2048 if lat >= 1024 [active]"
		"| dev:        259, lat: ~ 1024-2047 |18446744073709551615\n");
	read_is("a histogram with no entries",
		"# event histogram\n#\n"
		"# trigger info: hist:keys=dev:vals=hitcount:sort=hitcount:size=1024:clock=mono [active]\n"
		"#\n\n\nTotals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0\n",
		0, "");
	read_is("no hist file: -1", NULL, -1, "");

	/* broken text: what is not a whole entry is passed over */
	read_is("an entry before any trigger info has an empty info",
		"{ dev:        259 } hitcount:          3\n", 0, "| dev:        259 |3\n");
	read_is("entries without a closing brace or a hitcount are passed over",
		"# trigger info: hist:keys=dev:vals=hitcount [active]\n"
		"{ dev:        259 hitcount:          5\n"
		"{ dev:        259 }\n"
		"{ dev:        259 } hits:          6\n"
		" { dev:        259 } hitcount:          7\n"
		"dev:        259 } hitcount:          8\n"
		"{ dev:          8 } hitcount:          9\n"
		"{ dev:        259, lat: ~ 10",
		0, "hist:keys=dev:vals=hitcount [active]| dev:          8 |9\n");
	read_is("Dropped: lines however indented, and not in an entry",
		"# trigger info: hist:keys=dev:vals=hitcount [active]\n"
		"{ dev:          1 } hitcount:          1\n"
		"Dropped: 5\n"
		"        Dropped: 6\n"
		"{ dev:          2, Dropped: 100 } hitcount:          1\n",
		11,
		"hist:keys=dev:vals=hitcount [active]| dev:          1 |1\n"
		"hist:keys=dev:vals=hitcount [active]| dev:          2, Dropped: 100 |1\n");

	pause_tests();
	tracefs_instance_free(sess.inst);
	unit_rmtree(dir);
}

/*
 * kernel_value - what iolatency -K counts for a latency of LAT_US: the key
 * text of the bucket the kernel's hist trigger puts it in (lat.buckets=1000
 * for milliseconds; exact below 1024 and lat.buckets=1024 above for
 * microseconds: klat.c), read back by khist_key, in the histogram's unit as
 * klat.c hands it on; ~0 if khist_key fails
 */
static unsigned long long kernel_value(unsigned long long lat_us, int usecs)
{
	unsigned long long w = usecs ? 1024 : 1000, lo = lat_us / w * w, v;
	char keys[96];

	if (usecs && lat_us < 1024)
		snprintf(keys, sizeof(keys), "dev:        259, lat: %10llu", lat_us);
	else
		snprintf(keys, sizeof(keys), "dev:        259, lat: ~ %llu-%llu", lo, lo + w - 1);
	if (khist_key(keys, "lat", &v) < 0)
		return ~0ULL;
	return usecs ? v : v / 1000;
}

int main(void)
{
	/* the kernel prints keys as "name: %10llu", buckets as "name: ~ lo-hi" */
	key_is("dev:        259, lat: ~ 3000-3999", "dev", 259);
	key_is("dev:        259, lat: ~ 3000-3999", "lat", 3000);
	key_is("lat: ~ 1024-2047, dev:          7", "lat", 1024);
	key_is("lat: ~ 1024-2047, dev:          7", "dev", 7);
	key_is(" common_pid:       4242", "common_pid", 4242);
	key_is("lat: 18446744073709551615", "lat", 18446744073709551615ULL);
	key_is("dev:          0", "dev", 0);
	/* a key is matched by its whole name, not by a prefix or a suffix */
	key_is("latency:          5, lat:          9", "lat", 9);
	key_is("xlat:          5, lat:          9", "lat", 9);
	key_absent("latency:          5", "lat");
	key_absent("xlat:          5", "lat");
	key_absent("dev:        259", "lat");
	key_absent("", "lat");
	/* text that is not "name: value" */
	key_absent("lat 9", "lat");
	key_absent("lat", "lat");
	key_absent(" , ,, ", "lat");
	key_absent("dev:        259,", "lat");
	key_is("dev:        259,", "dev", 259);
	key_is("lat:9", "lat", 9);
	key_is(",,  lat:   ~   42-43", "lat", 42);
	key_is("lat: ~ 3000-3999, lat: ~ 4000-4999", "lat", 3000);

	read_tests();

	/* each timestamp is truncated to microseconds first, as common_timestamp.usecs */
	CHECK("hist_lat us: 900 ns across a microsecond boundary is 1 us",
	      hist_lat(1500, 2400, 1) == 1);
	CHECK("hist_lat us: 999 ns within one microsecond is 0 us", hist_lat(1000, 1999, 1) == 0);
	CHECK("hist_lat us: equal timestamps", hist_lat(123456789, 123456789, 1) == 0);
	CHECK("hist_lat us: whole microseconds", hist_lat(5000, 3005000, 1) == 3000);
	CHECK("hist_lat ms: 999 us is 0 ms", hist_lat(1000, 1000999, 0) == 0);
	CHECK("hist_lat ms: 999001 ns across 1000 us boundaries is 1 ms",
	      hist_lat(999, 1000000, 0) == 1);
	CHECK("hist_lat ms: 2.5 ms is 2 ms", hist_lat(0, 2500000, 0) == 2);
	CHECK("hist_lat: a boot-time-sized clock", hist_lat(1000000000000000999ULL,
							  1000000000000001000ULL, 1) == 1);

	/* a latency lands in the same slot counted here or by the kernel's buckets */
	{
		static const unsigned long long sub[] = { 0, 1, 499, 999 };
		struct hist h;
		unsigned long long us;
		int usecs, ok, i;
		char label[96];

		hist_init(&h, 0);
		for (usecs = 0; usecs <= 1; usecs++) {
			ok = 1;
			for (us = 0; us < 70000 && ok; us += us < 4200 ? 1 : 37)
				for (i = 0; i < 4; i++) {
					unsigned long long start = 7000000000ULL + sub[i];
					unsigned long long end = start - sub[i] + us * 1000 + sub[3 - i];
					int here = hist_slot(&h, hist_lat(start, end, usecs));
					int kernel = hist_slot(&h, kernel_value(end / 1000 - start / 1000,
										usecs));

					if (here != kernel) {
						printf("     %llu to %llu ns: slot %d here, %d in the kernel\n",
						       start, end, here, kernel);
						ok = 0;
					}
				}
			snprintf(label, sizeof(label), "same slot here and in the kernel's %s buckets",
				 usecs ? "us" : "ms");
			CHECK(label, ok);
		}
	}
	return unit_done("khist");
}

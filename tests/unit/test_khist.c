/* test_khist - keys of the kernel's hist entries, and latencies from ns to
 * histogram slots the same way in user space as in the kernel's buckets */
#include "hist.h"
#include "khist.h"
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

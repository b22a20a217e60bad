/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_decode - the event decode path fed corrupt records
 *
 * A tep handle is built once from real format files (tests/fuzz/formats,
 * copied from tracefs: SYSTEM__EVENT). Each input is one record: the first
 * byte picks the event, the rest is the record's data, placed so that it ends
 * right before an inaccessible page (any read past the record faults even in
 * the uninstrumented libtraceevent) and starts 4-byte aligned, as the ring
 * buffer's records do. The first byte indexes the events sorted by file name.
 * Every field goes through decode_raw (what it returns must lie inside the
 * record), decode_u64, decode_s64, decode_str and decode_has, and decode_pid;
 * every record through tcpretrans's address decoding (rec_inet_v4,
 * rec_endpoint: the tool file is built in, its main renamed, as the replay
 * cases do); kernel_stack records through kstack_print. Then evtext_line prints it as tpoint does (libtraceevent's
 * print format where decode_record_ok accepts the record): it must stay inside it.
 */
#define main tcpretrans_main
#include "../../tools/tcpretrans.c"
#undef main

#include <dirent.h>
#include <sys/mman.h>
#include <unistd.h>

#include "decode.h"
#include "evtext.h"
#include "fuzz.h"
#include "kstack.h"
#include "msg.h"
#include "output.h"
#include "session.h"

#ifndef FUZZ_DIR
#define FUZZ_DIR "tests/fuzz"
#endif

#define MAX_EVENTS 64

static struct tep_handle *tep;
static struct tep_event *events[MAX_EVENTS];
static int nr_events;
static struct session fuzz_sess;
static unsigned char *page;	/* two pages: data, then PROT_NONE */
static long pagesz;
static FILE *devnull;

/* load - parse one saved format file into tep */
static void load(const char *dir, const char *name)
{
	char path[4096], sys[128], *buf;
	const char *sep = strstr(name, "__");
	struct tep_event *ev = NULL;
	long n;
	FILE *f;

	if (!sep || (size_t)(sep - name) >= sizeof(sys) || nr_events == MAX_EVENTS)
		return;
	memcpy(sys, name, sep - name);
	sys[sep - name] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return;
	buf = malloc(1 << 16);
	n = buf ? (long)fread(buf, 1, (1 << 16) - 1, f) : 0;
	fclose(f);
	if (n > 0 && tep_parse_format(tep, &ev, buf, n, sys) == 0 && ev)
		events[nr_events++] = ev;
	free(buf);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_FORMATS") ? getenv("FUZZ_FORMATS") : FUZZ_DIR "/formats";
	struct dirent **names;
	int i, n;

	(void)argc, (void)argv;
	msg_init("fuzz");
	fuzz_quiet();
	devnull = fopen("/dev/null", "w");
	tep = tep_alloc();
	if (!tep || !devnull)
		abort();
	out = devnull;		/* where evtext_line and kstack_print write */
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, getpagesize());
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	/* sorted, so that an input's first byte always means the same event */
	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.')
			load(dir, names[i]->d_name);
		free(names[i]);
	}
	if (n > 0)
		free(names);
	if (!nr_events) {
		fprintf(stdout, "fuzz_decode: no format files in %s\n", dir);
		abort();
	}
	fuzz_sess.tep = tep;
	pagesz = getpagesize();
	page = mmap(NULL, 2 * pagesz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED || mprotect(page + pagesz, pagesz, PROT_NONE))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tep_format_field *lists[2], *f;
	struct tep_record rec = { 0 };
	struct tep_event *ev;
	unsigned char *rd;
	char buf[256];
	const unsigned char *raw;
	size_t len;
	int i, n, v4;

	if (size < 1 || size - 1 > (size_t)pagesz - 8)
		return 0;
	ev = events[data[0] % nr_events];
	len = size - 1;
	rd = (unsigned char *)(((uintptr_t)(page + pagesz - len)) & ~(uintptr_t)3);
	memset(page, 0xa5, pagesz);
	memcpy(rd, data + 1, len);
	/* the record's type is its event's, as the kernel writes it */
	if (len >= 2) {
		rd[0] = ev->id & 0xff;
		rd[1] = (ev->id >> 8) & 0xff;
	}
	rec.data = rd;
	rec.size = (int)len;
	rec.ts = 123456789;

	lists[0] = ev->format.common_fields;
	lists[1] = ev->format.fields;
	for (i = 0; i < 2; i++)
		for (f = lists[i]; f; f = f->next) {
			FUZZ_ASSERT(decode_has(ev, f->name));
			raw = decode_raw(ev, &rec, f->name, &n);
			FUZZ_ASSERT(raw ? n >= 0 && raw >= rd && raw + n <= rd + len : n == 0);
			if (raw && n > 0)
				FUZZ_ASSERT(raw[0] == rd[raw - rd] && raw[n - 1] == rd[raw - rd + n - 1]);
			(void)decode_u64(ev, &rec, f->name);
			(void)decode_s64(ev, &rec, f->name);
			decode_str(ev, &rec, f->name, buf, sizeof(buf));
			FUZZ_ASSERT(strlen(buf) < sizeof(buf));
		}
	(void)decode_u64(ev, &rec, "no_such_field");
	decode_str(ev, &rec, "no_such_field", buf, sizeof(buf));
	FUZZ_ASSERT(buf[0] == '\0');
	(void)decode_pid(ev, &rec);
	v4 = rec_inet_v4(ev, &rec);
	rec_endpoint(ev, &rec, v4, "saddr", "saddr_v6", 1, buf, sizeof(buf));
	rec_endpoint(ev, &rec, !v4, "daddr", "daddr_v6", 2, buf, sizeof(buf));
	FUZZ_ASSERT(strlen(buf) < sizeof(buf));
	if (!strcmp(ev->name, "kernel_stack"))
		kstack_print(&fuzz_sess, ev, &rec);

	/* the whole line as tpoint and kprobe print it (its own checks first) */
	evtext_line(&fuzz_sess, ev, &rec, "fuzz");
	return 0;
}

/* test_procread - batched string reads of another process equal one-by-one reads */
#include <signal.h>
#include <sys/mman.h>

#include "procread.h"
#include "unit.h"

static const char *got[PROC_BATCH * 3];
static int gotn[PROC_BATCH * 3];

/* keep - proc_mem_strs's callback: a copy of each string */
static void keep(int i, const char *s, int n, void *arg)
{
	got[i] = n >= 0 ? strndup(s, n) : NULL;
	gotn[i] = n;
}

/* the queue's results: item (an index), pid and string, in the order handed on */
static int qitem[PROC_BATCH + 8], qpid[PROC_BATCH + 8], qn;
static char qstr[PROC_BATCH + 8][32];

/* qgot - proc_queue's callback; a string starting with 'x' is of no use */
static int qgot(void *item, int pid, const char *s, int n)
{
	qitem[qn] = (int)(long)item;
	qpid[qn] = pid;
	snprintf(qstr[qn], sizeof(qstr[qn]), "%.*s", n < 0 ? 2 : n, n < 0 ? "-1" : s);
	qn++;
	return n > 0 && s[0] != 'x' ? 0 : -1;
}

/* check_queue - items come back in push order with their strings; a full
 * queue reads at once; waiting() finds only an unread push */
static void check_queue(pid_t child, pid_t dead, char (*small)[32])
{
	struct proc_queue *q = proc_queue_new(qgot);
	int i, ok;

	proc_queue_push(q, child, (unsigned long)"one", (void *)1L);
	proc_queue_push(q, dead, (unsigned long)"two", (void *)2L);
	proc_queue_push(q, child, (unsigned long)"three", (void *)3L);
	CHECK("queue_waits", qn == 0);
	CHECK("queue_waiting", proc_queue_waiting(q, child) == (void *)3L &&
	      proc_queue_waiting(q, dead) == (void *)2L && !proc_queue_waiting(q, 1));
	proc_queue_flush(q);
	CHECK("queue_flush", qn == 3 && qitem[0] == 1 && !strcmp(qstr[0], "one") &&
	      qpid[1] == dead && !strcmp(qstr[1], "-1") &&
	      qitem[2] == 3 && !strcmp(qstr[2], "three"));
	CHECK("queue_read_not_waiting", !proc_queue_waiting(q, child));
	CHECK("queue_read_ok", proc_queue_read_ok(q, child) && !proc_queue_read_ok(q, dead) &&
	      !proc_queue_read_ok(q, 1));
	qn = 0;
	proc_queue_push(q, child, (unsigned long)"xno", (void *)4L);
	proc_queue_flush(q);
	CHECK("queue_not_of_use", qn == 1 && !proc_queue_read_ok(q, child));
	qn = 0;
	proc_queue_flush(q);
	CHECK("queue_empty_flush", qn == 0);
	for (i = 0; i < PROC_BATCH - 1; i++)
		proc_queue_push(q, child, (unsigned long)small[i], (void *)(long)i);
	CHECK("queue_below_full", qn == 0);
	proc_queue_push(q, child, (unsigned long)small[i], (void *)(long)i);
	CHECK("queue_full_reads", qn == PROC_BATCH && !proc_queue_waiting(q, child));
	for (ok = 1, i = 0; i < PROC_BATCH; i++)
		ok &= qitem[i] == i && qpid[i] == child && !strcmp(qstr[i], small[i]);
	CHECK("queue_full_in_order", ok);
	free(q);
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 5 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0), *longs = malloc(3001), one[4096];
	static char small[PROC_BATCH][32];
	struct proc_str v[PROC_BATCH * 3];
	int n = 0, i, k, ok, dead;
	pid_t child;

	/* pages 0, 1 and 3 mapped, 2 and 4 not: strings at the edge of readable memory */
	munmap(map + 2 * page, page);
	munmap(map + 4 * page, page);
	memset(longs, 'L', 3000);
	longs[3000] = '\0';
	strcpy(map + page - 3, "span");		/* crosses from page 0 into page 1 */
	memcpy(map + 2 * page - 4, "cut", 4);	/* its NUL is the last mapped byte */
	memcpy(map + 4 * page - 2, "xy", 2);	/* no NUL before the unmapped page */
	for (i = 0; i < PROC_BATCH; i++)
		snprintf(small[i], sizeof(small[i]), "/tmp/file-%d", i);

	child = fork();
	if (child == 0) {
		for (;;)
			pause();
	}
	dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);

#define ADD(p, a) do { v[n].pid = (p); v[n].addr = (unsigned long)(a); n++; } while (0)
	ADD(child, "/etc/passwd");
	ADD(child, longs);
	ADD(child, map + page - 3);
	ADD(child, map + 2 * page - 4);
	ADD(child, map + 4 * page - 2);
	ADD(child, map + 2 * page);	/* unmapped: fails alone, the batch goes on */
	ADD(child, "after");
	ADD(child, 0);
	ADD(dead, "gone");
	ADD(child, "back");
	/* one address asked for again at once (read once): short, long, unmapped */
	ADD(child, "twice");
	ADD(child, "twice");
	ADD(child, longs);
	ADD(child, longs);
	ADD(child, map + 2 * page);
	ADD(child, map + 2 * page);
	for (i = 0; i < PROC_BATCH + 7; i++)	/* more than one syscall's worth */
		ADD(child, small[i % PROC_BATCH]);
	proc_mem_strs(v, n, keep, NULL);

	CHECK("plain", gotn[0] == 11 && !strcmp(got[0], "/etc/passwd"));
	CHECK("long", gotn[1] == 3000 && !strcmp(got[1], longs));
	CHECK("across_pages", got[2] && !strcmp(got[2], "span"));
	CHECK("ends_at_unmapped", got[3] && !strcmp(got[3], "cut"));
	CHECK("cut_at_unmapped", got[4] && !strcmp(got[4], "xy"));
	CHECK("unmapped", gotn[5] == -1 && !got[5]);
	CHECK("after_unmapped", got[6] && !strcmp(got[6], "after"));
	CHECK("null", gotn[7] == -1);
	CHECK("dead_process", gotn[8] == -1);
	CHECK("back_to_live", got[9] && !strcmp(got[9], "back"));
	CHECK("repeat_short", got[10] && got[11] && !strcmp(got[10], "twice") &&
	      !strcmp(got[11], "twice"));
	CHECK("repeat_long", gotn[12] == 3000 && gotn[13] == 3000 && !strcmp(got[13], longs));
	CHECK("repeat_unmapped", gotn[14] == -1 && gotn[15] == -1);
	for (ok = 1, i = 16; i < n; i++)
		ok &= got[i] && !strcmp(got[i], small[(i - 16) % PROC_BATCH]);
	CHECK("many", ok);
	/* each as proc_mem_str reads it alone */
	for (ok = 1, i = 0; i < n; i++) {
		k = proc_mem_str(v[i].pid, v[i].addr, one, sizeof(one));
		if (k != gotn[i] || (k >= 0 && memcmp(one, got[i], k))) {
			printf("  string %d: batch %d, alone %d\n", i, gotn[i], k);
			ok = 0;
		}
	}
	CHECK("same_as_one_by_one", ok);
	check_queue(child, dead, small);
	/* what a reused buffer leaves: zeros, a pointer's bytes; and real paths */
	CHECK("plausible_path", proc_str_plausible("/tmp/a file", 11) &&
	      proc_str_plausible("caf\xc3\xa9/\xe2\x82\xac\xf0\x9f\x98\x80", 13));
	CHECK("implausible", !proc_str_plausible("", 0) && !proc_str_plausible("x", -1) &&
	      !proc_str_plausible("a\tb", 3) && !proc_str_plausible("a\x7f", 2) &&
	      !proc_str_plausible("K`\xca\xce\xa0U", 6) &&
	      !proc_str_plausible("caf\xc3", 4) && !proc_str_plausible("\xc0\xaf", 2) &&
	      !proc_str_plausible("\xf8\x88\x80\x80\x80", 5));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	for (i = 0; i < n; i++)
		free((char *)got[i]);
	free(longs);
	return unit_done("test_procread");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* journal.c - top-level settings a run changed, on disk until the run ends
 *
 * Where the kernel can do something only at the top level (function_graph on
 * 5.10 and 6.1, the function profiler), a run saves what it changes and the
 * undo stack writes it back at exit. SIGKILL skips the undo stack, so each
 * saved content is also written, before the change, to JOURNAL_DIR/TOOL-PID-START
 * (START: the run's start time, proc_start);
 * the next run of any tool that finds the run gone writes it back (as it reaps
 * the run's instance) and removes the file. Each value the run writes is
 * journaled too ("=FILE" records, before the write and as read back after
 * it), and a file is written back only while it still holds one of them:
 * what someone set after the run died is theirs, and stays.
 *
 * The directory is root's and private (0700); it is refused if it is a link,
 * someone else's, or open to anyone else (any mode bit for group or others),
 * and journals are created O_EXCL and O_NOFOLLOW. A record is
 * "FILE\nLENGTH\nCONTENT\n" (the content to put back) or "=FILE\nLENGTH\nVALUE\n"
 * (a value the run left there), FILE one of the files a run journals. A journal
 * that is not one (malformed, another file, a second line in a file of one
 * value) is written back in no part: it is renamed NAME.bad and named on
 * stderr, never silently removed.
 *
 * One run at a time changes top-level settings: it holds an flock on
 * JOURNAL_DIR/lock (which names it) until it exits, and a dead run's journal
 * is written back only under that lock, so it never overwrites a live run's
 * settings.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "msg.h"
#include "procread.h"
#include "setting.h"
#include "undo.h"
#include "xalloc.h"

static int jfd = -1;
static char jpath[128];
static int lfd = -1;		/* the top-level lock, held until exit */

/* dir_ok - JOURNAL_DIR exists (made if need be) as root's private directory:
 * mode 0700, owned by root, not a link */
static int dir_ok(void)
{
	struct stat st;

	if (mkdir(JOURNAL_DIR, 0700) < 0 && errno != EEXIST)
		return -1;
	if (lstat(JOURNAL_DIR, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/*
 * The files a run journals (global_write: funccount's profiler,
 * funcgraph's top-level graph), and whether one holds a list (one entry a
 * line) or nothing but is emptied (the trace buffer, which held only the
 * run's graph); the reaper writes back no other file, and no second line into
 * a file of one value.
 */
enum { ONE, LIST, EMPTY };
static const struct {
	const char *name;
	int kind;
} journaled[] = {
	{ "trace", EMPTY },
	{ "current_tracer", ONE },
	{ "tracing_on", ONE },
	{ "max_graph_depth", ONE },
	{ "tracing_thresh", ONE },
	{ "function_profile_enabled", ONE },
	{ "set_ftrace_filter", LIST },
	{ "set_graph_function", LIST },
	{ "set_ftrace_pid", LIST },
	{ "set_ftrace_notrace_pid", LIST },
	{ "options/function-fork", ONE },
	{ "options/sleep-time", ONE },
	{ "options/funcgraph-tail", ONE },
	{ "options/funcgraph-irqs", ONE },
	{ "options/funcgraph-duration", ONE },
	{ "options/funcgraph-proc", ONE },
	{ "options/funcgraph-abstime", ONE },
	{ "options/funcgraph-cpu", ONE },
	{ "options/funcgraph-overhead", ONE },
	{ "options/funcgraph-retval", ONE },
	{ "options/funcgraph-retaddr", ONE },
	{ "options/funcgraph-args", ONE },
	{ "trace_clock", ONE },
};

/* record_ok - may FILE be written back with CONTENT: a journaled file, one
 * line if it holds one value, nothing if it is only emptied */
static int record_ok(const char *file, const char *content)
{
	size_t i;

	for (i = 0; i < sizeof(journaled) / sizeof(journaled[0]); i++)
		if (!strcmp(file, journaled[i].name))
			return journaled[i].kind == LIST ||
			       (journaled[i].kind == ONE ? !strchr(content, '\n') : !*content);
	return 0;
}

/* write_all - the whole buffer or -1 */
static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* journal_remove - undo action: the settings are back, the journal goes */
static void journal_remove(void *unused)
{
	(void)unused;
	if (jfd < 0)
		return;
	close(jfd);
	jfd = -1;
	unlink(jpath);
}

/* record - append one record to the run's journal, made by the first; LEFT:
 * a value the run leaves in FILE ("=FILE"), else the content to put back */
static int record(const char *tool, const char *file, const char *content, int left)
{
	static int warned;
	char head[128];
	int n;

	if (!record_ok(file, content)) {
		msg_warn("internal: %s is not a journaled file", file);
		return -1;
	}
	if (jfd < 0) {
		snprintf(jpath, sizeof(jpath), JOURNAL_DIR "/%s-%d-%llu", tool, (int)getpid(),
			 proc_start(getpid()));
		if (dir_ok() == 0) {
			unlink(jpath);	/* a stale journal of a reused PID: ours now */
			jfd = open(jpath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		}
		if (jfd < 0) {
			if (!warned++)
				msg_warn("cannot keep %s (a run killed with SIGKILL would leave "
					 "top-level settings behind):", jpath);
			return -1;
		}
		undo_defer(journal_remove, NULL);
	}
	n = snprintf(head, sizeof(head), "%s%s\n%zu\n", left ? "=" : "", file, strlen(content));
	if (write_all(jfd, head, (size_t)n) < 0 || write_all(jfd, content, strlen(content)) < 0 ||
	    write_all(jfd, "\n", 1) < 0)
		return -1;
	return 0;
}

/* journal_note - see journal.h */
int journal_note(const char *tool, const char *file, const char *content)
{
	return record(tool, file, content, 0);
}

/* journal_left - see journal.h */
int journal_left(const char *tool, const char *file, const char *value)
{
	if (jfd < 0)
		return -1;	/* nothing to put back was noted: nothing to guard */
	return record(tool, file, value, 1);
}

/* journal_parse - see journal.h */
int journal_parse(char *text, size_t len,
		  void (*fn)(const char *file, const char *content, int left, void *arg), void *arg)
{
	char *p = text, *end = text + len, *nl, *file, *num, *stop;
	unsigned long n;
	size_t room;
	int left;

	while (p < end) {
		left = *p == '=';
		file = p + left;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return -1;
		*nl = '\0';
		num = nl + 1;
		nl = memchr(num, '\n', (size_t)(end - num));
		if (!nl || !isdigit((unsigned char)*num))
			return -1;
		*nl = '\0';
		errno = 0;
		n = strtoul(num, &stop, 10);
		room = (size_t)(end - nl - 1);	/* content and its '\n' must fit */
		if (errno || *stop || room < 1 || n > room - 1 || nl[1 + n] != '\n')
			return -1;
		nl[1 + n] = '\0';
		if (memchr(nl + 1, '\0', n) || !record_ok(file, nl + 1))
			return -1;
		fn(file, nl + 1, left, arg);
		p = nl + 2 + n;
	}
	return 0;
}

/* a journal's records, in the order noted (every one: a run that follows
 * many threads appends to set_ftrace_pid once per thread) */
struct records {
	int n, cap;
	struct {
		const char *file, *content;
		int left, ours;
	} *v;
};

/* collect - journal_parse callback: keep the record */
static void collect(const char *file, const char *content, int left, void *arg)
{
	struct records *r = arg;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->v = xreallocarray(r->v, r->cap, sizeof(*r->v));
	}
	r->v[r->n].file = file;
	r->v[r->n].content = content;
	r->v[r->n].left = left;
	r->v[r->n].ours = 0;
	r->n++;
}

/*
 * still_ours - does FILE still hold a value the dead run left there (one of
 * its "=" records)? Not if someone set it since, nor if the run never wrote it
 */
static int still_ours(const struct records *r, const char *file)
{
	char *now = setting_read(NULL, file);
	int i, ours = 0;

	for (i = 0; now && i < r->n && !ours; i++)
		ours = r->v[i].left && !strcmp(r->v[i].file, file) &&
		       setting_same(file, now, r->v[i].content);
	free(now);
	return ours;
}

/* shared - tracing_on and the trace buffer serve whatever tracing is set up
 * at the top level: the dead run's only while nothing else was set since */
static int shared(const char *file)
{
	return !strcmp(file, "trace") || !strcmp(file, "tracing_on");
}

/*
 * restore - put back the dead run's settings, newest first: each file only
 * while it still holds what the run left there (what holds anything else was
 * set since by someone, and is theirs); tracing_on and the trace buffer
 * (which held the run's records) only if every other file still holds the
 * run's values, as someone tracing since may use them. The files left alone
 * are named in *kept (len bytes).
 */
static void restore(struct records *r, char *kept, size_t len)
{
	int i, all = 1;
	size_t k = 0;
	char *now;

	kept[0] = '\0';
	for (i = 0; i < r->n; i++) {
		if (r->v[i].left || !strcmp(r->v[i].file, "trace"))
			continue;
		r->v[i].ours = still_ours(r, r->v[i].file);
		if (!r->v[i].ours) {
			all &= shared(r->v[i].file);
			k += snprintf(kept + k, k < len ? len - k : 0, "%s%s", k ? ", " : "",
				      r->v[i].file);
		}
	}
	for (i = r->n - 1; i >= 0; i--) {
		if (r->v[i].left || (shared(r->v[i].file) && !all))
			continue;
		if (!strcmp(r->v[i].file, "trace")) {
			tracefs_instance_file_write(NULL, "trace", "");
			continue;
		}
		if (!r->v[i].ours)
			continue;
		/* a write is not a no-op for every file (current_tracer expands
		 * a ring buffer never used yet): only what differs */
		now = setting_read(NULL, r->v[i].file);
		if (!now || !setting_same(r->v[i].file, now, r->v[i].content))
			setting_write(NULL, r->v[i].file, r->v[i].content);
		free(now);
	}
}

/*
 * put_back - write the settings of one dead run's journal back (restore) and
 * remove it; one that cannot be read as a journal is kept aside as NAME.bad,
 * nothing of it written, and named on stderr
 */
static void put_back(int dirfd, const char *name)
{
	struct records r = { 0 };
	struct stat st;
	char *text = NULL, bad[300], kept[512];
	ssize_t got = -1;
	int fd, kept_bad;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    st.st_size <= (1 << 24) && (text = malloc((size_t)st.st_size + 1)))
		got = read(fd, text, (size_t)st.st_size);
	close(fd);
	if (text && got == st.st_size && journal_parse(text, (size_t)got, collect, &r) == 0) {
		restore(&r, kept, sizeof(kept));
		if (kept[0])
			msg_warn("%s/%s: a run that died changed %s, and someone set %s since: "
				 "left as they are", JOURNAL_DIR, name, kept,
				 strchr(kept, ',') ? "them" : "it");
		unlinkat(dirfd, name, 0);
	} else {
		snprintf(bad, sizeof(bad), "%s.bad", name);
		kept_bad = renameat(dirfd, name, dirfd, bad) == 0;
		msg_warn("%s/%s: not a journal this suite wrote; nothing of it written back%s%s",
			 JOURNAL_DIR, name, kept_bad ? ", kept as " : "", kept_bad ? bad : "");
	}
	free(r.v);
	free(text);
}

/*
 * lock_try - the lock on top-level settings, not waited for: its descriptor,
 * or -1 (errno EWOULDBLOCK: another run holds it, named in holder[len])
 */
static int lock_try(char *holder, size_t len)
{
	struct stat st;
	ssize_t n;
	int fd;

	if (holder && len)
		holder[0] = '\0';
	if (dir_ok() < 0)
		return -1;
	/* made once, never followed: opened if there, else created (O_EXCL: one maker wins) */
	fd = open(JOURNAL_DIR "/lock", O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		fd = open(JOURNAL_DIR "/lock", O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST)
		fd = open(JOURNAL_DIR "/lock", O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;

		if (holder && len && (n = pread(fd, holder, len - 1, 0)) > 0) {
			holder[n] = '\0';
			holder[strcspn(holder, "\n")] = '\0';
		}
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* journal_lock - see journal.h */
int journal_lock(const char *tool, char *holder, size_t len)
{
	char me[64];
	int fd, n;

	if (lfd >= 0)
		return 0;
	fd = lock_try(holder, len);
	if (fd < 0)
		return -1;
	n = snprintf(me, sizeof(me), "%s (PID %d)\n", tool, (int)getpid());
	if (ftruncate(fd, 0) < 0 || write_all(fd, me, (size_t)n) < 0) {
		close(fd);
		return -1;
	}
	lfd = fd;
	return 0;
}

/* journal_name - the PID and start of a journal's name "TOOL-PID-START" (or
 * an older "TOOL-PID": start 0); -1 for any other name, or a TOOL longer than
 * a run writes (31 bytes, global_owner) */
static int journal_name(const char *name, int *pid, unsigned long long *start)
{
	const char *dash = strchr(name, '-');
	size_t n = dash ? (size_t)(dash - name) : 0;
	char *end;

	if (!dash || n == 0 || n >= 32 || !isdigit((unsigned char)dash[1]))
		return -1;
	*pid = (int)strtol(dash + 1, &end, 10);
	*start = 0;
	if (*end == '-' && isdigit((unsigned char)end[1]))
		*start = strtoull(end + 1, &end, 10);
	return *end ? -1 : 0;
}

/* journal_reap - see journal.h */
void journal_reap(int (*dead)(int pid, unsigned long long start))
{
	unsigned long long start, me = proc_start(getpid());
	struct dirent *d;
	DIR *dir;
	struct stat st;
	int pid, fd = lfd, gone, dfd;

	/* no directory, no journal (and none made here); a bad one is not read */
	if (lstat(JOURNAL_DIR, &st) < 0 || dir_ok() < 0)
		return;
	dfd = open(JOURNAL_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return;
	/* the directory read is the one checked: still root's, private, not a link */
	if (fstat(dfd, &st) < 0 || st.st_uid != 0 || (st.st_mode & 077) || !(dir = fdopendir(dfd))) {
		close(dfd);
		return;
	}
	while ((d = readdir(dir))) {
		if (journal_name(d->d_name, &pid, &start) < 0)
			continue;
		/* our own PID: ours if it has our start time, else a dead run's */
		gone = pid == (int)getpid() ? start != me : dead(pid, start);
		if (!gone)
			continue;
		/* under the lock: a run holding it is live, and its settings stay */
		if (fd < 0 && (fd = lock_try(NULL, 0)) < 0)
			break;
		put_back(dirfd(dir), d->d_name);
	}
	closedir(dir);
	if (fd >= 0 && fd != lfd)
		close(fd);
}

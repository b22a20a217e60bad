/* opensnoop - trace open()s: process, file descriptor or error, and path
 *
 * open, openat and openat2 are traced by their syscall exit tracepoints (the
 * FD or error). The path is read in the kernel at the call: by event probes on
 * the syscall entry tracepoints (5.15+), else by a kprobe on do_sys_openat2
 * (5.6+) or do_sys_open. A kernel with neither gets the path from the caller's
 * memory after the event (the paths of one drain in a batch, a syscall for
 * many), which a process gone (or exec'd) by then no longer has: such paths
 * are marked.
 * -p, -L, -n (a plain name) and -x are applied in the kernel. Overhead grows
 * with the open rate: each open is two events and a printed line; at more than
 * some thousand opens a second, use -d or a filter.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode.h"
#include "filter.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "pidmap.h"
#include "probes.h"
#include "procread.h"
#include "reorder.h"
#include "session.h"
#include "signals.h"
#include "stream.h"

static const char usage_text[] =
"USAGE: opensnoop [-htxTe] [-d secs] [-p PID] [-L TID] [-n name] [filename]\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -e              # include the open flags (octal)\n"
"                 -n name         # process name to match on open\n"
"                 -p PID          # PID to match on open (all its threads)\n"
"                 -L TID          # thread id to match on open\n"
"                 -t              # include time (seconds)\n"
"                 -T              # include wall-clock time (HH:MM:SS)\n"
"                 -x              # only show failed opens\n"
"                 -h              # this usage message\n"
"                 filename        # match filename (partials, REs, ok)\n"
"  eg,\n"
"       opensnoop                 # watch open()s live (unbuffered)\n"
"       opensnoop -d 1            # trace 1 sec (buffered)\n"
"       opensnoop -p 181          # trace I/O issued by PID 181 only\n"
"       opensnoop conf            # trace filenames containing \"conf\"\n"
"       opensnoop 'log$'          # filenames ending in \"log\"\n"
"       opensnoop -x -e           # failed opens, with their flags\n"
"\n"
"See the man page and example file for more info.\n";

enum mode { M_EPROBE, M_KPROBE, M_PROC };

struct opts {
	double duration;
	pid_t pid, tid;
	int times, hms, fails, flags;
	const char *name, *file;
	regex_t name_re, file_re;
};

/* an open in progress: what the call asked for */
struct call {
	unsigned long long flags;
	unsigned long long ts;	/* PROC mode: when the call was made */
	int known;		/* 1: read in the kernel; 0: from user memory; -1: unread */
	char *path;		/* visible (escaped); NULL while unread */
	char *link;		/* PROC mode, path unread: the FD's file, or NULL */
	int fd;			/* PROC mode: the FD the open returned, if seen while queued; -1 */
};

static struct opts o;
static enum mode mode = M_PROC;

static struct pidmap *pending, *comms;
static unsigned long long unpaired;	/* returns without a traced call */
/* PROC mode: the paths still to read, read together before the drain is handed on */
static struct proc_queue *paths;
static struct session *sess;

static const char *const calls[] = { "open", "openat", "openat2" };

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, ":d:ehn:p:L:txT")) != -1) {
		switch (c) {
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'e': o.flags = 1; break;
		case 'h': opt_help(usage_text);
		case 'n': o.name = optarg; opt_regex(&o.name_re, optarg, "-n"); break;
		case 'p': o.pid = opt_pid(optarg, "-p"); break;
		case 'L': o.tid = opt_pid(optarg, "-L"); break;
		case 't': o.times = 1; break;
		case 'T': o.hms = 1; break;
		case 'x': o.fails = 1; break;
		case ':': opt_usage("option -%c needs an argument", optopt);
		default: opt_usage("unknown option -%c", optopt);
		}
	}
	if (argc - optind > 1)
		opt_usage("too many arguments (one filename pattern at most)");
	if (optind < argc) {
		o.file = argv[optind];
		opt_regex(&o.file_re, o.file, "filename");
	}
	if (o.pid && o.tid)
		opt_usage("use either -p or -L, not both");
}

/* set_path - c's path: n bytes of `path`, made visible; known: how it was read */
static void set_path(struct call *c, const char *path, size_t n, int known)
{
	while (n && path[n - 1] == '\0')
		n--;
	c->known = known;
	c->path = malloc(2 * n + 4);
	if (!c->path)
		msg_die(EXIT_ERR, "out of memory");
	out_vis(c->path, 2 * n + 4, 0, path, n);
}

/* call_new - a pending open with flags, its path unread */
static struct call *call_new(unsigned long long flags)
{
	struct call *c = calloc(1, sizeof(*c));

	if (!c)
		msg_die(EXIT_ERR, "out of memory");
	c->flags = flags;
	c->known = -1;
	c->fd = -1;
	return c;
}

/* call_free - a call and what it holds */
static void call_free(void *p)
{
	struct call *c = p;

	free(c->path);
	free(c->link);
	free(c);
}

/* on_probe - the path and flags read in the kernel at the call */
static void on_probe(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	int n = 0;
	const char *p = tep_get_field_raw(NULL, ev, "path", rec, &n, 0);
	struct call *c = call_new(decode_u64(ev, rec, "flags"));

	set_path(c, p ? p : "", p && n > 0 ? n : 0, 1);
	pidmap_put(pending, decode_pid(ev, rec), c);
}

/* on_enter - PROC mode: keep what pre_enter read for the open's end */
static void on_enter(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	pidmap_put(pending, decode_pid(ev, rec), aux);
	reorder_keep_aux();
}

/* pre_exec - PROC mode: what is read of a task after its exec says nothing
 * of its earlier opens (the exec'ing thread takes the process's PID) */
static void pre_exec(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	proc_exec_seen((int)decode_s64(ev, rec, "pid"), rec->ts);
	proc_exec_seen((int)decode_s64(ev, rec, "old_pid"), rec->ts);
}

/* got_path - PROC mode: the path of call c was read (n bytes) or not (n -1); 0 if of use */
static int got_path(void *item, int tid, const char *path, int n)
{
	struct call *c = item;

	if (proc_exec_since(tid, c->ts))
		return -1;	/* another program's memory and FDs: no guess */
	/* a buffer reused since the call can hold anything, a pointer's bytes or
	 * zeros: only what could be text is a path (an open of "" fails at once) */
	if (!proc_str_plausible(path, n))
		n = -1;
	if (n > 0)
		set_path(c, path, n, 0);
	else if (c->fd >= 0)	/* unreadable: the file its FD names, if still open */
		c->link = proc_fd_path(tid, c->fd);
	return n > 0 ? 0 : -1;
}

/* read_paths - PROC mode: read the paths the drain asked for, before they are handed on */
static void read_paths(void)
{
	proc_queue_flush(paths);
}

/* pre_enter - PROC mode: ask for the path (and read openat2's flags) while the caller lives */
static void pre_enter(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	int tid = decode_pid(ev, rec);
	unsigned long long flags = decode_u64(ev, rec, "flags");
	struct call *c;

	if (decode_has(ev, "how") && proc_mem(tid, decode_u64(ev, rec, "how"), &flags,
					      sizeof(flags)) < 0)
		flags = 0;
	c = call_new(flags);
	c->ts = rec->ts;
	reorder_push(ev, rec, on_enter, NULL, c);
	proc_queue_push(paths, tid, decode_u64(ev, rec, "filename"), c);
}

/* on_rename - the names tasks get while tracing runs (fork, exec, prctl) */
static void on_rename(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	char comm[32];
	int fork = decode_has(ev, "child_comm");

	decode_str(ev, rec, fork ? "child_comm" : "newcomm", comm, sizeof(comm));
	pidmap_put(comms, (int)decode_s64(ev, rec, fork ? "child_pid" : "pid"), strdup(comm));
}

/* on_return - an open returned: print it with its call, unless filtered */
static void on_return(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	int tid = decode_pid(ev, rec);
	struct call *c = pidmap_take(pending, tid);
	long long ret = decode_s64(ev, rec, "ret");
	const char *link = aux;		/* the FD's file, read at the return */
	const char *comm = pidmap_get(comms, tid), *path, *mark = "";
	static struct out_line line;
	char buf[32], err[16];

	if (!c) {
		unpaired++;		/* began before tracing did, or its call was lost */
		return;
	}
	if (!link)
		link = c->link ? c->link : "";
	if (!comm)
		comm = decode_comm(sess, tid);
	/* read after the fact (memory, else the FD's file): a best guess, marked */
	path = c->known >= 0 ? c->path : link[0] ? link : NULL;
	if (c->known <= 0 && path)
		mark = " [?]";
	if ((o.fails && ret >= 0) || (o.name && regexec(&o.name_re, comm, 0, NULL, 0)) ||
	    (o.file && (!path || regexec(&o.file_re, path, 0, NULL, 0)))) {
		call_free(c);
		return;
	}
	if (o.hms) {
		line_str(&line, out_hms(rec->ts, buf, sizeof(buf)), 8, -1);
		line_add(&line, " ");
	}
	if (o.times) {
		line_str(&line, out_time(rec->ts, buf, sizeof(buf)), 16, -1);
		line_add(&line, " ");
	}
	line_str(&line, comm, 16, 16);
	line_add(&line, " ");
	line_dec(&line, tid, 6);
	line_add(&line, " ");
	if (ret >= 0) {
		buf[0] = '0';
		buf[1] = 'x';
		out_num(ret, 16, 0, buf + 2, sizeof(buf) - 2);
	}
	line_rstr(&line, ret >= 0 ? buf : o.fails ? decode_errname((int)ret, err, sizeof(err)) :
		  "-1", o.fails ? 7 : 4);
	line_add(&line, " ");
	if (o.flags) {
		line_add(&line, out_num(c->flags, 8, 8, buf, sizeof(buf)));
		line_add(&line, " ");
	}
	line_add(&line, path ? path : "[?]");
	line_add(&line, mark);
	line_add(&line, "\n");
	line_put(&line);
	call_free(c);
}

/* pre_return - the caller's name and, in PROC mode, the file its new FD names */
static void pre_return(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	long long ret = decode_s64(ev, rec, "ret");
	int tid = decode_pid(ev, rec);
	char *link = NULL, comm[32];
	struct call *c;

	/* the FD's file only when the path could not be read at the call: known
	 * once the batch its call is in has been read */
	if (mode == M_PROC && ret >= 0) {
		c = proc_queue_waiting(paths, tid);
		if (c)
			c->fd = (int)ret;
		else if (!proc_queue_read_ok(paths, tid) && !proc_exec_since(tid, rec->ts))
			link = proc_fd_path(tid, (int)ret);
	}
	/* the first open seen from tid: its name now, while it lives */
	if (!pidmap_get(comms, tid) && proc_comm(tid, comm, sizeof(comm)) == 0)
		pidmap_put(comms, tid, strdup(comm));
	reorder_push(ev, rec, on_return, NULL, link);
}

/* setup_probes - the best way this kernel has to read the path at the call */
static void setup_probes(struct session *s)
{
	char name[32];
	size_t i;
	int n = 0;

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "sys_enter_%s", calls[i]);
		if (session_event_exists("syscalls", name) &&
		    probe_add_eprobe(s, calls[i], "syscalls", name, i == 2 ?
				     "path=+0($filename):ustring flags=+u0($how):x64" :
				     "path=+0($filename):ustring flags=$flags:x64") == 0)
			n++;
	}
	if (n) {
		mode = M_EPROBE;
		return;
	}
	if (probes_available() && probes_readme_has("ustring")) {
		if (probe_add(s, "open", 0, "do_sys_openat2",
			      "path=+0($arg2):ustring flags=+0($arg3):x64") == 0 ||
		    probe_add(s, "open", 0, "do_sys_open",
			      "path=+0($arg2):ustring flags=$arg3:x64") == 0) {
			mode = M_KPROBE;
			return;
		}
	}
}

/* build_filter - never ourselves; -p/-L threads; -n as a glob; `extra` */
static char *build_filter(const char *extra)
{
	char *more = NULL, glob[64], *f;

	if (o.name && opt_regex_glob(o.name, glob, sizeof(glob)) == 0)
		filter_glob(&more, "comm", glob);
	if (extra)
		filter_cat(&more, "%s%s", more ? " && " : "", extra);
	f = filter_build(o.pid, o.tid, NULL, more);
	free(more);
	return f;
}

int main(int argc, char **argv)
{
	const char *formats[15] = { "sched:sched_process_fork", "task:task_rename",
				    "sched:sched_process_exec" };
	char fmt[9][96];
	int nf = 3;
	char *filter, *exit_filter, name[32], ftext[256];
	size_t i, at;

	msg_init("opensnoop");
	sig_init();
	parse(argc, argv);
	session_tracefs();
	if (!session_event_exists("syscalls", "sys_exit_openat"))
		msg_die(EXIT_ERR, "tracepoint syscalls:sys_exit_openat not found "
			"(kernel without CONFIG_FTRACE_SYSCALLS?)");

	sess = session_open("opensnoop");
	if (reorder_init(sess) < 0 && o.hms)
		msg_die(EXIT_ERR, "-T: the kernel has no \"mono\" trace clock");
	setup_probes(sess);
	for (i = 0; i < 3; i++) {
		snprintf(fmt[3 * i], sizeof(fmt[0]), "syscalls:sys_enter_%s", calls[i]);
		snprintf(fmt[3 * i + 1], sizeof(fmt[0]), "syscalls:sys_exit_%s", calls[i]);
		snprintf(fmt[3 * i + 2], sizeof(fmt[0]), "%s:%s", sess->group, calls[i]);
		formats[nf++] = fmt[3 * i];
		formats[nf++] = fmt[3 * i + 1];
		if (mode != M_PROC)
			formats[nf++] = fmt[3 * i + 2];
	}
	session_load(sess, formats);	/* only these: fast even in an emulated guest */
	pending = pidmap_new(call_free);
	comms = pidmap_new(free);

	filter = build_filter(NULL);
	exit_filter = build_filter(o.fails ? "ret < 0" : NULL);
	snprintf(name, sizeof(name), "common_pid != %d", (int)getpid());
	reorder_follow(sess, "sched", "sched_process_fork", name, NULL, on_rename);
	reorder_follow(sess, "task", "task_rename", name, NULL, on_rename);
	if (mode == M_PROC)
		reorder_follow(sess, "sched", "sched_process_exec", name, pre_exec, NULL);
	for (i = 0; i < 3; i++) {
		if (mode == M_EPROBE)
			reorder_follow(sess, sess->group, calls[i], filter, NULL, on_probe);
		snprintf(name, sizeof(name), "sys_enter_%s", calls[i]);
		if (mode == M_PROC)
			reorder_follow(sess, "syscalls", name, filter, pre_enter, NULL);
		snprintf(name, sizeof(name), "sys_exit_%s", calls[i]);
		reorder_follow(sess, "syscalls", name, exit_filter, pre_return, NULL);
	}
	if (mode == M_KPROBE)
		reorder_follow(sess, sess->group, "open", filter, NULL, on_probe);
	if (mode == M_PROC) {
		paths = proc_queue_new(got_path);
		if (!paths)
			msg_die(EXIT_ERR, "out of memory");
		reorder_before(read_paths);
	}
	free(filter);
	free(exit_filter);

	stream_size_buffer(sess);	/* before tracing starts: a resize empties the buffer */
	session_start(sess);
	/* the degraded mode is said once setup has worked: a failure stays one line */
	if (mode == M_PROC)
		msg_warn("no kprobes or event probes: paths are read from the caller's memory "
			 "after the open, a best guess marked [?]");
	out_init(o.duration > 0);
	at = 0;
	ftext[0] = '\0';
	if (o.pid || o.tid)
		at += snprintf(ftext, sizeof(ftext), " issued by %s %d", o.pid ? "PID" : "TID",
			       o.pid ? (int)o.pid : (int)o.tid);
	if (o.name)
		at += snprintf(ftext + at, sizeof(ftext) - at, " issued by process name \"%.40s\"",
			       o.name);
	if (o.file)
		snprintf(ftext + at, sizeof(ftext) - at, " for filenames containing \"%.40s\"",
			 o.file);
	if (o.duration > 0)
		printf("Tracing open()s%s for %g seconds (buffered)...\n", ftext, o.duration);
	else
		printf("Tracing open()s%s. Ctrl-C to end.\n", ftext);
	if (o.hms)
		printf("%-8s ", "TIME");
	if (o.times)
		printf("%-16s ", "TIMEs");
	printf("%-16.16s %-6s %*s ", "COMM", "PID", o.fails ? 7 : 4, "FD");
	if (o.flags)
		printf("%-8s ", "FLAGS");
	printf("FILE\n");
	fflush(stdout);

	stream_run(sess, o.duration, 0, NULL, NULL);

	out_ending();
	stream_report_lost(sess);
	if (unpaired)
		msg_warn("%llu opens returned without a traced call (in flight when tracing "
			 "began, or events lost)", unpaired);
	return EXIT_OK;
}

/* execsnoop - trace exec()s: new processes with PID, PPID and arguments
 *
 * sched:sched_process_exec reports every successful exec and
 * sched:sched_process_fork gives the parent. The arguments are read in the
 * kernel when exec is called, by an event probe on the syscalls:sys_enter_execve
 * and _execveat tracepoints (5.15+), else by a kprobe on the x86-64 syscall
 * functions; a kernel with neither gets them from /proc/PID/cmdline after the
 * exec, and a process gone by then (or exec'd again) is marked. Failed execs
 * (-x) come from sys_exit_execve/_execveat, filtered in the kernel to errors.
 * Overhead is small: exec rates are low, and each one costs a few events and a
 * /proc read.
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
"USAGE: execsnoop [-hrtxTU] [-a argc] [-d secs] [name]\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -a argc         # max args to show (default 8)\n"
"                 -r              # include re-execs\n"
"                 -t              # include time (seconds)\n"
"                 -T              # include wall-clock time (HH:MM:SS)\n"
"                 -U              # include UID\n"
"                 -x              # include failed exec()s, with the error\n"
"                 -h              # this usage message\n"
"                 name            # process name to match (REs allowed)\n"
"  eg,\n"
"       execsnoop                 # watch exec()s live (unbuffered)\n"
"       execsnoop -d 1            # trace 1 sec (buffered)\n"
"       execsnoop grep            # trace process names containing grep\n"
"       execsnoop 'udevd$'        # process names ending in \"udevd\"\n"
"       execsnoop -x              # also show exec()s that failed\n"
"\n"
"See the man page and example file for more info.\n";

#define MAX_ARGC	16
#define CMDLINE_MAX	32768

enum mode { M_EPROBE, M_KPROBE, M_PROC };

struct opts {
	double duration;
	unsigned int argc;
	int rexec, times, hms, uids, fails;
	const char *name;
	regex_t re;
};

/* the arguments an exec was called with, as read at the call */
struct args {
	char comm[16];		/* basename of the file, as the kernel names the task */
	int more;		/* more arguments than -a shows */
	char text[];		/* shown arguments, or empty if unknown */
};

/* what is read from /proc while the exec'd process most likely still runs */
struct pre {
	int pid;
	unsigned long long ts;	/* the exec's time */
	long uid, ppid;
	int n;			/* bytes of cmdline, -1 if gone or exec'd again */
	char cmd[];
};

#define READ_BATCH 64
/* the execs of this drain, read from /proc at its end (or when READ_BATCH wait) */
static struct pre *to_read[READ_BATCH];
static int nr_to_read;

static struct opts o = { .argc = 8 };
static enum mode mode = M_PROC;
static struct pidmap *pending, *parent, *seen, *parent_uid;

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, ":a:d:hrtxTU")) != -1) {
		switch (c) {
		case 'a': o.argc = opt_ulong(optarg, "-a", 1, MAX_ARGC); break;
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'h': opt_help(usage_text);
		case 'r': o.rexec = 1; break;
		case 't': o.times = 1; break;
		case 'T': o.hms = 1; break;
		case 'U': o.uids = 1; break;
		case 'x': o.fails = 1; break;
		case ':': opt_usage("option -%c needs an argument", optopt);
		default: opt_usage("unknown option -%c", optopt);
		}
	}
	if (argc - optind > 1)
		opt_usage("too many arguments (one process name at most)");
	if (optind < argc) {
		o.name = argv[optind];
		opt_regex(&o.re, o.name, "name");
	}
}

/* args_new - an args record for the file `path` with room for len bytes of text */
static struct args *args_new(const char *path, size_t len)
{
	struct args *a = calloc(1, sizeof(*a) + len + 1);
	const char *base = strrchr(path, '/');

	if (!a)
		msg_die(EXIT_ERR, "out of memory");
	snprintf(a->comm, sizeof(a->comm), "%s", base ? base + 1 : path);
	return a;
}

/* args_add - append one argument, space separated, control bytes made visible */
static size_t args_add(struct args *a, size_t cap, size_t at, const char *s, size_t n)
{
	while (n && s[n - 1] == '\0')
		n--;
	if (at && at + 1 < cap)
		a->text[at++] = ' ';
	return out_vis(a->text, cap, at, s, n);
}

/* args_from_probe - the arguments fetched in the kernel (fields fn, p<i>, a<i>) */
static struct args *args_from_probe(struct tep_event *ev, struct tep_record *rec)
{
	char fn[256], field[8];
	const char *s;
	struct args *a;
	size_t cap = 2 * (size_t)rec->size + 16, at = 0;
	unsigned int i;
	int n;

	decode_str(ev, rec, "fn", fn, sizeof(fn));
	a = args_new(fn, cap);
	for (i = 0; i <= o.argc; i++) {
		snprintf(field, sizeof(field), "p%u", i);
		if (!decode_u64(ev, rec, field))
			break;			/* argv's NULL: all shown */
		if (i == o.argc) {
			a->more = 1;
			break;
		}
		snprintf(field, sizeof(field), "a%u", i);
		n = 0;
		s = tep_get_field_raw(NULL, ev, field, rec, &n, 0);
		at = args_add(a, cap, at, s ? s : "", s && n > 0 ? n : 0);
	}
	return a;
}

/* what args_from_mem builds as the strings come in */
struct argv_read {
	struct args *a;
	size_t cap, at;
};

/* got_arg - one argument read from memory (n bytes, or -1: shown empty) */
static void got_arg(int i, const char *s, int n, void *arg)
{
	struct argv_read *r = arg;

	r->at = args_add(r->a, r->cap, r->at, s, n > 0 ? n : 0);
}

/* args_from_mem - PROC mode: read filename and argv from the caller's memory */
static struct args *args_from_mem(int tid, unsigned long long fnp, unsigned long long argvp)
{
	struct argv_read r = { .cap = 8192 };
	char fn[256] = "";

	proc_mem_str(tid, fnp, fn, sizeof(fn));
	r.a = args_new(fn, r.cap);
	/* -1 (a pointer unreadable before argv's end) leaves the arguments unknown */
	if (proc_mem_strv(tid, argvp, (int)o.argc, got_arg, &r) > (int)o.argc)
		r.a->more = 1;		/* all of -a's and another */
	r.a->text[r.at] = '\0';
	return r.a;
}

/* args_from_cmdline - the first -a arguments of a NUL-separated cmdline */
static struct args *args_from_cmdline(const char *path, const char *cmd, int len)
{
	size_t cap = 2 * (size_t)len + 16, at = 0, k;
	struct args *a = args_new(path, cap);
	int off = 0;
	unsigned int i;

	for (i = 0; off < len; i++) {
		if (i == o.argc) {
			a->more = 1;
			break;
		}
		k = strnlen(cmd + off, len - off);
		at = args_add(a, cap, at, cmd + off, k);
		off += k + 1;
	}
	return a;
}

/* print_line - one exec: [TIME] [TIMEs] [UID] PID PPID [RET] ARGS */
static void print_line(unsigned long long ts, int pid, int ppid, long uid, const char *ret,
		       const struct args *a, const char *path)
{
	char buf[64];

	if (o.hms)
		fprintf(out, "%-8s ", out_hms(ts, buf, sizeof(buf)));
	if (o.times)
		fprintf(out, "%-16s ", out_time(ts, buf, sizeof(buf)));
	if (o.uids) {
		snprintf(buf, sizeof(buf), "%ld", uid);
		fprintf(out, "%6s ", uid < 0 ? "?" : buf);
	}
	fprintf(out, "%6d %6d ", pid, ppid);
	if (o.fails)
		fprintf(out, "%-7s ", ret);
	if (a && a->text[0])
		fprintf(out, "%s%s\n", a->text, a->more ? " [...]" : "");
	else
		fprintf(out, "%s%s[?]\n", path ? path : "", path ? " " : "");
}

/* name_ok - the process name matches the user's regular expression */
static int name_ok(const char *comm)
{
	return !o.name || regexec(&o.re, comm, 0, NULL, 0) == 0;
}

/* on_fork - remember each new task's parent; a new process is not a re-exec */
static void on_fork(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	int child = (int)decode_s64(ev, rec, "child_pid");
	long *uid = aux;

	pidmap_put(parent, child, (void *)(long)decode_s64(ev, rec, "parent_pid"));
	pidmap_take(seen, child);
	if (uid && *uid >= 0)
		pidmap_put(parent_uid, child, (void *)(*uid + 1));
}

/* pre_fork - stream handler: with -U, the parent's UID while it surely lives */
static void pre_fork(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	long *uid = NULL;

	if (o.uids && (uid = malloc(sizeof(*uid))))
		*uid = proc_status((int)decode_s64(ev, rec, "parent_pid"), "Uid");
	reorder_push(ev, rec, on_fork, NULL, uid);
}

/* on_probe - the arguments of an exec call, until its exec or failure */
static void on_probe(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	pidmap_put(pending, decode_pid(ev, rec), args_from_probe(ev, rec));
}

/* on_enter - keep what pre_enter read for the exec's end */
static void on_enter(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	pidmap_put(pending, decode_pid(ev, rec), aux);
	reorder_keep_aux();
}

/* pre_enter - PROC mode with -x: read the caller's arguments before they change */
static void pre_enter(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	struct args *a = args_from_mem(decode_pid(ev, rec), decode_u64(ev, rec, "filename"),
				       decode_u64(ev, rec, "argv"));

	reorder_push(ev, rec, on_enter, NULL, a);
}

/* on_fail - an exec that returned an error (the kernel passes only those) */
static void on_fail(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	int tid = decode_pid(ev, rec), ppid;
	struct args *a = pidmap_take(pending, tid);
	char err[16];
	long uid;

	if (o.fails && name_ok(a ? a->comm : "")) {
		ppid = (int)(long)pidmap_get(parent, tid);
		if (!ppid)
			ppid = (int)proc_status(tid, "PPid");
		uid = o.uids ? proc_status(tid, "Uid") : -1;
		if (o.uids && uid < 0)		/* gone: its parent's, as at fork */
			uid = (long)pidmap_get(parent_uid, tid) - 1;
		print_line(rec->ts, tid, ppid < 0 ? 0 : ppid, uid,
			   decode_errname((int)decode_s64(ev, rec, "ret"), err, sizeof(err)), a,
			   NULL);
	}
	free(a);
}

/* on_exec - a successful exec: print it unless filtered */
static void on_exec(struct tep_event *ev, struct tep_record *rec, void *aux, void *ctx)
{
	int pid = (int)decode_s64(ev, rec, "pid"), ppid;
	struct args *a = pidmap_take(pending, (int)decode_s64(ev, rec, "old_pid"));
	struct pre *p = aux;
	char path[4096];
	long uid;

	decode_str(ev, rec, "filename", path, sizeof(path));
	if (mode == M_PROC) {		/* read at -x's entry event, after the exec: stale */
		free(a);
		a = NULL;
	}
	if (!a && p->n > 0)
		a = args_from_cmdline(path, p->cmd, p->n);
	if (!a)
		a = args_new(path, 0);
	if ((o.rexec || !pidmap_get(seen, pid)) && name_ok(a->comm)) {
		ppid = (int)(long)pidmap_get(parent, pid);
		if (!ppid && p->ppid > 0)
			ppid = (int)p->ppid;
		uid = p->uid >= 0 ? p->uid : (long)pidmap_get(parent_uid, pid) - 1;
		print_line(rec->ts, pid, ppid, uid, "0", a, path);
	}
	pidmap_put(seen, pid, (void *)1);
	free(a);
}

/* read_execs - cmdline, UID and PPID of the execs waiting, while the new
 * programs most likely run. A process that exec'd again (a later exec of it
 * seen so far, on any CPU) runs another program now: its earlier exec gets
 * no arguments (marked) rather than the later program's. */
static void read_execs(void)
{
	struct pre *p;
	int i, again;

	for (i = 0; i < nr_to_read; i++) {
		p = to_read[i];
		again = proc_exec_since(p->pid, p->ts);
		p->n = again ? -1 : proc_cmdline(p->pid, p->cmd, CMDLINE_MAX);
		p->ppid = proc_status(p->pid, "PPid");
		p->uid = o.uids && !again ? proc_status(p->pid, "Uid") : -1;
	}
	nr_to_read = 0;
}

/* pre_exec - queue the exec's /proc reads for the end of the drain */
static void pre_exec(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	struct pre *p = malloc(sizeof(*p) + CMDLINE_MAX);

	if (!p)
		msg_die(EXIT_ERR, "out of memory");
	p->pid = (int)decode_s64(ev, rec, "pid");
	p->ts = rec->ts;
	proc_exec_seen(p->pid, p->ts);
	reorder_push(ev, rec, on_exec, NULL, p);
	to_read[nr_to_read++] = p;
	if (nr_to_read == READ_BATCH)
		read_execs();
}

/* fetchargs - fn, then p<i> (argv[i]) and a<i> (its string) for i in 0..argc */
static char *fetchargs(const char *fn, const char *argv)
{
	size_t len = 64 + (o.argc + 1) * (2 * strlen(argv) + 64);
	char *f = malloc(len);
	size_t at;
	unsigned int i;

	if (!f)
		msg_die(EXIT_ERR, "out of memory");
	at = snprintf(f, len, "fn=+0(%s):ustring", fn);
	for (i = 0; i <= o.argc; i++)
		at += snprintf(f + at, len - at, " p%u=+u%u(%s):x64 a%u=+0(+u%u(%s)):ustring",
			       i, 8 * i, argv, i, 8 * i, argv);
	return f;
}

/* setup_probes - the best way this kernel has to read argv at the call */
static void setup_probes(struct session *s)
{
	char *f = fetchargs("$filename", "$argv");

	if (probe_add_eprobe(s, "execve", "syscalls", "sys_enter_execve", f) == 0) {
		mode = M_EPROBE;
		if (session_event_exists("syscalls", "sys_enter_execveat"))
			probe_add_eprobe(s, "execveat", "syscalls", "sys_enter_execveat", f);
		free(f);
		return;
	}
	free(f);
#ifdef __x86_64__
	/* since 4.17 the syscall functions take pt_regs: di 112, si 104, dx 96 */
	if (probes_available() && probes_readme_has("ustring") &&
	    probes_readme_has("[u]<offset>")) {
		f = fetchargs("+112($arg1)", "+104($arg1)");
		if (probe_add(s, "execve", 0, "__x64_sys_execve", f) == 0) {
			mode = M_KPROBE;
			free(f);
			f = fetchargs("+104($arg1)", "+96($arg1)");
			probe_add(s, "execveat", 0, "__x64_sys_execveat", f);
		}
		free(f);
	}
#endif
}

/* use - SYS:NAME, without our own events, plus `extra`, to pre or fn (reorder_follow) */
static void use(struct session *s, const char *sys, const char *name, const char *extra,
		stream_fn pre, reorder_fn fn)
{
	char *f = filter_build(0, 0, NULL, extra);

	reorder_follow(s, sys, name, f, pre, fn);
	free(f);
}

int main(int argc, char **argv)
{
	const char *formats[9] = { "sched:sched_process_exec", "sched:sched_process_fork",
		"syscalls:sys_enter_execve", "syscalls:sys_enter_execveat",
		"syscalls:sys_exit_execve", "syscalls:sys_exit_execveat" };
	char probe_fmt[2][96];
	char glob[64], comm[96], *name_filter = NULL;
	struct session *s;

	msg_init("execsnoop");
	sig_init();
	parse(argc, argv);
	session_tracefs();
	if (!session_event_exists("sched", "sched_process_exec") ||
	    !session_event_exists("sched", "sched_process_fork"))
		msg_die(EXIT_ERR, "tracepoints sched:sched_process_exec/fork not found");

	s = session_open("execsnoop");
	if (reorder_init(s) < 0 && o.hms)
		msg_die(EXIT_ERR, "-T: the kernel has no \"mono\" trace clock");
	setup_probes(s);
	snprintf(probe_fmt[0], sizeof(probe_fmt[0]), "%s:execve", s->group);
	snprintf(probe_fmt[1], sizeof(probe_fmt[1]), "%s:execveat", s->group);
	formats[6] = mode != M_PROC ? probe_fmt[0] : NULL;
	formats[7] = mode != M_PROC ? probe_fmt[1] : NULL;
	session_load(s, formats);	/* only these: fast even in an emulated guest */
	pending = pidmap_new(free);
	parent = pidmap_new(NULL);
	seen = pidmap_new(NULL);
	parent_uid = pidmap_new(NULL);

	/* in /proc mode every exec is seen, for read_execs to know which ran again */
	if (o.name && mode != M_PROC && opt_regex_glob(o.name, glob, sizeof(glob)) == 0)
		filter_glob(&name_filter, "comm", glob);
	use(s, "sched", "sched_process_fork", NULL, pre_fork, NULL);
	use(s, "sched", "sched_process_exec", name_filter, pre_exec, NULL);
	reorder_before(read_execs);
	free(name_filter);
	if (mode != M_PROC) {
		use(s, s->group, "execve", NULL, NULL, on_probe);
		use(s, s->group, "execveat", NULL, NULL, on_probe);
	} else if (o.fails) {
		use(s, "syscalls", "sys_enter_execve", NULL, pre_enter, NULL);
		use(s, "syscalls", "sys_enter_execveat", NULL, pre_enter, NULL);
	}
	if (mode != M_PROC || o.fails) {
		use(s, "syscalls", "sys_exit_execve", "ret < 0", NULL, on_fail);
		use(s, "syscalls", "sys_exit_execveat", "ret < 0", NULL, on_fail);
	}

	stream_size_buffer(s);	/* before tracing starts: a resize empties the buffer */
	session_start(s);
	/* the degraded mode is said once setup has worked: a failure stays one line */
	if (mode == M_PROC)
		msg_warn("no kprobes or event probes: arguments are read from /proc after "
			 "the exec; [?] marks a process gone by then");
	out_init(o.duration > 0);
	snprintf(comm, sizeof(comm), " issued by process name \"%.60s\"", o.name ? o.name : "");
	if (o.duration > 0)
		printf("Tracing exec()s%s for %g seconds (buffered)...\n", o.name ? comm : "",
		       o.duration);
	else
		printf("Tracing exec()s%s. Ctrl-C to end.\n", o.name ? comm : "");
	if (o.hms)
		printf("%-8s ", "TIME");
	if (o.times)
		printf("%-16s ", "TIMEs");
	if (o.uids)
		printf("%6s ", "UID");
	printf("%6s %6s ", "PID", "PPID");
	if (o.fails)
		printf("%-7s ", "RET");
	printf("ARGS\n");
	fflush(stdout);

	stream_run(s, o.duration, 0, NULL, NULL);

	out_ending();
	stream_report_lost(s);
	return EXIT_OK;
}

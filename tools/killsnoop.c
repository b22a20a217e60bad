/* SPDX-License-Identifier: GPL-2.0-only */
/* killsnoop - trace signals one process sends another: sender, target, signal, result
 *
 * kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo and
 * pidfd_send_signal are traced by their syscall entry and exit tracepoints
 * (those the kernel has), paired per thread in time order: the target and
 * signal from the entry, the result from the exit. pidfd_send_signal names its
 * target by a descriptor: its TPID is the task of the one signal:signal_generate
 * the call made (same task, between entry and exit, not in an interrupt), or
 * ? when that is not exactly one. -a adds the signals generated outside those
 * calls: the kernel's own (faults, SIGPIPE, SIGCHLD, timers, the terminal).
 * -p and -n are applied in the kernel where that cannot hide a call (-a needs
 * every call), and checked again in user space. COMM is the sender's name at
 * the call, from the trace's own records (comm.h). Overhead: four events and
 * a line per signal sent, negligible at the rates signals are sent; with -a or
 * pidfd_send_signal, every signal the system generates is one more event.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls.h"
#include "cgscope.h"
#include "child.h"
#include "comm.h"
#include "decode.h"
#include "filter.h"
#include "format.h"
#include "line.h"
#include "msg.h"
#include "names.h"
#include "options.h"
#include "output.h"
#include "pidmap.h"
#include "reorder.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "who.h"
#include "xalloc.h"

static const char usage_text[] =
"USAGE: killsnoop [-hstaj] [-d secs] [-p PID] [-n name] [--exec CMD]\n"
"                 [--cgroup PATH] [--show-cgroup]\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -n name         # process name to match (the sender)\n"
"                 -p PID          # target PID to match (signals sent to it)\n"
"                 --exec CMD      # run CMD by sh; the signals it and all it\n"
"                                 # starts send\n"
"                 --cgroup PATH   # only senders in this cgroup v2, or below\n"
"                                 # it (-a: targets)\n"
"                 --show-cgroup   # include the sender's cgroup (CGROUP: a\n"
"                                 # container's ID, else the path)\n"
"                 -t              # include time (seconds)\n"
"                 -s              # human readable signal names\n"
"                 -a              # also the signals the kernel sends itself\n"
"                 -j              # JSON Lines, one object per signal (also --json)\n"
"                 -h              # this usage message\n"
"  eg,\n"
"       killsnoop                 # watch kill()s live (unbuffered)\n"
"       killsnoop -d 1            # trace 1 sec (buffered)\n"
"       killsnoop -p 181          # trace kill()s issued to PID 181 only\n"
"       killsnoop -sa             # signal names, and the kernel's own signals\n"
"       killsnoop --cgroup system.slice/docker-4f2a.scope\n"
"                                 # the signals one container sends\n"
"       killsnoop --exec ./stop-all.sh\n"
"                                 # the signals a script sends\n"
"\n";

/* the largest PID a kernel can have (PID_MAX_LIMIT) */
#define PID_LIMIT 4194304
/* the irq context bits of common_flags (TRACE_FLAG_HARDIRQ, _SOFTIRQ, _NMI) */
#define IRQ_FLAGS 0x58

struct opts {
	double duration;
	int pid, times, names, all, show_cg;
	pid_t exec_pid;		/* --exec: the command's process */
	const char *name, *exec, *cgroup;
	regex_t name_re;
};

/* the calls that send a signal: tg, the target is a thread of a group; fd, by pidfd */
enum { K_KILL, K_TKILL, K_TGKILL, K_SIGQ, K_TGSIGQ, K_PIDFD, NCALLS };
static const struct { const char *name; int tg, fd; } calls[NCALLS] = {
	{ "kill", 0, 0 }, { "tkill", 0, 0 }, { "tgkill", 1, 0 },
	{ "rt_sigqueueinfo", 0, 0 }, { "rt_tgsigqueueinfo", 1, 0 },
	{ "pidfd_send_signal", 0, 1 },
};

/* a call in progress, from its entry; what signal_generate saw until its exit */
struct call {
	int kind, pid, tgid, sig;
	int gens, gen_sig, gen_pid;	/* the signals it generated; the first one's */
	char gen_comm[16];
};

/* a row: a call that returned, or (kernel) a signal generated outside any call */
struct row {
	unsigned long long ts;
	int tid, kernel, known;		/* known: tpid is the target's */
	int tpid, sig, code;
	long long ret;
	struct call *call;
	char tcomm[16];			/* the target's name (kernel rows, resolved pidfd) */
	const char *cg;			/* --show-cgroup: the sender's (kernel rows: the target's) */
};

static struct opts o;
static struct session *sess;
static struct tep_event *enter_ev[NCALLS], *exit_ev[NCALLS];
static struct calls *pending;		/* TID -> struct call */
static struct pidmap *settled;		/* -a, after lost events: TIDs seen entering or leaving a call */
static int gapped, mono;
static unsigned long long unnamed;	/* calls by tasks whose name was not seen, under -n */
static unsigned long long unmatched;	/* calls whose unknown target -p could not match */
static unsigned long long unsure;	/* -a: generated after lost events by a task that may have been in a call */
static char yes;			/* what settled holds */

/* parse - options, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = opt_next(argc, argv, "ad:hjn:p:st", opt_scope_show, usage_text)) != -1) {
		switch (c) {
		case 'a': o.all = 1; break;
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'n': o.name = optarg; opt_regex(&o.name_re, optarg, "-n"); break;
		case 'p': o.pid = (int)opt_ulong(optarg, "-p", 1, PID_LIMIT); break;
		case 's': o.names = 1; break;
		case 't': o.times = 1; break;
		case OPT_EXEC: o.exec = optarg; break;
		case OPT_CGROUP: o.cgroup = optarg; break;
		case OPT_SHOW_CGROUP: o.show_cg = 1; break;
		}
	}
	if (optind < argc)
		opt_usage("unexpected argument '%.40s'", argv[optind]);
	opt_apart(o.pid, "-p", o.name != NULL, "-n");
	opt_apart(o.exec != NULL, "--exec", o.cgroup != NULL, "--cgroup");
}

/* arg_int - an int argument of a syscall event: the register's low 32 bits, signed */
static int arg_int(struct tep_event *ev, struct tep_record *rec, const char *field)
{
	return (int)(unsigned int)decode_u64(ev, rec, field);
}

/* kind_of - which call an entry or exit event is (-1: none) */
static int kind_of(struct tep_event *ev, struct tep_event *const *evs)
{
	int i;

	for (i = 0; i < NCALLS; i++)
		if (evs[i] == ev)
			return i;
	return -1;
}

/* settle - -a after lost events: tid is known to be in or out of a call from now on */
static void settle(int tid)
{
	if (gapped)
		pidmap_put(settled, tid, &yes);
}

/* on_enter - a call is made: its target and signal wait for its return */
static void on_enter(const struct stream_rec *sr)
{
	struct tep_event *ev = sr->ev;
	struct tep_record *rec = sr->rec;
	struct call *c = xcalloc(1, sizeof(*c));
	int tid = decode_pid(ev, rec);

	c->kind = kind_of(ev, enter_ev);
	c->sig = arg_int(ev, rec, "sig");
	c->pid = arg_int(ev, rec, calls[c->kind].fd ? "pidfd" : "pid");
	if (calls[c->kind].tg)
		c->tgid = arg_int(ev, rec, "tgid");
	calls_enter(pending, tid, c);
	settle(tid);
}

/* on_return - a call returned: with its entry, it waits for its task's name */
static void on_return(const struct stream_rec *sr)
{
	struct tep_event *ev = sr->ev;
	struct tep_record *rec = sr->rec;
	int tid = decode_pid(ev, rec);
	struct call *c = calls_exit(pending, tid);
	struct row *r;

	settle(tid);
	if (!c || c->kind != kind_of(ev, exit_ev)) {
		/* began before tracing did, or its entry was lost (counted) */
		if (c)
			calls_miss(pending);
		free(c);
		return;
	}
	if (!cgscope_in(tid, rec->ts)) {	/* --cgroup: a sender outside it, or not known */
		free(c);
		return;
	}
	r = xcalloc(1, sizeof(*r));
	r->ts = rec->ts;
	r->tid = tid;
	r->cg = cgscope_cgroup(tid, rec->ts);
	r->ret = decode_s64(ev, rec, "ret");
	r->call = c;
	r->sig = c->sig;
	if (!calls[c->kind].fd) {
		r->tpid = c->pid;
		r->known = 1;
	} else if (r->ret == 0 && c->gens == 1 && c->gen_sig == c->sig) {
		/* the one signal the call generated is the one it sent */
		r->tpid = c->gen_pid;
		r->known = 1;
		memcpy(r->tcomm, c->gen_comm, sizeof(r->tcomm));
	}
	comm_hold(tid, rec->ts, r);
}

/*
 * on_generate - a signal is generated: inside a call of the running task
 * (not in an interrupt) it is that call's; else the kernel sent it (-a)
 */
static void on_generate(const struct stream_rec *sr)
{
	struct tep_event *ev = sr->ev;
	struct tep_record *rec = sr->rec;
	int tid = decode_pid(ev, rec);
	int irq = (decode_u64(ev, rec, "common_flags") & IRQ_FLAGS) != 0;
	struct call *c = irq ? NULL : calls_peek(pending, tid);
	struct row *r;

	if (c) {
		if (c->gens++ == 0) {
			c->gen_sig = (int)decode_s64(ev, rec, "sig");
			c->gen_pid = (int)decode_s64(ev, rec, "pid");
			decode_str(ev, rec, "comm", c->gen_comm, sizeof(c->gen_comm));
		}
		return;
	}
	if (!o.all)
		return;
	r = xcalloc(1, sizeof(*r));
	r->code = (int)decode_s64(ev, rec, "code");
	/* after lost events, a task not seen since may be in a call whose entry
	 * was lost: only an interrupt or a code no call can give is the kernel's */
	if (gapped && !irq && r->code <= 0 && !pidmap_get(settled, tid)) {
		unsure++;
		free(r);
		return;
	}
	r->ts = rec->ts;
	r->kernel = 1;
	r->known = 1;
	r->sig = (int)decode_s64(ev, rec, "sig");
	r->tpid = (int)decode_s64(ev, rec, "pid");
	if (!cgscope_in(r->tpid, rec->ts)) {	/* --cgroup: no sender; the target's */
		free(r);
		return;
	}
	r->cg = cgscope_cgroup(r->tpid, rec->ts);
	decode_str(ev, rec, "comm", r->tcomm, sizeof(r->tcomm));
	comm_hold(0, rec->ts, r);	/* in time order; no sender to name */
}

/* wanted - the row passes -p and -n (comm: the sender's name, NULL: not known) */
static int wanted(const struct row *r, const char *comm)
{
	if (o.pid) {
		if (!r->known) {
			unmatched++;
			return 0;
		}
		if (r->tpid != o.pid &&
		    !(!r->kernel && calls[r->call->kind].tg && r->call->tgid == o.pid))
			return 0;
	}
	if (o.name) {
		if (r->kernel)
			return 0;	/* no sender */
		if (!comm) {
			unnamed++;
			return 0;
		}
		if (regexec(&o.name_re, comm, 0, NULL, 0))
			return 0;
	}
	return 1;
}

/* emit_row - print a row with its sender's name (NULL: not known), unless filtered */
static void emit_row(void *item, const char *comm, void *ctx)
{
	struct row *r = item;
	static struct line line;
	const char *signame = names_signal(r->sig);
	char num[16], err[16];

	(void)ctx;
	if (!wanted(r, comm))
		goto done;
	line_times(&line, r->ts, mono, 0, o.times);
	if (r->kernel) {
		/* the text's COMM is the target's: the kernel has no name */
		if (out_json)
			col_null(&line, "comm", "", ALIGN_LEFT, 16);
		else
			line_str(&line, r->tcomm, ALIGN_LEFT, 16, 16);
		line_add(&line, " ");
		col_null(&line, "pid", "-", ALIGN_LEFT, 6);
	} else {
		if (comm)
			col_str(&line, "comm", comm, ALIGN_LEFT, 16, 16);
		else
			col_null(&line, "comm", "?", ALIGN_LEFT, 16);
		line_add(&line, " ");
		col_dec(&line, "pid", r->tid, ALIGN_LEFT, 6);
	}
	line_add(&line, " ");
	if (r->known)
		col_dec(&line, "tpid", r->tpid, ALIGN_LEFT, 8);
	else
		col_null(&line, "tpid", "?", ALIGN_LEFT, 8);
	line_add(&line, " ");
	snprintf(num, sizeof(num), "%d", r->sig);
	col_num(&line, "signal", r->sig, o.names && signame ? signame : num, ALIGN_LEFT, 10);
	line_add(&line, " ");
	if (r->kernel)
		col_null(&line, "ret", "kernel", ALIGN_LEFT, 4);
	else
		col_num(&line, "ret", r->ret < 0 ? -1 : r->ret, r->ret < 0 ? "-1" : "0", ALIGN_LEFT, 4);
	if (o.show_cg) {
		line_add(&line, " ");
		cgscope_col(&line, r->cg);
	}
	if (out_json) {
		col_str(&line, "signame", signame, ALIGN_LEFT, 0, -1);
		col_str(&line, "error", r->ret < 0 ? names_errno((int)r->ret, err, sizeof(err)) :
			NULL, ALIGN_LEFT, 0, -1);
		col_str(&line, "call", r->kernel ? NULL : calls[r->call->kind].name, ALIGN_LEFT, 0, -1);
		col_bool(&line, "kernel", r->kernel, "");
		col_str(&line, "tcomm", r->tcomm[0] ? r->tcomm : NULL, ALIGN_LEFT, 16, 16);
		if (r->kernel)
			col_dec(&line, "code", r->code, ALIGN_LEFT, 0);
		else
			col_null(&line, "code", "", ALIGN_LEFT, 0);
	}
	line_add(&line, "\n");
	line_put(&line);
done:
	if (r->call)
		free(r->call);
	free(r);
}

/*
 * unsettle - -a, events were lost (reorder_on_gap, in time order; the calls
 * waiting for their exit are forgotten by calls.h): a task's next signal may
 * come from a call whose entry was lost
 */
static void unsettle(int cpu, unsigned long long ts, void *ctx)
{
	(void)cpu, (void)ts, (void)ctx;
	pidmap_clear(settled);
	gapped = 1;
}

/* target_filter - -p's kernel filter of a call's entry (the caller frees; NULL: none).
 * A register's bits above the int the kernel takes could hide a match: such
 * values pass, and user space checks the int */
static char *target_filter(int kind)
{
	char *f = NULL;

	if (!o.pid || o.all || calls[kind].fd)
		return NULL;
	filter_cat(&f, "(pid == %d || pid >= 4294967296", o.pid);
	if (calls[kind].tg)
		filter_cat(&f, " || tgid == %d || tgid >= 4294967296", o.pid);
	filter_cat(&f, ")");
	return f;
}

/* follow - the calls' entries and exits, and signal_generate, filtered, in time order */
static void follow(void)
{
	char name[48], glob[64], *more = NULL, *f, *tf, *fe, gen[32], missing[128] = "";
	int i;

	if (o.all)
		reorder_on_gap(unsettle, NULL);
	/* -n as a glob on the sender's name, unless -a needs every call */
	if (o.name && !o.all && filter_regex_glob(o.name, glob, sizeof(glob)) == 0)
		filter_glob(&more, "comm", glob);
	f = filter_build(0, NULL, more);
	free(more);
	for (i = 0; i < NCALLS; i++) {
		snprintf(name, sizeof(name), "sys_enter_%s", calls[i].name);
		enter_ev[i] = format_event(sess, "syscalls", name);
		snprintf(name, sizeof(name), "sys_exit_%s", calls[i].name);
		exit_ev[i] = format_event(sess, "syscalls", name);
		if (!enter_ev[i] || !exit_ev[i] || !decode_has(enter_ev[i], "sig") ||
		    !decode_has(enter_ev[i], calls[i].fd ? "pidfd" : "pid") ||
		    (calls[i].tg && !decode_has(enter_ev[i], "tgid")) ||
		    !decode_has(exit_ev[i], "ret")) {
			if (i == K_KILL)
				msg_die(EXIT_ERR, "tracepoints syscalls:sys_enter_kill and "
					"sys_exit_kill not found or not as expected "
					"(kernel without CONFIG_FTRACE_SYSCALLS?)");
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
				 "%s%s", missing[0] ? ", " : "", calls[i].name);
			enter_ev[i] = exit_ev[i] = NULL;
			continue;
		}
		tf = target_filter(i);
		fe = NULL;
		filter_cat(&fe, "%s%s%s", f, tf ? " && " : "", tf ? tf : "");
		snprintf(name, sizeof(name), "sys_enter_%s", calls[i].name);
		reorder_follow(sess, "syscalls", name, fe, on_enter, NULL);
		snprintf(name, sizeof(name), "sys_exit_%s", calls[i].name);
		reorder_follow(sess, "syscalls", name, f, on_return, NULL);
		free(tf);
		free(fe);
	}
	free(f);
	if (missing[0])
		msg_warn("not in this kernel, not traced: %s", missing);
	/* the targets of pidfd_send_signal, and -a's signals */
	if (o.all || enter_ev[K_PIDFD]) {
		if (!format_event(sess, "signal", "signal_generate")) {
			if (o.all)
				msg_die(EXIT_ERR, "-a: tracepoint signal:signal_generate not found");
			msg_warn("no signal:signal_generate: pidfd_send_signal's targets show as ?");
			return;
		}
		snprintf(gen, sizeof(gen), "pid == %d", o.pid);
		reorder_follow(sess, "signal", "signal_generate", o.pid ? gen : NULL,
			       on_generate, NULL);
	}
}

/* load_formats - the formats of every event the run may follow */
static void load_formats(void)
{
	const char *formats[COMM_NR_FORMATS + 2 * NCALLS + 1 + CGSCOPE_NR_FORMATS + 1] = {
		COMM_FORMATS
	};
	char fmt[2 * NCALLS][64];
	size_t i, n = COMM_NR_FORMATS;

	for (i = 0; i < NCALLS; i++) {
		snprintf(fmt[2 * i], sizeof(fmt[0]), "syscalls:sys_enter_%s", calls[i].name);
		snprintf(fmt[2 * i + 1], sizeof(fmt[0]), "syscalls:sys_exit_%s", calls[i].name);
		formats[n++] = fmt[2 * i];
		formats[n++] = fmt[2 * i + 1];
	}
	formats[n++] = "signal:signal_generate";
	n = cgscope_formats(formats, n);
	formats[n] = NULL;
	format_load(sess, formats);
}

/* banner - "Tracing kill()s...", then the column header */
static void banner(void)
{
	char ftext[96] = "", cgtext[96] = "";

	if (o.pid)
		snprintf(ftext, sizeof(ftext), " issued to PID %d", o.pid);
	if (o.name)
		snprintf(ftext, sizeof(ftext), " issued by process name \"%.40s\"", o.name);
	if (o.cgroup)
		snprintf(cgtext, sizeof(cgtext), " in cgroup %.80s", o.cgroup);
	out_tracing(o.duration, "kill()s%s%s%s", cgtext, ftext,
		    !o.all ? "" : o.cgroup ? ", and the kernel's signals to tasks in it" :
		    ", and the kernel's signals");
	if (out_json)
		return;
	line_time_headers(0, o.times);
	printf("%-16.16s %-6s %-8s %-10s %4s%s\n", "COMM", "PID", "TPID", "SIGNAL", "RETURN",
	       o.show_cg ? " CGROUP" : "");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	msg_init("killsnoop");
	sig_init();
	parse(argc, argv);
	if (o.cgroup)
		cgscope_open(o.cgroup);
	if (o.show_cg)
		cgscope_show();
	if (o.exec)
		o.exec_pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	if (!session_event_exists("syscalls", "sys_exit_kill"))
		msg_die(EXIT_ERR, "tracepoint syscalls:sys_exit_kill not found "
			"(kernel without CONFIG_FTRACE_SYSCALLS?)");

	sess = session_open("killsnoop");
	mono = reorder_init(sess, cgscope_need());
	load_formats();
	/* with -p in the kernel, the entries of calls to other targets are left
	 * out: their exits come alone, and are not counted */
	pending = calls_new(o.pid && !o.all ? NULL : "calls", free);
	settled = pidmap_new(NULL);

	who_events(sess, o.exec_pid);	/* --exec: what the command and all it starts send */
	comm_follow(sess, emit_row, NULL);
	follow();
	cgscope_follow(sess, 0);	/* --cgroup: its members, from the kernel's events */

	stream_begin(sess, o.duration > 0);
	cgscope_started();
	banner();
	child_go();	/* --exec: the command runs from here */

	stream_run(sess, o.duration, 0, NULL, NULL);

	stream_end(sess);
	calls_report(pending);
	child_report();
	cgscope_report("signals");
	if (unmatched)
		msg_warn("%llu pidfd_send_signal calls whose target was not known were not "
			 "matched against PID %d", unmatched, o.pid);
	if (unnamed)
		msg_warn("%llu calls by tasks whose name was not seen were not matched against "
			 "\"%s\"", unnamed, o.name);
	if (unsure)
		msg_warn("%llu signals generated after lost events not shown: their sender "
			 "(the kernel, or a call whose entry was lost) is not known", unsure);
	return EXIT_OK;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* kprobe - trace a kernel function's entry or return with fetched arguments
 *
 * Defines one kprobe (p:) or kretprobe (r:) from a perf-tools style definition,
 * in a group of its own (ftt_kprobe_PID) so it never collides with anyone else's
 * probes and is always removed, enables it in a private instance with an
 * optional filter on the fetched arguments, and prints each hit in ftrace's text
 * form, decoded from the binary ring buffer (-j: a JSON object, the fetched
 * arguments by name, common/evjson.c). COMM is the task's name at the event,
 * from the records that name tasks (common/comm.c).
 * Overhead: a breakpoint or ftrace hook per call of the function, plus a copy to
 * user space per event that passes the filter; check the rate first with
 * funccount before probing anything called 100k times a second.
 */
#include <errno.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgscope.h"
#include "child.h"
#include "comm.h"
#include "decode.h"
#include "errlog.h"
#include "evjson.h"
#include "evtext.h"
#include "kernel.h"
#include "kstack.h"
#include "filter.h"
#include "format.h"
#include "line.h"
#include "msg.h"
#include "names.h"
#include "options.h"
#include "output.h"
#include "probes.h"
#include "reorder.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "who.h"

static const char usage_text[] =
"USAGE: kprobe [-FhHjsv] [-d secs] [-p PID] [-L TID] kprobe_definition [filter]\n"
"       kprobe [-FhHjs] [-d secs] --exec CMD kprobe_definition [filter]\n"
"       kprobe [-FhHjs] [-d secs] --cgroup PATH kprobe_definition [filter]\n"
"                 -F              # force. trace despite warnings.\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -p PID          # PID to match on events (threads, children)\n"
"                 -L TID          # thread id to match on events\n"
"                 --exec CMD      # run CMD by sh; trace it and all it starts\n"
"                 --cgroup PATH   # only tasks in this cgroup v2, or below it\n"
"                 -v              # view format file (don't trace)\n"
"                 -H              # include column headers\n"
"                 -s              # show kernel stack traces\n"
"                 -j              # JSON Lines, one object per event (also --json)\n"
"                 -h              # this usage message\n"
"\n"
"Note that these examples may need modification to match your kernel\n"
"version's function names and platform's register usage.\n"
"   eg,\n"
"       kprobe p:do_sys_openat2\n"
"                                 # trace open() entry\n"
"       kprobe r:do_sys_openat2\n"
"                                 # trace open() return\n"
"       kprobe 'r:do_sys_openat2 $retval'\n"
"                                 # trace open() return value\n"
"       kprobe 'r:myopen do_sys_openat2 $retval'\n"
"                                 # use a custom probe name\n"
"       kprobe 'p:myopen do_sys_openat2 mode=+8(%dx):u16'\n"
"                                 # trace open() file mode (how->mode)\n"
"       kprobe 'p:myopen do_sys_openat2 filename=+0(%si):ustring'\n"
"                                 # trace open() with filename\n"
"       kprobe 'p:myopen do_sys_openat2 filename=+0($arg2):ustring'\n"
"                                 # the same by argument number\n"
"       kprobe -s 'p:myprobe tcp_retransmit_skb'\n"
"                                 # show kernel stacks\n"
"       kprobe 'p:do_sys_openat2 file=+0(%si):ustring' 'file ~ \"*stat\"'\n"
"                                 # opened files ending in \"stat\"\n"
"       kprobe --exec 'git status' p:vfs_fsync\n"
"                                 # the fsyncs of one command\n"
"\n";

struct opts {
	double duration;
	pid_t pid, tid;
	int force, headers, stacks, view, ret;
	unsigned long maxactive;
	char name[64], func[128], args[1024];
	const char *def, *filter, *exec, *cgroup;
};

static struct opts o;

/* is_argument - does a word look like a fetch argument rather than a function */
static int is_argument(const char *w)
{
	return strpbrk(w, "=%$@+(:\\\"") != NULL || isdigit((unsigned char)*w);
}

/* parse_def - split 'p|r[N]:[[group/]name] func [args]' into our fields */
static void parse_def(void)
{
	char buf[1200], *w[2], *rest, *p;
	const char *d = o.def;
	size_t i;

	opt_no_ctrl(d, "kprobe definition");
	if (strlen(d) >= sizeof(buf))
		opt_usage("kprobe definition too long");
	if ((d[0] != 'p' && d[0] != 'r') || !strchr(d, ':'))
		opt_usage("invalid kprobe definition (should start with p: or r:)");
	o.ret = d[0] == 'r';
	for (p = (char *)d + 1; isdigit((unsigned char)*p); p++)
		;
	if (*p != ':' || (!o.ret && p != d + 1))
		opt_usage("invalid kprobe definition (should start with p:, r: or rN:)");
	if (p != d + 1) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(p - d - 1), d + 1);
		o.maxactive = opt_ulong(buf, "maxactive (rN:)", 1, 4096);
	}
	strcpy(buf, p + 1);
	rest = buf;
	for (i = 0; i < 2; i++) {
		rest += strspn(rest, " ");
		w[i] = *rest ? rest : NULL;
		rest += strcspn(rest, " ");
		if (*rest)
			*rest++ = '\0';
	}
	rest += strspn(rest, " ");
	if (!w[0])
		opt_usage("kprobe definition names no function");
	/* 'p:func args' versus 'p:name func args', as perf-tools decides, and BTF
	 * argument names: a plain second word is an argument when the first is a
	 * traceable function and the second is not */
	if (!w[1] || is_argument(w[1]) || strchr(w[0], '+') ||
	    (!probes_function_exists(w[1]) && probes_function_exists(w[0]))) {
		snprintf(o.func, sizeof(o.func), "%s", w[0]);
		snprintf(o.args, sizeof(o.args), "%s%s%s", w[1] ? w[1] : "",
			 w[1] && *rest ? " " : "", rest);
		/* the event is named for the function: do_sys_open+0x10 -> do_sys_open_0x10 */
		snprintf(o.name, sizeof(o.name), "%.63s", o.func);
		for (p = o.name; *p; p++)
			if (!isalnum((unsigned char)*p))
				*p = '_';
		if (isdigit((unsigned char)o.name[0]))
			o.name[0] = '_';
	} else {
		/* the group is always ours: 'p:grp/name' keeps only the name */
		p = strchr(w[0], '/');
		if (p) {
			*p++ = '\0';
			if (!opt_is_ident(w[0]))
				opt_usage("probe group '%.40s' is not a name (letters, digits, _)",
					  w[0]);
		}
		snprintf(o.name, sizeof(o.name), "%s", p ? p : w[0]);
		snprintf(o.func, sizeof(o.func), "%s", w[1]);
		snprintf(o.args, sizeof(o.args), "%s", rest);
		if (!probe_name_ok(o.name))
			opt_usage("probe name '%.40s' is not a name (letters, digits, _)", o.name);
	}
	for (p = o.func; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.:+", *p))
			opt_usage("'%.60s' is not a kernel function (SYMBOL[+offs] or MOD:SYMBOL)",
				  o.func);
}

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = opt_next(argc, argv, "Fd:hHjp:L:sv", opt_scope, usage_text)) != -1) {
		switch (c) {
		case 'F': o.force = 1; break;
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'H': o.headers = 1; break;
		case 'p': o.pid = opt_pid(optarg, "-p"); break;
		case 'L': o.tid = opt_tid(optarg, "-L"); break;
		case 's': o.stacks = 1; break;
		case 'v': o.view = 1; break;
		case OPT_EXEC: o.exec = optarg; break;
		case OPT_CGROUP: o.cgroup = optarg; break;
		}
	}
	opt_operands(argc, 1, 2, "kprobe definition (p:FUNC or r:FUNC ...)",
		     "quote the definition and the filter");
	opt_apart(o.pid, "-p", o.tid, "-L");
	opt_apart(o.pid, "-p", o.exec != NULL, "--exec");
	opt_apart(o.tid, "-L", o.exec != NULL, "--exec");
	opt_apart(o.pid || o.tid, o.pid ? "-p" : "-L", o.cgroup != NULL, "--cgroup");
	opt_apart(o.exec != NULL, "--exec", o.cgroup != NULL, "--cgroup");
	opt_apart(o.cgroup != NULL, "--cgroup", o.view, "-v");
	opt_apart(o.exec != NULL, "--exec", o.view, "-v");
	opt_apart(o.duration > 0, "-d", o.view, "-v");
	opt_apart(out_json, "-j", o.view, "-v");
	o.def = argv[optind];
	parse_def();
	if (optind + 1 < argc) {
		o.filter = argv[optind + 1];
		opt_no_ctrl(o.filter, "filter");
	}
}

static struct session *sess;
static struct tep_event *stack_ev;	/* -s: ftrace:kernel_stack */
static int mono;	/* -j: the records' timestamps on the mono clock */

/* on_event - comm-pid [cpu] flags time: name: (where) fields, as ftrace prints,
 * with the task's name at the event (NULL: not known) */
static void on_event(const struct stream_rec *r)
{
	struct tep_event *ev = r->ev;
	struct tep_record *rec = r->rec;
	const char *comm = r->comm;
	static struct trace_seq seq;
	static struct line line;
	char where[300], a[256], b[256];
	const char *at, *info;

	if (out_json) {		/* the probe's address as a symbol, its arguments by name */
		evjson_line(sess, ev, rec, mono, o.name, EVJSON_PROBE, comm);
		return;
	}
	if (stack_ev && ev->id == stack_ev->id) {
		evtext_line(sess, ev, rec, comm);
		return;
	}
	if (!seq.buffer)
		trace_seq_init(&seq);
	trace_seq_reset(&seq);
	evtext_head(&line, ev, rec, comm);
	tep_print_event(sess->tep, &seq, rec, " %s: %s", TEP_PRINT_NAME, TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	/* the probe's address prints as hex: name it as the kernel does */
	if (decode_has(ev, "__probe_ip"))
		snprintf(where, sizeof(where), "(%s)", names_ksym(sess,
			 decode_u64(ev, rec, "__probe_ip"), a, sizeof(a)));
	else
		snprintf(where, sizeof(where), "(%s <- %s)", names_ksym(sess,
			 decode_u64(ev, rec, "__probe_ret_ip"), a, sizeof(a)), names_ksym(sess,
			 decode_u64(ev, rec, "__probe_func"), b, sizeof(b)));
	at = strstr(seq.buffer, ": (");
	info = at ? strchr(at, ')') : NULL;
	if (info) {
		line_addn(&line, seq.buffer, at + 2 - seq.buffer);
		line_add(&line, where);
		line_add(&line, info + 1);
	} else {
		line_add(&line, seq.buffer);
	}
	line_add(&line, "\n");
	line_put(&line);
}

/* check - the kernel has kprobes, the function is safe, the syntax is known */
static void check(void)
{
	char sym[128], args[1024], *p, *w, *save = NULL;

	if (!kernel_has(KF_KPROBES))
		msg_die(EXIT_ERR, "this kernel does not allow kprobes: no kprobe_events in tracefs "
			"(CONFIG_KPROBE_EVENTS off)");
	p = strchr(o.func, ':');
	snprintf(sym, sizeof(sym), "%s", p ? p + 1 : o.func);
	sym[strcspn(sym, "+")] = '\0';
	if (!o.force && !probes_function_exists(sym))
		msg_die(EXIT_ERR, "function %s is not in available_filter_functions: it does not "
			"exist or may be unsafe to probe (-F to force)", sym);
	if (strstr(o.args, "$arg") && !kernel_has(KF_ARGN))
		msg_die(EXIT_ERR, "this kernel does not know $argN in probe arguments "
			"(tracing README); use registers, e.g. %%di, %%si on x86-64");
	/* a fetcharg starting with a letter is a BTF argument name (6.6+) */
	snprintf(args, sizeof(args), "%s", o.args);
	for (w = strtok_r(args, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		p = strchr(w, '=') ? strchr(w, '=') + 1 : w;
		if ((isalpha((unsigned char)*p) || *p == '_') && !kernel_has(KF_ARGNAME))
			msg_die(EXIT_ERR, "this kernel does not know BTF argument names (%.40s) in "
				"probe arguments (Linux 6.6+); use $argN or registers", p);
	}
}

int main(int argc, char **argv)
{
	const char *systems[10] = { NULL, COMM_FORMATS, NULL, NULL };
	struct tep_event *evs[3] = { NULL, NULL, NULL };
	int rc;

	msg_init("kprobe");
	sig_init();
	parse(argc, argv);
	if (o.cgroup)
		cgscope_open(o.cgroup);
	if (o.exec)
		o.pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	check();

	sess = session_open("kprobe");
	if (o.ret)
		rc = probe_add_ret(sess, o.name, o.func, *o.args ? o.args : NULL, o.maxactive);
	else
		rc = probe_add(sess, o.name, 0, o.func, *o.args ? o.args : NULL);
	if (rc < 0) {
		int err = errno;

		errlog_warn(NULL, "kernel refused kprobe '%.100s'", o.def);
		/* a definition the kernel cannot parse (EINVAL) is a usage error; a
		 * function it cannot probe (ENOENT, EBUSY) is a runtime one */
		exit(err == EINVAL ? EXIT_USAGE : EXIT_ERR);
	}
	if (o.view) {
		char *fmt = tracefs_event_file_read(NULL, sess->group, o.name, "format", NULL);

		if (!fmt)
			msg_die(EXIT_ERR, "cannot read the format of %s:", o.name);
		fputs(fmt, stdout);
		free(fmt);
		return EXIT_OK;
	}
	systems[0] = sess->group;
	systems[1 + COMM_NR_FORMATS] = o.stacks ? "ftrace:kernel_stack" : NULL;
	systems[cgscope_formats(systems, 1 + COMM_NR_FORMATS + o.stacks)] = NULL;
	format_load(sess, systems);
	if (!(evs[0] = stream_follow(sess, sess->group, o.name, NULL, comm_row, NULL)))
		msg_die(EXIT_ERR, "cannot parse the format of kprobe %s", o.name);
	session_user_filter(sess, sess->group, o.name, o.tid, o.filter);
	who_events(sess, o.pid);	/* -p: its threads, and those it starts */
	if (o.stacks && !(stack_ev = kstack_enable(sess)))
		msg_die(EXIT_ERR, "kernel stack traces (-s) are not available on this kernel");
	evs[1] = stack_ev;
	/* names follow the task's renames in time order: one clock for all CPUs */
	mono = reorder_init(sess, cgscope_need()) == 1;
	comm_rows(sess, evs, 0, on_event, NULL);
	cgscope_follow(sess, 0);	/* --cgroup: its members (comm_rows asks it of each row) */
	/* sizes the buffer before the banner: resizing takes a while, the banner means ready */
	stream_begin(sess, o.duration > 0);
	cgscope_started();
	out_tracing(o.duration, "kprobe %s%s%.80s", o.name, o.cgroup ? " in cgroup " : "",
		    o.cgroup ? o.cgroup : "");
	if (o.headers && !out_json) {
		char what[200];

		snprintf(what, sizeof(what), "kprobe %s", o.name);
		evtext_header(stdout, "nop", what);
	}
	fflush(stdout);

	child_go();	/* --exec: the command runs from here */

	stream_run(sess, o.duration, 0, NULL, NULL);

	stream_end(sess);
	child_report();
	cgscope_report("events");
	return EXIT_OK;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* uprobe - trace a user-level function's entry or return with fetched arguments
 *
 * Defines a uprobe (p:) or return uprobe (r:) from a perf-tools style
 * definition, TARGET:SYMBOL or TARGET:0xADDR, in a group of its own
 * (ftt_uprobe_PID_START) so it never collides with anyone else's probes and is
 * always removed; enables it in a private instance with an optional filter on
 * the fetched arguments, and prints each hit in ftrace's text form, decoded
 * from the binary ring buffer (-j: a JSON object, the fetched arguments by
 * name). The file offset comes from the ELF file itself (common/elfsym.c):
 * .symtab, then .dynsym. TARGET "libc" is every C library running processes
 * map (common/libcs.c), one probe each. The file is opened once and the
 * kernel is given that open file (/proc/self/fd/N), never the name again.
 * Overhead: a breakpoint trap in every process that maps the file, per call
 * of the function, filtered or not; check the rate first.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgscope.h"
#include "child.h"
#include "comm.h"
#include "decode.h"
#include "elfsym.h"
#include "errlog.h"
#include "evjson.h"
#include "evtext.h"
#include "format.h"
#include "kernel.h"
#include "kstack.h"
#include "libcs.h"
#include "line.h"
#include "msg.h"
#include "options.h"
#include "output.h"
#include "probes.h"
#include "reorder.h"
#include "session.h"
#include "signals.h"
#include "stream.h"
#include "who.h"
#include "xalloc.h"

static const char usage_text[] =
"USAGE: uprobe [-FhHjsv] [-d secs] [-p PID] [-L TID] uprobe_definition [filter]\n"
"       uprobe [-FhHjs] [-d secs] --exec CMD uprobe_definition [filter]\n"
"       uprobe [-FhHjs] [-d secs] --cgroup PATH uprobe_definition [filter]\n"
"       uprobe -l target\n"
"                 -F              # force: probe a file a non-root user could have written\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -p PID          # PID to match on events (threads, children)\n"
"                 -L TID          # thread id to match on events\n"
"                 --exec CMD      # run CMD by sh; trace it and all it starts\n"
"                 --cgroup PATH   # only tasks in this cgroup v2, or below it\n"
"                 -v              # view format file (don't trace)\n"
"                 -H              # include column headers\n"
"                 -l target       # list functions from this executable or library\n"
"                 -s              # show user stack traces\n"
"                 -j              # JSON Lines, one object per event (also --json)\n"
"                 -h              # this usage message\n"
"\n"
"Registers are this architecture's: x86_64 arguments %di %si %dx %cx %r8 %r9,\n"
"return value %ax (or $retval); arm64 %x0..%x7.\n"
"   eg,\n"
"       uprobe p:bash:readline    # trace readline() calls in all running \"bash\"\n"
"       uprobe r:bash:readline    # trace readline() returns\n"
"       uprobe 'r:bash:readline +0($retval):string'\n"
"                                 # trace readline() with the string it returns\n"
"       uprobe p:libc:sleep       # trace sleep() in every running C library\n"
"       uprobe 'p:libc:sleep %di' # trace sleep() with its argument\n"
"       uprobe 'r:libc:fopen file=$retval' 'file == 0'\n"
"                                 # the fopen calls that failed\n"
"       uprobe 'p:mysleep:libc:sleep secs=%di:u32'\n"
"                                 # a probe name of one's own, a named argument\n"
"       uprobe p:/usr/bin/gzip:0x4080\n"
"                                 # an instruction by its address in the file\n"
"       uprobe -p 1182 p:libc:malloc\n"
"                                 # malloc() calls of PID 1182 only\n"
"       uprobe --exec 'make' p:libc:malloc\n"
"                                 # the malloc() calls of a build\n"
"       uprobe -l bash            # the functions bash has\n"
"\n";

#define MAX_FILES 16	/* "libc": distinct C libraries probed at most */

struct opts {
	double duration;
	pid_t pid, tid;
	int force, headers, stacks, view, ret, is_addr;
	unsigned long long addr;
	char name[64], target[1024], sym[256], args[1024];
	const char *def, *filter, *exec, *cgroup, *list;
};

static struct opts o;

/* the files probed: each open, named to the kernel by its descriptor */
static struct file {
	int fd;
	char *path;			/* as found, for messages and the banner */
	unsigned long long off;
	char ev[64];			/* its event in the run's group */
} files[MAX_FILES];
static int nfiles;

/* is_argument - does the word at w (n bytes) look like a fetch argument
 * rather than TARGET:SYMBOL */
static int is_argument(const char *w, size_t n)
{
	return strcspn(w, "=%$@+(\\\"") < n || strcspn(w, ":") >= n;
}

/* parse_def - 'p|r:[alias:]TARGET:SYMBOL [args]' or 'p|r:alias TARGET:SYMBOL [args]' */
static void parse_def(void)
{
	char buf[1400], *w0, *w1, *rest, *c, *spec, *alias = NULL;

	opt_no_ctrl(o.def, "uprobe definition");
	if (strlen(o.def) >= 1200)
		opt_usage("uprobe definition too long");
	if ((o.def[0] != 'p' && o.def[0] != 'r') || o.def[1] != ':')
		opt_usage("invalid uprobe definition (should start with p: or r:)");
	o.ret = o.def[0] == 'r';
	strcpy(buf, o.def + 2);
	w0 = buf + strspn(buf, " ");
	rest = w0 + strcspn(w0, " ");
	if (*rest)
		*rest++ = '\0';
	w1 = rest + strspn(rest, " ");
	spec = w0;
	if (*w1 && !strchr(w0, ':') && !is_argument(w1, strcspn(w1, " "))) {	/* 'p:alias TARGET:SYM' */
		alias = w0;
		spec = w1;
		rest = w1 + strcspn(w1, " ");
		if (*rest)
			*rest++ = '\0';
	}
	snprintf(o.args, sizeof(o.args), "%s", rest + strspn(rest, " "));
	if (!(c = strrchr(spec, ':')))
		opt_usage("invalid uprobe definition (TARGET:SYMBOL or TARGET:0xADDR)");
	*c++ = '\0';
	if (!alias && strchr(spec, ':')) {	/* 'p:alias:TARGET:SYM' */
		alias = spec;
		*strchr(spec, ':') = '\0';
		spec += strlen(spec) + 1;
	}
	if (!*spec || !*c)
		opt_usage("invalid uprobe definition (TARGET:SYMBOL or TARGET:0xADDR)");
	snprintf(o.target, sizeof(o.target), "%s", spec);
	snprintf(o.sym, sizeof(o.sym), "%s", c);
	if (!strncmp(c, "0x", 2)) {
		char *e;

		errno = 0;
		o.addr = strtoull(c, &e, 16);
		if (errno || *e || !c[2] || !isxdigit((unsigned char)c[2]))
			opt_usage("'%.60s' is not an address (0xHEX)", c);
		o.is_addr = 1;
		snprintf(o.name, sizeof(o.name), "SEG_0x%llx", o.addr);
	} else {
		for (; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr("_.$@", *c))
				opt_usage("'%.60s' is not a symbol name", o.sym);
		snprintf(o.name, sizeof(o.name), "%.60s", o.sym);
		for (c = o.name; *c; c++)
			if (!isalnum((unsigned char)*c))
				*c = '_';
		if (isdigit((unsigned char)o.name[0]))
			o.name[0] = '_';
	}
	if (alias) {
		if (strlen(alias) > 56 || !probe_name_ok(alias))
			opt_usage("probe name '%.40s' is not a name (letters, digits, _)", alias);
		snprintf(o.name, sizeof(o.name), "%s", alias);
	}
	o.name[56] = '\0';	/* room for "_N" per C library */
	if (strstr(o.args, "$arg"))
		opt_usage("uprobes take no $argN (the kernel has them for kernel functions only); "
			  "use registers: %%di %%si %%dx %%cx %%r8 %%r9 on x86_64, %%x0..%%x7 on arm64");
}

/* parse - options and arguments, strictly; exits on any problem */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = opt_next(argc, argv, "Fd:hHjl:p:L:sv", opt_scope, usage_text)) != -1) {
		switch (c) {
		case 'F': o.force = 1; break;
		case 'd': o.duration = opt_seconds(optarg, "-d"); break;
		case 'H': o.headers = 1; break;
		case 'l': o.list = optarg; break;
		case 'p': o.pid = opt_pid(optarg, "-p"); break;
		case 'L': o.tid = opt_tid(optarg, "-L"); break;
		case 's': o.stacks = 1; break;
		case 'v': o.view = 1; break;
		case OPT_EXEC: o.exec = optarg; break;
		case OPT_CGROUP: o.cgroup = optarg; break;
		}
	}
	opt_apart(o.exec != NULL, "--exec", o.list != NULL, "-l");
	if (o.list) {
		opt_no_ctrl(o.list, "-l target");
		opt_operands(argc, 0, 0, "", "-l takes no definition");
		return;
	}
	opt_operands(argc, 1, 2, "uprobe definition (p:TARGET:SYMBOL or r:TARGET:SYMBOL ...)",
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

/* find_file - TARGET opened: a path as given, else a name found in PATH */
static int find_file(const char *t, char *path, size_t len)
{
	char *f = NULL;

	if (!strchr(t, '/') && !(f = child_find(t))) {
		snprintf(path, len, "%s", t);
		return -1;	/* errno: why child_find found none */
	}
	snprintf(path, len, "%s", f ? f : t);
	free(f);
	return open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
}

/* open_target - o.target (or -l's) open; if check, one only root could have written */
static int open_target(const char *t, char *path, size_t len, int check)
{
	char why[300];
	const char *bad;
	int fd = find_file(t, path, len);

	if (fd < 0)
		msg_die(EXIT_ERR, "cannot open %.200s: %s%s", path, strerror(errno),
			strchr(t, '/') ? "" : " (not in PATH)");
	if (check && (bad = libcs_file_unsafe(fd, why, sizeof(why)))) {
		if (!o.force)
			msg_die(EXIT_ERR, "%.200s could have been written by a user other than root "
				"(%s): refused, -F to probe it anyway", path, bad);
		msg_warn("%.200s could have been written by a user other than root (%s)", path, bad);
	}
	return fd;
}

/* resolve - the offset of the symbol or address in the ELF file fd; 0 or -1, said */
static int resolve(int fd, const char *path, unsigned long long *off, int quiet)
{
	int r = o.is_addr ? elfsym_addr(fd, o.addr, off) : elfsym_func(fd, o.sym, off);

	if (r == 0 || quiet)
		return r;
	if (errno == ENOEXEC)
		msg_die(EXIT_ERR, "%.200s is not a 64-bit little-endian ELF executable or library",
			path);
	if (o.is_addr)
		msg_die(EXIT_ERR, "address 0x%llx is in no executable segment of %.200s", o.addr,
			path);
	if (errno == ENOTUNIQ)
		msg_die(EXIT_ERR, "%.200s has several functions named %s; give the address "
			"(TARGET:0xADDR)", path, o.sym);
	msg_die(EXIT_ERR, "no function %s in %.200s (uprobe -l lists them)", o.sym, path);
	return -1;
}

/* add_lib - libcs_each's callback: a C library, kept if it has the function
 * (else counted in *ctx) */
static void add_lib(int fd, const char *name, int k, void *ctx)
{
	struct file *f = &files[nfiles];

	(void)k;
	if (nfiles == MAX_FILES || resolve(fd, name, &f->off, 1) < 0) {
		(*(int *)ctx)++;
		close(fd);
		return;
	}
	f->fd = fd;
	f->path = xstrdup(name);
	nfiles++;
}

/* left_lib - libcs_each's callback: a library it did not hand over, and why */
static void left_lib(const char *name, int pid, const char *why, void *ctx)
{
	(void)ctx;
	msg_warn("left out the C library %.200s mapped by PID %d (%s)", name, pid, why);
}

/* targets - every file to probe opened, its offset found: nothing in tracefs yet */
static void targets(void)
{
	char path[1100];
	int lacking = 0;

	if (!strcmp(o.target, "libc")) {
		if (o.is_addr)
			msg_die(EXIT_USAGE, "libc takes a function name, not an address");
		if (libcs_each(MAX_FILES, add_lib, left_lib, &lacking) < 0)
			msg_die(EXIT_ERR, "cannot read /proc");
		if (!nfiles)
			msg_die(EXIT_ERR, "no C library that running processes map has a function %s",
				o.sym);
		if (lacking)
			msg_warn("%d of the C libraries have no function %s: not probed", lacking,
				 o.sym);
		return;
	}
	files[0].fd = open_target(o.target, path, sizeof(path), 1);
	files[0].path = xstrdup(path);
	resolve(files[0].fd, path, &files[0].off, 0);
	nfiles = 1;
}

/* list_one - elfsym_each's callback: one name into the list */
static char **names;
static size_t nnames, cap;
static void list_one(const char *name, unsigned long long vaddr, void *ctx)
{
	(void)vaddr;
	(void)ctx;
	if (nnames == cap) {
		cap = cap ? 2 * cap : 256;
		names = xreallocarray(names, cap, sizeof(*names));
	}
	names[nnames++] = xstrdup(name);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* list - -l: the file's function names, sorted, once each; nothing traced
 * (reading a file is safe whoever could write it: no ownership check) */
static int list(void)
{
	char path[1100];
	int fd = open_target(o.list, path, sizeof(path), 0);
	size_t i;

	if (elfsym_each(fd, list_one, NULL) < 0)
		msg_die(EXIT_ERR, "%.200s is not a 64-bit little-endian ELF executable or library",
			path);
	qsort(names, nnames, sizeof(*names), by_name);
	for (i = 0; i < nnames; i++)
		if (!i || strcmp(names[i], names[i - 1]))
		{
			out_text(stdout, names[i], strlen(names[i]));	/* the file's: escaped */
			out_text(stdout, "\n", 1);
		}
	return EXIT_OK;
}

static struct session *sess;
static struct tep_event *stack_ev;	/* -s: ftrace:user_stack */
static int mono;	/* -j: the records' timestamps on the mono clock */

/*
 * -s: the kernel writes a user stack after every event of the instance, the
 * ones that name tasks too. A probe's own comes next on its CPU: a stack is
 * shown only if a probe's event came before it there, with no stack and no
 * lost events in between.
 */
static unsigned char *waits;	/* per CPU: a probe's event waits for its stack */
static int nwaits;

/* wait_set - cpu's probe event now waits for its stack (on 1) or not (0) */
static void wait_set(int cpu, int on)
{
	if (cpu < 0)
		return;
	if (cpu >= nwaits) {
		waits = xreallocarray(waits, cpu + 1, 1);
		memset(waits + nwaits, 0, cpu + 1 - nwaits);
		nwaits = cpu + 1;
	}
	waits[cpu] = on;
}

/* on_gap - events were lost on cpu: the stack waited for there may be among them */
static void on_gap(int cpu, unsigned long long ts, void *ctx)
{
	(void)ts;
	(void)ctx;
	wait_set(cpu, 0);
}

/* on_event - comm-pid [cpu] flags time: name: (where) fields, as ftrace prints,
 * with the task's name at the event (NULL: not known); -s: its stack */
static void on_event(const struct stream_rec *r)
{
	struct tep_event *ev = r->ev;
	struct tep_record *rec = r->rec;
	static struct trace_seq seq;
	static struct line line;
	char where[120];
	const char *info;
	int stack = stack_ev && ev->id == stack_ev->id;

	if (stack) {
		if (r->cpu >= nwaits || !waits[r->cpu])
			return;		/* the stack of an event that names tasks */
		wait_set(r->cpu, 0);
	} else if (stack_ev) {
		wait_set(r->cpu, 1);
	}
	if (out_json) {
		evjson_line(sess, ev, rec, mono, stack ? NULL : o.name, EVJSON_UPROBE, r->comm);
		return;
	}
	if (stack) {
		evtext_line(sess, ev, rec, r->comm);
		return;
	}
	if (!seq.buffer)
		trace_seq_init(&seq);
	trace_seq_reset(&seq);
	evtext_head(&line, ev, rec, r->comm);
	tep_print_event(sess->tep, &seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	/* the addresses by field name; the fetched arguments as the kernel prints them */
	if (decode_has(ev, "__probe_ip"))
		snprintf(where, sizeof(where), " %s: (0x%llx)", o.name,
			 decode_u64(ev, rec, "__probe_ip"));
	else
		snprintf(where, sizeof(where), " %s: (0x%llx <- 0x%llx)", o.name,
			 decode_u64(ev, rec, "__probe_ret_ip"), decode_u64(ev, rec, "__probe_func"));
	line_add(&line, where);
	info = strchr(seq.buffer, ')');
	line_add(&line, info ? info + 1 : "");
	line_add(&line, "\n");
	line_put(&line);
}

/* make_probes - one probe per file, named to the kernel by its descriptor */
static void make_probes(void)
{
	char path[40];
	int i, rc;

	for (i = 0; i < nfiles; i++) {
		struct file *f = &files[i];

		snprintf(f->ev, sizeof(f->ev), i ? "%s_%d" : "%s", o.name, i);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", f->fd);
		rc = (o.ret ? probe_add_uretprobe : probe_add_uprobe)(sess, f->ev, path, f->off,
								      *o.args ? o.args : NULL);
		if (rc < 0) {
			int err = errno;

			errlog_warn(NULL, "kernel refused uprobe '%.100s' (%.200s:0x%llx)", o.def,
				    f->path, f->off);
			exit(err == EINVAL ? EXIT_USAGE : EXIT_ERR);
		}
	}
}

int main(int argc, char **argv)
{
	const char *systems[4 + COMM_NR_FORMATS + CGSCOPE_NR_FORMATS] = { NULL, COMM_FORMATS };
	struct tep_event *evs[MAX_FILES + 2] = { NULL };
	int i;

	msg_init("uprobe");
	sig_init();
	parse(argc, argv);
	if (o.list)
		return list();
	if (o.cgroup)
		cgscope_open(o.cgroup);
	if (o.exec)
		o.pid = child_shell(o.exec);	/* held until tracing is on */
	session_tracefs();
	if (!kernel_has(KF_UPROBES))
		msg_die(EXIT_ERR, "this kernel does not allow uprobes: no uprobe_events in tracefs "
			"(CONFIG_UPROBE_EVENTS off)");
	targets();

	sess = session_open("uprobe");
	make_probes();
	if (o.view) {
		char *fmt = tracefs_event_file_read(NULL, sess->group, files[0].ev, "format", NULL);

		if (!fmt)
			msg_die(EXIT_ERR, "cannot read the format of %s:", files[0].ev);
		fputs(fmt, stdout);
		free(fmt);
		return EXIT_OK;
	}
	systems[0] = sess->group;
	systems[1 + COMM_NR_FORMATS] = o.stacks ? "ftrace:user_stack" : NULL;
	systems[cgscope_formats(systems, 1 + COMM_NR_FORMATS + o.stacks)] = NULL;
	format_load(sess, systems);
	for (i = 0; i < nfiles; i++) {
		if (!(evs[i] = stream_follow(sess, sess->group, files[i].ev, NULL, comm_row, NULL)))
			msg_die(EXIT_ERR, "cannot parse the format of uprobe %s", files[i].ev);
		session_user_filter(sess, sess->group, files[i].ev, o.tid, o.filter);
	}
	who_events(sess, o.pid);	/* -p: its threads, and those it starts */
	if (o.stacks && !(stack_ev = kstack_enable_user(sess)))
		msg_die(EXIT_ERR, "user stack traces (-s) are not available on this kernel");
	evs[nfiles] = stack_ev;
	/* names follow the task's renames in time order: one clock for all CPUs */
	mono = reorder_init(sess, cgscope_need()) == 1;
	if (stack_ev)
		reorder_on_gap(on_gap, NULL);
	comm_rows(sess, evs, 0, on_event, NULL);
	cgscope_follow(sess, 0);	/* --cgroup: its members (comm_rows asks it of each row) */
	stream_begin(sess, o.duration > 0);
	cgscope_started();
	if (o.duration > 0) {
		out_tracing(o.duration, "uprobe %s%s%.80s", o.name, o.cgroup ? " in cgroup " : "",
			    o.cgroup ? o.cgroup : "");
	} else {	/* what is probed: each file as found, and the offset */
		char what[4096];
		size_t n = 0;

		for (i = 0; i < nfiles && n < sizeof(what); i++)
			n += snprintf(what + n, sizeof(what) - n, "%s%c:%s %s:0x%llx%s%s",
				      i ? ", " : "", o.ret ? 'r' : 'p', files[i].ev, files[i].path,
				      files[i].off, *o.args ? " " : "", o.args);
		out_tracing(0, "uprobe %s (%s)%s%.80s", o.name, what, o.cgroup ? " in cgroup " : "",
			    o.cgroup ? o.cgroup : "");
	}
	if (o.headers && !out_json) {
		char what[200];

		snprintf(what, sizeof(what), "uprobe %s", o.name);
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

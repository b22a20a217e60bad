/* SPDX-License-Identifier: GPL-2.0-only */
/* test_errlog - errlog_warn's one line: the kernel's reason taken from an
 * error_log (kernel_reason), read from a directory that stands in for tracefs */
#include <tracefs.h>

#include "errlog.h"
#include "msg.h"
#include "unit.h"

static char dir[128];

/* a failed write as the child reports it: its errno, the instance it was in */
struct call {
	int err;
	struct tracefs_instance *inst;
};

/* say - in the child: report the failed write with errlog_warn */
static void say(const void *arg)
{
	const struct call *c = arg;

	errno = c->err;
	errlog_warn(c->inst, "cannot add the probe '%s'", "p:x vfs_read");
}

/* log_put - the error_log REL holds TEXT (NULL: there is no such file) */
static void log_put(const char *rel, const char *text)
{
	char path[256];

	if (text) {
		unit_put(dir, rel, text);
	} else {
		snprintf(path, sizeof(path), "%s/%s", dir, rel);
		unlink(path);
	}
}

/* says - with the error_logs given, errlog_warn prints "unit: ...: WANT" */
static void says(const char *what, struct tracefs_instance *in, int err, const char *want)
{
	struct call c = { err, in };
	char got[1024], line[1024];
	int rc = unit_exit_status(say, &c, got, sizeof(got));

	snprintf(line, sizeof(line), "unit: cannot add the probe 'p:x vfs_read': %s\n", want);
	CHECK(what, rc == 0 && !strcmp(got, line));
	if (rc != 0 || strcmp(got, line))
		printf("     got (exit %d): '%s'\n     wanted: '%s'\n", rc, got, line);
}

/* reason_is - the top-level error_log holds LOG: errlog_warn's line ends in WANT */
static void reason_is(const char *what, const char *log, int err, const char *want)
{
	log_put("error_log", log);
	says(what, NULL, err, want);
}

int main(void)
{
	char long_log[600], long_reason[300];
	struct tracefs_instance *inst;

	msg_init("unit");
	unit_tmpdir(dir, sizeof(dir), "errlog");
	if (tracefs_set_tracing_dir(dir) < 0) {
		printf("FAIL errlog: tracefs_set_tracing_dir %s\n", dir);
		return 1;
	}

	/* entries as the kernel writes them: "[ts] where: error: Reason", the command, a caret */
	reason_is("a kprobe's reason",
		  "[  197.473047] trace_kprobe: error: Invalid fetch argument\n"
		  "  Command: p:ftt_kprobe_4242/x do_sys_openat2 x=%nosuchreg\n"
		  "                                                 ^\n",
		  EINVAL, "Invalid fetch argument");
	reason_is("a hist trigger's reason",
		  "[ 8369.145034] hist:block:block_rq_issue: error: Couldn't find field\n"
		  "  Command: hist:keys=devv\n"
		  "                     ^\n",
		  EINVAL, "Couldn't find field");
	reason_is("a filter's reason: the last 'error: ' of the line",
		  "[ 5984.139520] event filter parse error: error: Field not found\n"
		  "  Command: common_pidd == 1\n"
		  "           ^\n",
		  EINVAL, "Field not found");
	reason_is("the newest of several entries",
		  "[  100.000001] trace_kprobe: error: Invalid fetch argument\n"
		  "  Command: p:a/b vfs_read x=%nosuchreg\n"
		  "                          ^\n"
		  "[  101.000002] synthetic_events: error: Illegal name\n"
		  "  Command: 9lat u64 lat\n"
		  "           ^\n",
		  EINVAL, "Illegal name");
	reason_is("an 'error: ' in the command is not the reason",
		  "[  102.000003] trace_kprobe: error: Group name is not specified\n"
		  "  Command: p:error: x\n"
		  "             ^\n",
		  EINVAL, "Group name is not specified");
	reason_is("a line without a newline after it",
		  "[  103.000004] trace_kprobe: error: Maxactive is not for kprobe",
		  EINVAL, "Maxactive is not for kprobe");

	/* no reason there: the errno text, EINVAL's if errno is 0 */
	reason_is("no 'error: ' in the entry: errno's text",
		  "[  104.000005] trace_kprobe: Invalid fetch argument\n"
		  "  Command: p:x vfs_read\n"
		  "           ^\n",
		  EACCES, strerror(EACCES));
	reason_is("an empty reason: errno's text",
		  "[  105.000006] trace_kprobe: error: \n"
		  "  Command: p:x vfs_read\n"
		  "           ^\n",
		  ENOENT, strerror(ENOENT));
	reason_is("an empty error_log: errno's text", "", EPERM, strerror(EPERM));
	reason_is("no error_log (an old kernel): errno's text", NULL, EBUSY, strerror(EBUSY));
	reason_is("no error_log and errno 0: EINVAL's text", NULL, 0, strerror(EINVAL));

	/* a reason longer than the line holds is cut at 255 bytes */
	memset(long_reason, 'x', sizeof(long_reason));
	long_reason[299] = '\0';
	snprintf(long_log, sizeof(long_log),
		 "[  106.000007] trace_kprobe: error: %s\n  Command: p:x\n           ^\n", long_reason);
	long_reason[255] = '\0';
	reason_is("a long reason is cut at 255 bytes", long_log, EINVAL, long_reason);

	/* an entry already there at errlog_mark is not this write's reason */
	log_put("error_log", "[  107.000008] trace_kprobe: error: Old news\n"
		"  Command: p:x\n           ^\n");
	errlog_mark(NULL);
	says("an entry older than the mark: errno's text", NULL, EINVAL, strerror(EINVAL));
	log_put("error_log", "[  107.000008] trace_kprobe: error: Old news\n"
		"  Command: p:x\n           ^\n"
		"[  108.000009] trace_kprobe: error: Invalid fetch argument\n"
		"  Command: p:x x=%bad\n                ^\n");
	says("an entry newer than the mark", NULL, EINVAL, "Invalid fetch argument");

	/* an instance: its own log first, else the top level's */
	log_put("instances/ftt-unit-1/error_log",
		"[  109.000010] hist:synthetic:ftt_x_lat0: error: Couldn't find field\n"
		"  Command: hist:keys=lat,devv\n                        ^\n");
	inst = tracefs_instance_alloc(dir, "ftt-unit-1");
	CHECK("tracefs_instance_alloc on the stand-in directory", inst != NULL);
	if (inst) {
		says("an instance's own reason", inst, EINVAL, "Couldn't find field");
		log_put("instances/ftt-unit-1/error_log", "");
		says("an instance without a reason: the top level's", inst, EINVAL,
		     "Invalid fetch argument");
		tracefs_instance_free(inst);
	}

	unit_rmtree(dir);
	return unit_done("errlog");
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* test_kenum - enum names in a print fmt replaced by the running kernel's values (BTF) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kenum.h"
#include "unit.h"

static int failed;

/* check - print PASS/FAIL name for one condition */
static void check(const char *name, int ok)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	if (!ok)
		failed = 1;
}

/* has - does text contain want */
static int has(const char *text, const char *want)
{
	return text && strstr(text, want) != NULL;
}

int main(void)
{
	/* IOPRIO_CLASS_* and TCP_* are user-space ABI: their values never change */
	static const char fmt[] =
		"name: IOPRIO_CLASS_BE\nID: 1\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
		"print fmt: \"%s %s %d\", __print_symbolic(REC->ioprio, { IOPRIO_CLASS_NONE, \"none\" }, "
		"{ IOPRIO_CLASS_BE, \"IOPRIO_CLASS_BE \\\" TCP_CLOSE\" }), "
		"__print_symbolic(REC->state, {TCP_ESTABLISHED,\"est\"}, { TCP_CLOSE, \"close\" }), "
		"REC->IOPRIO_CLASS_RT + FTT_NO_SUCH_CONSTANT + IOPRIO_CLASS_IDLE(REC->x)\n"
		"IOPRIO_CLASS_RT after the print fmt line\n";
	static const char plain[] = "name: x\nprint fmt: \"%d\", REC->pid\n";
	char *out;
	int size = -1;

	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0)
		return unit_skip("kenum", "this kernel publishes no BTF (/sys/kernel/btf/vmlinux)");
	out = kenum_resolve(fmt, &size);
	check("kenum/replaced", out != NULL);
	check("kenum/size", out && size == (int)strlen(out));
	check("kenum/ioprio_none", has(out, "{ 0, \"none\" }"));
	check("kenum/ioprio_be", has(out, "{ 2, \"IOPRIO_CLASS_BE \\\" TCP_CLOSE\" }"));
	check("kenum/no_space", has(out, "{1,\"est\"}"));
	check("kenum/tcp_close", has(out, "{ 7, \"close\" }"));
	check("kenum/field_kept", has(out, "REC->IOPRIO_CLASS_RT + "));
	check("kenum/unknown_kept", has(out, "+ FTT_NO_SUCH_CONSTANT +"));
	check("kenum/call_kept", has(out, "IOPRIO_CLASS_IDLE(REC->x)"));
	check("kenum/other_lines_kept", has(out, "name: IOPRIO_CLASS_BE\n") &&
	      has(out, "\nIOPRIO_CLASS_RT after the print fmt line\n"));
	free(out);
	check("kenum/nothing_to_replace", kenum_resolve(plain, &size) == NULL);
	kenum_release();
	out = kenum_resolve(fmt, &size);
	check("kenum/after_release", has(out, "{ 2, \""));
	free(out);
	kenum_release();
	printf("%s test_kenum\n", failed ? "FAIL" : "PASS");
	return failed;
}

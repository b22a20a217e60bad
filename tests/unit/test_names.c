/* SPDX-License-Identifier: GPL-2.0-only */
/* test_names - signal and errno names: every standard signal, none for 0 and the real-time ones */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "names.h"
#include "unit.h"

int main(void)
{
	/* the 19 the bash killsnoop named, by this architecture's numbers */
	static const struct { int sig; const char *name; } orig[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" }, { SIGABRT, "SIGABRT" }, { SIGFPE, "SIGFPE" },
		{ SIGKILL, "SIGKILL" }, { SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" },
		{ SIGUSR2, "SIGUSR2" }, { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" },
		{ SIGTERM, "SIGTERM" }, { SIGCHLD, "SIGCHLD" }, { SIGCONT, "SIGCONT" },
		{ SIGSTOP, "SIGSTOP" }, { SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" },
		{ SIGTTOU, "SIGTTOU" },
	};
	char buf[16];
	const char *n;
	size_t i;
	int s, named = 0;

	for (i = 0; i < sizeof(orig) / sizeof(*orig); i++) {
		n = names_signal(orig[i].sig);
		CHECK("signal_original", n && !strcmp(n, orig[i].name));
	}
	for (s = 1; s < 32; s++) {
		n = names_signal(s);
		if (n && !strncmp(n, "SIG", 3) && strlen(n) > 3)
			named++;
	}
	/* every standard signal this architecture has (SIGSTKFLT, SIGPWR: most) */
	CHECK("signal_all_standard", named >= 29 && named <= 31);
	CHECK("signal_zero", names_signal(0) == NULL);
	CHECK("signal_rt", names_signal(32) == NULL && names_signal(34) == NULL &&
	      names_signal(64) == NULL && names_signal(-1) == NULL);
	CHECK("signal_sigio", !strcmp(names_signal(SIGIO), "SIGIO"));
	CHECK("errno_esrch", !strcmp(names_errno(-ESRCH, buf, sizeof(buf)), "ESRCH"));
	CHECK("errno_eperm", !strcmp(names_errno(EPERM, buf, sizeof(buf)), "EPERM"));
	CHECK("errno_unknown", !strcmp(names_errno(-4000, buf, sizeof(buf)), "E4000"));
	return unit_done("test_names");
}

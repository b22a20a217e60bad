/* signals.c - every way to stop ends the same way: a flag the loops check */
#include <string.h>

#include "signals.h"

volatile sig_atomic_t sig_stop;

/* on_signal - the only thing a handler does: set the flag */
static void on_signal(int sig)
{
	(void)sig;
	sig_stop = 1;
}

/* sig_init - SIGINT/TERM/HUP/QUIT/PIPE only set sig_stop (no SA_RESTART) */
void sig_init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* sig_request_stop - ask every loop to end (used for EPIPE and -d expiry) */
void sig_request_stop(void)
{
	sig_stop = 1;
}

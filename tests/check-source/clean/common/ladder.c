/* SPDX-License-Identifier: GPL-2.0-only */
/* ladder.c - the capture check's child, the one exception to no-shell */
static void proof_child(const char *path, char **argv)
{
	execve(path, argv, (char *const[]){ NULL });
}

static void prove(struct proof p)
{
	p.child = fork();	/* the check's child: runs proof_child only */
}

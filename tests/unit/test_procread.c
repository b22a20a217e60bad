/* SPDX-License-Identifier: GPL-2.0-only */
/* test_procread - the reads of a live process's /proc files, on this process */
#include "procread.h"
#include "unit.h"

int main(void)
{
	pid_t *tids;
	int n = proc_tids(getpid(), &tids);

	CHECK("tids self", n == 1 && tids[0] == getpid());
	free(tids);
	return unit_done("procread");
}

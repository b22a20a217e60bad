/* SPDX-License-Identifier: GPL-2.0-only */
/* ftt_ucall - user functions with known arguments and results, for uprobe
 *
 * usage: ftt_ucall [--go=FILE] N NAME
 * Prints "pid PID", then "func ADDR" and "sect ADDR": the addresses of its
 * functions ftt_ufunc (in .text) and ftt_usect (in a section of its own,
 * ftt_text), as linked (the ELF virtual address in the fixed-address static
 * build; in a position-independent build, the address it runs at). With
 * --go, waits until FILE exists. Then, for i = 1..N in order:
 *   ftt_ufunc(i, 1000 + i)   returns 8 * i + 1000
 *   ftt_usect(i)             returns i * i
 *   getenv(NAME)             the C library's, NAME a string the test chose
 * and prints "done SUM" (the sum of what ftt_ufunc returned).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* opaque to the optimizer: the calls stay calls, with these arguments */
__attribute__((noinline, noclone, used)) long ftt_ufunc(long a, long b)
{
	__asm__ volatile("" ::: "memory");
	return 7 * a + b;
}

__attribute__((noinline, noclone, used, section("ftt_text"))) long ftt_usect(long a)
{
	__asm__ volatile("" ::: "memory");
	return a * a;
}

int main(int argc, char **argv)
{
	const char *go = NULL;
	long n, i, sum = 0;
	char *e;

	if (argc > 1 && !strncmp(argv[1], "--go=", 5)) {
		go = argv[1] + 5;
		argv++;
		argc--;
	}
	if (argc != 3 || (n = strtol(argv[1], &e, 10)) < 0 || *e) {
		fprintf(stderr, "usage: ftt_ucall [--go=FILE] N NAME\n");
		return 2;
	}
	printf("pid %d\nfunc %p\nsect %p\n", (int)getpid(), (void *)ftt_ufunc, (void *)ftt_usect);
	fflush(stdout);
	while (go && access(go, F_OK) != 0)
		usleep(10000);
	for (i = 1; i <= n; i++) {
		sum += ftt_ufunc(i, 1000 + i);
		ftt_usect(i);
		if (getenv(argv[2]))
			sum++;
	}
	printf("done %ld\n", sum);
	return 0;
}

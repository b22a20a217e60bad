/* SPDX-License-Identifier: GPL-2.0-only */
/* test_elfsym - a library function's file offset, as elfsym_offset reads it
 * from the ELF file, equals the one the dynamic loader mapped it at */
#include <dlfcn.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/prctl.h>

#include "elfsym.h"
#include "procread.h"
#include "unit.h"

/* mapped_offset - the file offset of addr in /proc/self/maps, and its file */
static int mapped_offset(unsigned long addr, char *file, size_t len, unsigned long long *off)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "re");
	int ok = -1;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, pgoff;
		char path[400] = "";

		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %399s", &lo, &hi, &pgoff, path) < 3)
			continue;
		if (addr >= lo && addr < hi && path[0] == '/') {
			*off = addr - lo + pgoff;
			snprintf(file, len, "%s", path);
			ok = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	return ok;
}

/* check_fn - elfsym_offset(name) equals where the loader put the function */
static int check_fn(const char *name)
{
	void *h = dlopen(NULL, RTLD_NOW), *fn;
	unsigned long long want, got;
	char file[400];

	fn = h ? dlsym(h, name) : NULL;
	if (!fn || mapped_offset((unsigned long)fn, file, sizeof(file), &want) < 0)
		return 0;
	return elfsym_offset(file, name, &got) == 0 && got == want;
}

int main(void)
{
	unsigned long long off;
	char comm[32];
	int pid;

	CHECK("open64", check_fn("open64"));
	CHECK("openat64", check_fn("openat64"));
	CHECK("execve", check_fn("execve"));
	CHECK("no_such_function", elfsym_offset("/proc/self/exe", "ftt_no_such_fn", &off) < 0);
	CHECK("not_elf", elfsym_offset("/etc/passwd", "open64", &off) < 0);
	CHECK("missing_file", elfsym_offset("/nonexistent/libc.so.6", "open64", &off) < 0);
	CHECK("empty_file", elfsym_offset("/dev/null", "open64", &off) < 0);

	/* procread: a child's name and parent, as it set them */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_NAME, "ftt unit kid", 0, 0, 0);
		pause();
		_exit(0);
	}
	usleep(100000);
	CHECK("proc_comm", proc_comm(pid, comm, sizeof(comm)) == 0 && !strcmp(comm, "ftt unit kid"));
	CHECK("proc_status_ppid", proc_status(pid, "PPid") == getpid());
	CHECK("proc_status_missing_key", proc_status(pid, "NoSuchKey") == -1);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CHECK("proc_comm_gone", proc_comm(pid, comm, sizeof(comm)) < 0);
	return unit_done("test_elfsym");
}

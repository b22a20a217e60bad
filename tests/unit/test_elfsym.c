/* SPDX-License-Identifier: GPL-2.0-only */
/* test_elfsym - a function's file offset, as elfsym reads it from the ELF
 * file (.dynsym of a library, .symtab of this program), equals the one the
 * dynamic loader mapped it at */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

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

/* the file cut short while it is read, and how many reads happen before */
static const char *cut_path;
static int cut_after;

/* cut - shrink cut_path to its ELF header once cut_after reaches 0 */
static void cut(void)
{
	if (cut_path && cut_after-- == 0 && truncate(cut_path, 64) < 0)
		_exit(3);
}

/* mmap - the C library's, then the file is cut (a reader that maps it) */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *m = (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);

	if (m != MAP_FAILED)
		cut();
	return m;
}

/* pread - the C library's, the file cut after cut_after reads */
ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	ssize_t r = syscall(SYS_pread64, fd, buf, n, off);

	cut();
	return r;
}

/* elfsym_offset_at - elfsym_offset on the file at path, opened for it */
static int elfsym_offset_at(const char *path, const char *name, unsigned long long *off)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = elfsym_offset(fd, name, off);
	close(fd);
	return ret;
}

/* copy - copy the file from to a new file to; 0 if done */
static int copy(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), ok = -1, out;
	ssize_t n;

	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) >= 0) {
		if (n == 0) {
			ok = 0;
			break;
		}
		if (write(out, buf, n) != n)
			break;
	}
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) < 0)
		ok = -1;
	return ok;
}

/*
 * cut_while_read - a copy of the library holding open64, cut to 64 bytes after
 * `reads` reads (or once mapped): the lookup fails cleanly, no SIGBUS. 1 if so
 */
static int cut_while_read(int reads)
{
	void *h = dlopen(NULL, RTLD_NOW), *fn;
	unsigned long long want, got;
	char file[400], tmp[64];
	int pid, status = -1;
	struct stat st;

	fn = h ? dlsym(h, "open64") : NULL;
	if (!fn || mapped_offset((unsigned long)fn, file, sizeof(file), &want) < 0)
		return 0;
	snprintf(tmp, sizeof(tmp), "/tmp/ftt-elfsym-%d", (int)getpid());
	unlink(tmp);
	if (copy(file, tmp) < 0)
		return 0;
	/* the whole copy first: the same offset as the library */
	if (elfsym_offset_at(tmp, "open64", &got) < 0 || got != want) {
		unlink(tmp);
		return 0;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		cut_path = tmp;
		cut_after = reads;
		_exit(elfsym_offset_at(tmp, "open64", &got) < 0 ? 0 : 1);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (stat(tmp, &st) < 0 || st.st_size != 64)
		status = -1;	/* never cut: the lookup was not tested */
	unlink(tmp);
	if (WIFSIGNALED(status))
		printf("# cut after %d reads: killed by signal %d\n", reads, WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
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
	return elfsym_offset_at(file, name, &got) == 0 && got == want;
}

/* a function of this program's own, known from .symtab only (static) */
__attribute__((noinline, used)) static int ftt_local_fn(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

/* the vaddr elfsym_each gives a name; 0 if none (seen: how many times) */
struct found { const char *name; unsigned long long vaddr; int seen; };

static void find_one(const char *name, unsigned long long vaddr, void *ctx)
{
	struct found *f = ctx;

	if (!strcmp(name, f->name)) {
		f->vaddr = vaddr;
		f->seen++;
	}
}

/* func_at - elfsym_func on the file at path (errno in *err); -1 if it cannot be opened */
static int func_at(const char *path, const char *name, unsigned long long *off, int *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = elfsym_func(fd, name, off);
	*err = errno;
	close(fd);
	return ret;
}

/* check_symtab - the program's own static function: its offset from .symtab
 * is where the loader put it, an address of its gives the same offset, and
 * elfsym_each lists it */
static int check_symtab(void)
{
	unsigned long long want, got, got2;
	struct found f = { "ftt_local_fn", 0, 0 };
	char file[400];
	int fd, err, ok;

	if (mapped_offset((unsigned long)ftt_local_fn, file, sizeof(file), &want) < 0 ||
	    func_at("/proc/self/exe", "ftt_local_fn", &got, &err) < 0 || got != want)
		return 0;
	if ((fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	ok = elfsym_each(fd, find_one, &f) > 0 && f.seen == 1 &&
	     elfsym_addr(fd, f.vaddr, &got2) == 0 && got2 == want;
	close(fd);
	return ok;
}

/* check_libc - in a library without .symtab, elfsym_func finds what
 * elfsym_offset finds in .dynsym */
static int check_libc(const char *name)
{
	void *h = dlopen(NULL, RTLD_NOW), *fn;
	unsigned long long want, got;
	char file[400];
	int err;

	fn = h ? dlsym(h, name) : NULL;
	if (!fn || mapped_offset((unsigned long)fn, file, sizeof(file), &want) < 0)
		return 0;
	return func_at(file, name, &got, &err) == 0 && got == want;
}

/* check_errors - each failure says which it is */
static int check_errors(void)
{
	unsigned long long off;
	int fd, err, ok;

	if (func_at("/proc/self/exe", "ftt_no_such_fn", &off, &err) == 0 || err != ENOENT)
		return 0;
	if (func_at("/etc/passwd", "main", &off, &err) == 0 || err != ENOEXEC)
		return 0;
	if (func_at("/dev/null", "main", &off, &err) == 0 || err != ENOEXEC)
		return 0;
	if ((fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	/* the ELF header's own address: in no executable segment */
	ok = elfsym_addr(fd, 0, &off) < 0 && errno == ERANGE;
	close(fd);
	return ok;
}

int main(void)
{
	unsigned long long off;
	int pid;

	CHECK("open64", check_fn("open64"));
	CHECK("openat64", check_fn("openat64"));
	CHECK("execve", check_fn("execve"));
	CHECK("no_such_function", elfsym_offset_at("/proc/self/exe", "ftt_no_such_fn", &off) < 0);
	CHECK("not_elf", elfsym_offset_at("/etc/passwd", "open64", &off) < 0);
	CHECK("missing_file", elfsym_offset_at("/nonexistent/libc.so.6", "open64", &off) < 0);
	CHECK("empty_file", elfsym_offset_at("/dev/null", "open64", &off) < 0);
	CHECK("cut_at_start", cut_while_read(0));
	CHECK("cut_after_header", cut_while_read(1));
	CHECK("cut_after_sections", cut_while_read(2));
	CHECK("symtab_static_function", check_symtab());
	CHECK("func_dynsym_open64", check_libc("open64"));
	CHECK("func_dynsym_getenv", check_libc("getenv"));
	CHECK("func_errors", check_errors());
	CHECK("local_fn_runs", ftt_local_fn(1) == 2);

	/* procread: a child's parent */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_NAME, "ftt unit kid", 0, 0, 0);
		pause();
		_exit(0);
	}
	usleep(100000);
	CHECK("proc_status_ppid", proc_status(pid, "PPid") == getpid());
	CHECK("proc_status_missing_key", proc_status(pid, "NoSuchKey") == -1);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CHECK("proc_status_gone", proc_status(pid, "PPid") == -1);
	return unit_done("test_elfsym");
}

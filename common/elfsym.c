/* SPDX-License-Identifier: GPL-2.0-only */
/* elfsym.c - where a shared library's exported functions start in its file
 *
 * Reads the program and section headers, the dynamic symbol table, its
 * strings and its version table of an ELF file with pread, every offset
 * checked against the file's size and every read against what it returned:
 * a file cut short while it is read is an error, never a fault. Costs a few
 * reads (some 100 KB for a C library) per lookup, at startup only.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfsym.h"

/* in_file - [off, off + len) lies inside a file of size n */
static int in_file(unsigned long long off, unsigned long long len, unsigned long long n)
{
	return off <= n && len <= n - off;
}

/* get - len bytes of fd at off into buf; 0 if all of them were there */
static int get(int fd, void *buf, size_t len, unsigned long long off)
{
	size_t at = 0;
	ssize_t r;

	while (at < len) {
		r = pread(fd, (char *)buf + at, len - at, off + at);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		at += r;
	}
	return 0;
}

/* get_new - a new buffer holding len bytes of fd at off, checked against the
 * file size n; NULL if they are not all there */
static void *get_new(int fd, unsigned long long len, unsigned long long off, unsigned long long n)
{
	void *b;

	if (!len || !in_file(off, len, n) || !(b = malloc(len)))
		return NULL;
	if (get(fd, b, len, off) == 0)
		return b;
	free(b);
	return NULL;
}

/* seg_offset - the file offset of vaddr through the PT_LOAD segment holding it */
static int seg_offset(int fd, unsigned long long n, const Elf64_Ehdr *eh,
		      unsigned long long vaddr, unsigned long long *off)
{
	Elf64_Phdr *ph;
	int i, ret = -1;

	if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !(ph = get_new(fd, (unsigned long long)eh->e_phnum * sizeof(*ph), eh->e_phoff, n)))
		return -1;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_X))
			continue;
		if (vaddr >= ph[i].p_vaddr && vaddr - ph[i].p_vaddr < ph[i].p_filesz) {
			*off = vaddr - ph[i].p_vaddr + ph[i].p_offset;
			ret = 0;
			break;
		}
	}
	free(ph);
	return ret;
}

/* find - NAME's value among count symbols sym (strings str, nstr bytes;
 * versions ver, or NULL), default version only; 0 if exactly one */
static int find(const Elf64_Sym *sym, unsigned long long count, const char *str,
		unsigned long long nstr, const unsigned short *ver, const char *name,
		unsigned long long *val)
{
	unsigned long long i;
	int found = 0;

	for (i = 1; i < count; i++) {
		const Elf64_Sym *s = &sym[i];
		const char *p;

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF ||
		    s->st_name >= nstr)
			continue;
		p = str + s->st_name;
		if (strnlen(p, nstr - s->st_name) == nstr - s->st_name || strcmp(p, name))
			continue;
		if (ver && (ver[i] & 0x8000))
			continue;	/* an older, hidden version of the name */
		if (found && *val != s->st_value)
			return -1;		/* two definitions: trust neither */
		*val = s->st_value;
		found = 1;
	}
	return found ? 0 : -1;
}

/* lookup - NAME's value in the .dynsym of fd (size n) */
static int lookup(int fd, unsigned long long n, const Elf64_Ehdr *eh, const char *name,
		  unsigned long long *val)
{
	Elf64_Shdr *sh, sym = { 0 }, str = { 0 }, ver = { 0 };
	unsigned long long i, count;
	Elf64_Sym *syms = NULL;
	unsigned short *vers = NULL;
	char *strs = NULL;
	int ret = -1;

	if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !(sh = get_new(fd, (unsigned long long)eh->e_shnum * sizeof(*sh), eh->e_shoff, n)))
		return -1;
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type == SHT_DYNSYM) {
			sym = sh[i];
			if (sh[i].sh_link >= eh->e_shnum)
				goto out;
			str = sh[sh[i].sh_link];
		} else if (sh[i].sh_type == SHT_GNU_versym) {
			ver = sh[i];
		}
	}
	if (sym.sh_entsize != sizeof(Elf64_Sym) || sym.sh_size < sizeof(Elf64_Sym))
		goto out;
	count = sym.sh_size / sizeof(Elf64_Sym);
	if (!(syms = get_new(fd, count * sizeof(Elf64_Sym), sym.sh_offset, n)) ||
	    !(strs = get_new(fd, str.sh_size, str.sh_offset, n)))
		goto out;
	/* a version table that does not fit is ignored; one cut short is an error */
	if (ver.sh_size && ver.sh_size / 2 == count && in_file(ver.sh_offset, ver.sh_size, n) &&
	    !(vers = get_new(fd, count * 2, ver.sh_offset, n)))
		goto out;
	ret = find(syms, count, strs, str.sh_size, vers, name, val);
out:
	free(sh);
	free(syms);
	free(strs);
	free(vers);
	return ret;
}

/* elfsym_offset - the file offset of the exported function NAME */
int elfsym_offset(int fd, const char *name, unsigned long long *off)
{
	unsigned long long val = 0;
	struct stat st;
	Elf64_Ehdr eh;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(eh) ||
	    get(fd, &eh, sizeof(eh), 0) < 0)
		return -1;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_type != ET_DYN ||
	    lookup(fd, st.st_size, &eh, name, &val) < 0)
		return -1;
	return seg_offset(fd, st.st_size, &eh, val, off);
}

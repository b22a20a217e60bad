/* SPDX-License-Identifier: GPL-2.0-only */
/* elfsym.c - where a shared library's exported functions start in its file
 *
 * Reads the section headers, the dynamic symbol table and its version table
 * of a mapped ELF file, every offset checked against the file's size. Costs
 * one mmap of the library per lookup, at startup only.
 */
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfsym.h"

/* in_file - [off, off + len) lies inside a file of size n */
static int in_file(unsigned long long off, unsigned long long len, unsigned long long n)
{
	return off <= n && len <= n - off;
}

/* seg_offset - the file offset of vaddr through the PT_LOAD segment holding it */
static int seg_offset(const unsigned char *m, size_t n, const Elf64_Ehdr *eh,
		      unsigned long long vaddr, unsigned long long *off)
{
	int i;

	if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !in_file(eh->e_phoff, (unsigned long long)eh->e_phnum * sizeof(Elf64_Phdr), n))
		return -1;
	for (i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, m + eh->e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		if (vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -1;
}

/* lookup - NAME's value in the mapped file's .dynsym (default version only) */
static int lookup(const unsigned char *m, size_t n, const char *name, unsigned long long *val)
{
	const Elf64_Ehdr *eh = (const void *)m;
	Elf64_Shdr sym = { 0 }, str = { 0 }, ver = { 0 };
	unsigned long long i, count;
	int found = 0;

	if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(eh->e_shoff, (unsigned long long)eh->e_shnum * sizeof(Elf64_Shdr), n))
		return -1;
	for (i = 0; i < eh->e_shnum; i++) {
		Elf64_Shdr sh;

		memcpy(&sh, m + eh->e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_type == SHT_DYNSYM) {
			sym = sh;
			if (sh.sh_link >= eh->e_shnum)
				return -1;
			memcpy(&str, m + eh->e_shoff + sh.sh_link * sizeof(str), sizeof(str));
		} else if (sh.sh_type == SHT_GNU_versym) {
			ver = sh;
		}
	}
	if (sym.sh_entsize != sizeof(Elf64_Sym) || !in_file(sym.sh_offset, sym.sh_size, n) ||
	    !in_file(str.sh_offset, str.sh_size, n) || !str.sh_size)
		return -1;
	count = sym.sh_size / sizeof(Elf64_Sym);
	if (ver.sh_size && (ver.sh_size / 2 != count || !in_file(ver.sh_offset, ver.sh_size, n)))
		ver.sh_size = 0;	/* a version table that does not fit: ignore it */
	for (i = 1; i < count; i++) {
		Elf64_Sym s;
		const char *p;
		unsigned short v;

		memcpy(&s, m + sym.sh_offset + i * sizeof(s), sizeof(s));
		if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF ||
		    s.st_name >= str.sh_size)
			continue;
		p = (const char *)m + str.sh_offset + s.st_name;
		if (strnlen(p, str.sh_size - s.st_name) == str.sh_size - s.st_name ||
		    strcmp(p, name))
			continue;
		if (ver.sh_size) {
			memcpy(&v, m + ver.sh_offset + i * 2, 2);
			if (v & 0x8000)
				continue;	/* an older, hidden version of the name */
		}
		if (found && *val != s.st_value)
			return -1;		/* two definitions: trust neither */
		*val = s.st_value;
		found = 1;
	}
	return found ? 0 : -1;
}

/* elfsym_offset - the file offset of the exported function NAME */
int elfsym_offset(const char *path, const char *name, unsigned long long *off)
{
	unsigned long long val = 0;
	struct stat st;
	unsigned char *m = MAP_FAILED;
	const Elf64_Ehdr *eh;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= (off_t)sizeof(Elf64_Ehdr))
		m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -1;
	eh = (const void *)m;
	if (!memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
	    eh->e_ident[EI_DATA] == ELFDATA2LSB && eh->e_type == ET_DYN &&
	    lookup(m, st.st_size, name, &val) == 0)
		ret = seg_offset(m, st.st_size, eh, val, off);
	munmap(m, st.st_size);
	return ret;
}

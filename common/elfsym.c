/* SPDX-License-Identifier: GPL-2.0-only */
/* elfsym.c - where an ELF file's functions start in the file
 *
 * Reads the program and section headers, the symbol tables (.symtab,
 * .dynsym), their strings and the version table of an ELF file with pread, every offset
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

/* a symbol table read whole: its symbols, strings and versions (or NULL) */
struct symtab {
	Elf64_Sym *sym;
	unsigned long long count, nstr;
	char *str;
	unsigned short *ver;
};

/* the headers of one file, read once per call */
struct elf {
	int fd;
	unsigned long long n;	/* the file's size */
	Elf64_Ehdr eh;
	Elf64_Shdr *sh;		/* e_shnum section headers */
};

/* tab_free - what tab_load took */
static void tab_free(struct symtab *t)
{
	free(t->sym);
	free(t->str);
	free(t->ver);
	memset(t, 0, sizeof(*t));
}

/* tab_load - the first section of type `type` (SHT_SYMTAB, SHT_DYNSYM) into t;
 * 0 if there, 1 if the file has none, -1 if it is malformed or cut short */
static int tab_load(const struct elf *e, unsigned int type, struct symtab *t)
{
	Elf64_Shdr sym = { 0 }, str = { 0 }, ver = { 0 };
	unsigned long long i;
	int have = 0;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < e->eh.e_shnum; i++) {
		if (e->sh[i].sh_type == type && !have) {
			sym = e->sh[i];
			have = 1;
			if (sym.sh_link >= e->eh.e_shnum)
				return -1;
			str = e->sh[sym.sh_link];
		} else if (e->sh[i].sh_type == SHT_GNU_versym) {
			ver = e->sh[i];
		}
	}
	if (!have)
		return 1;
	if (sym.sh_entsize != sizeof(Elf64_Sym) || sym.sh_size < sizeof(Elf64_Sym))
		return -1;
	t->count = sym.sh_size / sizeof(Elf64_Sym);
	t->nstr = str.sh_size;
	if (!(t->sym = get_new(e->fd, t->count * sizeof(Elf64_Sym), sym.sh_offset, e->n)) ||
	    !(t->str = get_new(e->fd, str.sh_size, str.sh_offset, e->n)))
		goto bad;
	/* versions belong to .dynsym; a table that does not fit is ignored, one
	 * cut short is an error */
	if (type == SHT_DYNSYM && ver.sh_size && ver.sh_size / 2 == t->count &&
	    in_file(ver.sh_offset, ver.sh_size, e->n) &&
	    !(t->ver = get_new(e->fd, t->count * 2, ver.sh_offset, e->n)))
		goto bad;
	return 0;
bad:
	tab_free(t);
	return -1;
}

/* sym_name - symbol i's name if it is a defined function (in an executable
 * section, when exec_only) with a name that ends inside the strings; else NULL */
static const char *sym_name(const struct elf *e, const struct symtab *t, unsigned long long i,
			    int exec_only)
{
	const Elf64_Sym *s = &t->sym[i];
	const char *p;

	if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF ||
	    s->st_name >= t->nstr)
		return NULL;
	if (exec_only && (s->st_shndx >= e->eh.e_shnum ||
			  !(e->sh[s->st_shndx].sh_flags & SHF_EXECINSTR)))
		return NULL;
	p = t->str + s->st_name;
	if (!*p || strnlen(p, t->nstr - s->st_name) == t->nstr - s->st_name)
		return NULL;
	return p;
}

/* find - NAME's value in t, default version only; 0 if one value, -1 with
 * errno ENOENT if none, ENOTUNIQ if two different ones */
static int find(const struct elf *e, const struct symtab *t, const char *name, int exec_only,
		unsigned long long *val)
{
	unsigned long long i;
	const char *p;
	int found = 0;

	for (i = 1; i < t->count; i++) {
		if (!(p = sym_name(e, t, i, exec_only)) || strcmp(p, name))
			continue;
		if (t->ver && (t->ver[i] & 0x8000))
			continue;	/* an older, hidden version of the name */
		if (found && *val != t->sym[i].st_value) {
			errno = ENOTUNIQ;	/* two definitions: trust neither */
			return -1;
		}
		*val = t->sym[i].st_value;
		found = 1;
	}
	errno = ENOENT;
	return found ? 0 : -1;
}

/* elf_open - the 64-bit little-endian ELF file at fd, its headers read into e,
 * of type ET_DYN (and ET_EXEC, if exec); -1 with errno ENOEXEC if it is not one */
static int elf_open(int fd, int exec, struct elf *e)
{
	struct stat st;

	memset(e, 0, sizeof(*e));
	e->fd = fd;
	if (fstat(fd, &st) < 0)
		return -1;
	e->n = st.st_size;
	errno = ENOEXEC;
	if (!S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(e->eh) ||
	    get(fd, &e->eh, sizeof(e->eh), 0) < 0)
		return -1;
	if (memcmp(e->eh.e_ident, ELFMAG, SELFMAG) || e->eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    e->eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    (e->eh.e_type != ET_DYN && (!exec || e->eh.e_type != ET_EXEC)))
		return -1;
	if (e->eh.e_shnum && (e->eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !(e->sh = get_new(fd, (unsigned long long)e->eh.e_shnum * sizeof(Elf64_Shdr),
			      e->eh.e_shoff, e->n))))
		return -1;
	return 0;
}

/* lookup - NAME's value in the tables of e, in the order given (0-ended);
 * a table that names it decides */
static int lookup(const struct elf *e, const unsigned int *types, const char *name,
		  int exec_only, unsigned long long *val)
{
	struct symtab t;
	int r, ret = -1, err = ENOENT;

	for (; *types; types++) {
		if ((r = tab_load(e, *types, &t)) != 0) {
			if (r < 0) {
				err = ENOEXEC;
				break;
			}
			continue;
		}
		ret = find(e, &t, name, exec_only, val);
		err = errno;
		tab_free(&t);
		if (ret == 0 || err != ENOENT)
			break;
	}
	errno = err;
	return ret;
}

/* elfsym_offset - see elfsym.h */
int elfsym_offset(int fd, const char *name, unsigned long long *off)
{
	static const unsigned int dyn[] = { SHT_DYNSYM, 0 };
	unsigned long long val = 0;
	struct elf e;
	int ret = -1;

	if (elf_open(fd, 0, &e) == 0 && lookup(&e, dyn, name, 0, &val) == 0)
		ret = seg_offset(fd, e.n, &e.eh, val, off);
	free(e.sh);
	return ret;
}

/* elfsym_func - see elfsym.h */
int elfsym_func(int fd, const char *name, unsigned long long *off)
{
	static const unsigned int both[] = { SHT_SYMTAB, SHT_DYNSYM, 0 };
	unsigned long long val = 0;
	struct elf e;
	int ret = -1;

	if (elf_open(fd, 1, &e) == 0 && lookup(&e, both, name, 1, &val) == 0 &&
	    (ret = seg_offset(fd, e.n, &e.eh, val, off)) < 0)
		errno = ERANGE;
	free(e.sh);
	return ret;
}

/* elfsym_addr - see elfsym.h */
int elfsym_addr(int fd, unsigned long long vaddr, unsigned long long *off)
{
	struct elf e;
	int ret = -1;

	if (elf_open(fd, 1, &e) == 0 && (ret = seg_offset(fd, e.n, &e.eh, vaddr, off)) < 0)
		errno = ERANGE;
	free(e.sh);
	return ret;
}

/* elfsym_each - see elfsym.h */
int elfsym_each(int fd, void (*fn)(const char *name, unsigned long long vaddr, void *ctx),
		void *ctx)
{
	static const unsigned int types[] = { SHT_SYMTAB, SHT_DYNSYM };
	unsigned long long i;
	struct symtab t;
	struct elf e;
	const char *p;
	int k, r, n = 0, ret = -1;

	if (elf_open(fd, 1, &e) < 0)
		goto out;
	for (k = 0; k < 2; k++) {
		if ((r = tab_load(&e, types[k], &t)) < 0) {
			errno = ENOEXEC;
			goto out;
		}
		if (r)
			continue;
		for (i = 1; i < t.count; i++)
			if ((p = sym_name(&e, &t, i, 1)) && (!t.ver || !(t.ver[i] & 0x8000))) {
				fn(p, t.sym[i].st_value, ctx);
				n++;
			}
		tab_free(&t);
	}
	ret = n;
out:
	free(e.sh);
	return ret;
}

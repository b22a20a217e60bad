/* SPDX-License-Identifier: GPL-2.0-only */
/* elfsym.h - where an ELF file's functions start in the file */
#ifndef FTT_ELFSYM_H
#define FTT_ELFSYM_H

/*
 * A uprobe names its place as FILE:OFFSET, the file offset of the
 * instruction. For a function that is the symbol's value (a virtual address),
 * less the vaddr of the executable PT_LOAD segment that holds it, plus that
 * segment's file offset: the same for shared libraries, position-independent
 * executables (ET_DYN) and fixed-address ones (ET_EXEC). Every file is read
 * with pread (it may shrink meanwhile: what is missing is an error), only
 * 64-bit little-endian ELF.
 */

/*
 * elfsym_offset - the file offset of the exported function NAME, a defined
 * FUNC in the dynamic symbol table of the shared object (ET_DYN) open at fd,
 * default version only; 0 and *off set on success, -1 if the file is no such
 * ELF, is cut short, or has no such function.
 */
int elfsym_offset(int fd, const char *name, unsigned long long *off);

/*
 * elfsym_func - the file offset of the function NAME in the executable or
 * shared object (ET_EXEC, ET_DYN) open at fd: a defined FUNC in an
 * executable section (any, not only .text), looked up in .symtab, then in
 * .dynsym if .symtab has no such name (or the file has none: stripped).
 * 0 and *off set; else -1 with errno ENOEXEC (not such an ELF file, or cut
 * short), ENOENT (no such function), ENOTUNIQ (several functions of that
 * name at different addresses: none is chosen) or ERANGE (its address is in
 * no executable segment).
 */
int elfsym_func(int fd, const char *name, unsigned long long *off);

/*
 * elfsym_addr - the file offset of the virtual address vaddr (as the
 * symbol tables and objdump give it) of the file open at fd; -1 with errno
 * ENOEXEC (not such an ELF) or ERANGE (in no executable PT_LOAD segment).
 */
int elfsym_addr(int fd, unsigned long long vaddr, unsigned long long *off);

/*
 * elfsym_each - fn(name, vaddr, ctx) for every defined function in an
 * executable section of .symtab, then of .dynsym (a name in both comes
 * twice); how many, or -1 with errno ENOEXEC.
 */
int elfsym_each(int fd, void (*fn)(const char *name, unsigned long long vaddr, void *ctx),
		void *ctx);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* elfsym.h - where a shared library's exported functions start in its file */
#ifndef FTT_ELFSYM_H
#define FTT_ELFSYM_H

/*
 * A uprobe names its place as FILE:OFFSET, the file offset of the
 * instruction. For a function exported by a 64-bit ELF shared library that
 * is the dynamic symbol's value, less the vaddr of the PT_LOAD segment that
 * holds it, plus that segment's file offset.
 */

/*
 * elfsym_offset - the file offset of the function NAME, a defined FUNC (or
 * IFUNC-free GNU alias) in the dynamic symbol table of the ELF file open at
 * fd, read with pread (the file may shrink meanwhile: what is missing is an
 * error); 0 and *off set on success, -1 if the file is no 64-bit
 * little-endian ELF, is cut short, or has no such function.
 */
int elfsym_offset(int fd, const char *name, unsigned long long *off);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* names.h - names for numbers the kernel records: kernel symbols, errno values, signals,
 * system calls */
#ifndef FTT_NAMES_H
#define FTT_NAMES_H

#include <stddef.h>

struct session;

/* names_kallsyms - give libtraceevent the kernel's symbol table (once) */
void names_kallsyms(struct session *s);
/* names_ksym - kernel symbol for an address ("sym+0xoff"), loading kallsyms once */
const char *names_ksym(struct session *s, unsigned long long addr, char *buf, size_t len);
/* names_kfunc - name of the kernel function holding addr (no offset, as "%ps"), or NULL */
const char *names_kfunc(struct session *s, unsigned long long addr);
/* names_errno - symbolic name of an errno value ("ENOENT"), or "E<number>" */
const char *names_errno(int err, char *buf, size_t len);
/*
 * names_signal - the name of signal sig as this architecture numbers it
 * ("SIGTERM"), for the 31 standard signals; NULL for 0, the real-time
 * signals (the C libraries disagree on SIGRTMIN: glibc 34, musl 35) and
 * anything else
 */
const char *names_signal(int sig);
/*
 * names_syscall - the name of system call nr as an x86-64 process numbers it
 * ("read" for 0), from the table made at build time; NULL for a number the
 * table does not have (newer than the build host's headers), on other
 * architectures, and in a build without the table (the fuzz harnesses)
 */
const char *names_syscall(long nr);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* libcs.h - the C libraries running processes map */
#ifndef FTT_LIBCS_H
#define FTT_LIBCS_H

#include <stddef.h>

/*
 * libcs_each - call fn(fd, name, k, ctx) once for each distinct C library
 * (glibc's libc.so.6, musl's ld-musl-*.so.1) that a running process maps
 * executable: each file (device and inode) once, k counting from 0, at most
 * max of them. fd is that very file, open for reading (fn owns it): opened
 * through the mapping's own link in /proc/PID/map_files, else by the mapped
 * name or that name under /proc/PID/root without following a last symlink,
 * and taken only if its device and inode are the mapping's. name is the
 * mapped path, for messages. A library a user other than root could have
 * written (owned by another user, or writable by its group or others) is not
 * handed to fn but to left(name, pid, why, ctx), once; the one exception is
 * a library owned by the root of a container that root made (a user
 * namespace root owns, whose root is mapped to the file's owner). Returns
 * how many fn got, or -1 if /proc cannot be read.
 */
int libcs_each(int max, void (*fn)(int fd, const char *name, int k, void *ctx),
	       void (*left)(const char *name, int pid, const char *why, void *ctx), void *ctx);

/*
 * libcs_file_unsafe - why a user other than root could have written the
 * file open at fd, or put another file in its place: the file is owned by
 * another user or writable by its group or others, or so is a directory on
 * its path (the kernel's name for the open file, /proc/self/fd/N); a sticky
 * directory owned by root (/tmp) is safe. why (len bytes) may hold the
 * answer; NULL if only root could have.
 */
const char *libcs_file_unsafe(int fd, char *why, size_t len);

#endif

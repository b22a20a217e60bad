/* SPDX-License-Identifier: GPL-2.0-only */
/* libcs.h - the C libraries running processes map */
#ifndef FTT_LIBCS_H
#define FTT_LIBCS_H

/*
 * libcs_each - call fn(path, k, ctx) once for each distinct C library (glibc's
 * libc.so.6, musl's ld-musl-*.so.1) that a running process maps executable:
 * each file (device and inode) once, k counting from 0, at most max of them.
 * The path is one the kernel resolves to that very file from here: the
 * mapped path if it names it (a chroot's copy), else the path under
 * /proc/PID/root (a container's own mount namespace), else the mapping's
 * link in /proc/PID/map_files. Returns
 * how many were found, or -1 if /proc cannot be read.
 */
int libcs_each(int max, void (*fn)(const char *path, int k, void *ctx), void *ctx);

#endif

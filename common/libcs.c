/* SPDX-License-Identifier: GPL-2.0-only */
/* libcs.c - the C libraries running processes map
 *
 * One pass over /proc/PID/maps at startup: a file read per process, so some
 * milliseconds on a busy machine. A library first mapped later (a container
 * started after the scan) is not in the list.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "libcs.h"

#define MAX_SEEN 64

/* libc_name - is a mapped file's name that of a C library (glibc or musl) */
static int libc_name(const char *path)
{
	const char *b = strrchr(path, '/');

	b = b ? b + 1 : path;
	return !strcmp(b, "libc.so.6") || !strncmp(b, "ld-musl-", 8) ||
	       !strncmp(b, "libc.musl-", 10) || (!strncmp(b, "libc-2.", 7) && strstr(b, ".so"));
}

/* lib_path - a path to the file that pid maps at `range` as p (inode ino):
 * p as we see it (a chroot shows ours), else p under pid's root (another mount
 * namespace shows its own), else the mapping's own link in /proc; 0 if found */
static int lib_path(int pid, const char *range, const char *p, unsigned long ino,
		    char *path, size_t len, struct stat *st)
{
	snprintf(path, len, "%s", p);
	if (stat(path, st) == 0 && st->st_ino == ino)
		return 0;
	snprintf(path, len, "/proc/%d/root%s", pid, p);
	if (stat(path, st) == 0 && st->st_ino == ino)
		return 0;
	snprintf(path, len, "/proc/%d/map_files/%s", pid, range);
	return stat(path, st) == 0 && st->st_ino == ino ? 0 : -1;
}

/* libcs_each - see libcs.h */
int libcs_each(int max, void (*fn)(const char *path, int k, void *ctx), void *ctx)
{
	struct { dev_t dev; ino_t ino; } seen[MAX_SEEN];
	int nseen = 0, i;
	struct stat st;
	char line[1200], maps[64], path[1100];
	struct dirent *de;
	DIR *d;
	FILE *f;

	if (max > MAX_SEEN)
		max = MAX_SEEN;
	if (!(d = opendir("/proc")))
		return -1;
	while ((de = readdir(d)) && nseen < max) {
		int pid = atoi(de->d_name);

		if (pid <= 0)
			continue;
		snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
		f = fopen(maps, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f) && nseen < max) {
			char *p = strchr(line, '/'), range[64];
			unsigned long ino;

			line[strcspn(line, "\n")] = '\0';
			/* "START-END r-xp OFFSET MAJ:MIN INODE PATH" */
			if (!p || !strstr(line, " r-xp ") || !libc_name(p) || strstr(p, " (deleted)") ||
			    sscanf(line, "%63s %*s %*s %*s %lu", range, &ino) != 2 ||
			    lib_path(pid, range, p, ino, path, sizeof(path), &st) < 0)
				continue;
			for (i = 0; i < nseen && (seen[i].dev != st.st_dev || seen[i].ino != st.st_ino); i++)
				;
			if (i < nseen)
				continue;
			seen[nseen].dev = st.st_dev;
			seen[nseen].ino = st.st_ino;
			fn(path, nseen++, ctx);
		}
		fclose(f);
	}
	closedir(d);
	return nseen;
}

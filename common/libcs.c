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

/* lib_path - the path the kernel resolves to the file pid maps as p */
static void lib_path(int pid, const char *p, const struct stat *root, char *path, size_t len)
{
	char rootp[64];
	struct stat st;

	snprintf(rootp, sizeof(rootp), "/proc/%d/root", pid);
	if (stat(rootp, &st) == 0 && (st.st_dev != root->st_dev || st.st_ino != root->st_ino))
		snprintf(path, len, "%s%s", rootp, p);
	else
		snprintf(path, len, "%s", p);
}

/* libcs_each - see libcs.h */
int libcs_each(int max, void (*fn)(const char *path, int k, void *ctx), void *ctx)
{
	struct { dev_t dev; ino_t ino; } seen[MAX_SEEN];
	int nseen = 0, i;
	struct stat root, st;
	char line[1200], maps[64], path[1100];
	struct dirent *de;
	DIR *d;
	FILE *f;

	if (max > MAX_SEEN)
		max = MAX_SEEN;
	if (stat("/", &root) < 0 || !(d = opendir("/proc")))
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
			char *p = strchr(line, '/');

			line[strcspn(line, "\n")] = '\0';
			if (!p || !strstr(line, " r-xp ") || !libc_name(p) || strstr(p, " (deleted)"))
				continue;
			lib_path(pid, p, &root, path, sizeof(path));
			if (stat(path, &st) < 0)
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

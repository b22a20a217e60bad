/* SPDX-License-Identifier: GPL-2.0-only */
/* setting.c - tracefs settings files read and written as the kernel takes them
 *
 * Reading: the kernel's comment lines ("#### all functions enabled ####") and
 * "no pid" are the empty state, and trace_clock lists every clock with the one
 * in use in brackets. Writing: the function lists (set_ftrace_filter,
 * set_graph_function, set_ftrace_notrace, set_graph_notrace) take one entry
 * per write() and leave the rest of the buffer unread (a short write), and
 * an entry not ended by a blank is joined to the next write's; so a list is
 * written one entry and a newline per write on one open file, which the
 * kernel applies as a whole when it is closed. A list reads back as the functions it
 * matched, one a line, "NAME [MODULE]" for a module's: comparisons go by the
 * set of names.
 * Costs a read or an open and a write per entry, at setup and exit only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "setting.h"
#include "xalloc.h"

/* setting_read - see setting.h */
char *setting_read(struct tracefs_instance *inst, const char *file)
{
	char *path = tracefs_instance_get_file(inst, file), *text = NULL, *line, *save = NULL, *res;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd, err;

	fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	err = errno;
	tracefs_put_tracing_file(path);
	if (fd < 0) {
		errno = err;
		return NULL;
	}
	do {
		if (cap - len < 4096) {
			cap += 65536;
			text = xrealloc(text, cap);
		}
		n = read(fd, text + len, cap - len - 1);
		if (n > 0)
			len += n;
	} while (n > 0);
	err = errno;
	close(fd);
	if (n < 0) {
		free(text);
		errno = err;
		return NULL;
	}
	text[len] = '\0';
	res = xcalloc(1, len + 1);
	len = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* "#### all functions enabled ####", "no pid": the empty state */
		if (line[0] == '#' || !strcmp(line, "no pid"))
			continue;
		len += sprintf(res + len, "%s%s", len ? "\n" : "", line);
	}
	free(text);
	/* trace_clock lists every clock, the one in use in brackets: that one */
	if (!strcmp(file, "trace_clock") && (line = strchr(res, '[')) && strchr(line, ']')) {
		len = strcspn(line + 1, "]");
		memmove(res, line + 1, len);
		res[len] = '\0';
	}
	return res;
}

/* setting_is_list - see setting.h */
int setting_is_list(const char *file)
{
	return !strcmp(file, "set_ftrace_filter") || !strcmp(file, "set_graph_function") ||
	       !strcmp(file, "set_ftrace_notrace") || !strcmp(file, "set_graph_notrace");
}

/* cmp_str - strcmp order of two string pointers */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * entries - the names of a list's text, in a copy (*buf, freed by the
 * caller): each blank-separated word, but a "[MODULE]" after a name on its
 * line; sorted and unique when SORT. NULL-terminated array, count in *n.
 */
static char **entries(const char *text, char **buf, int *n, int sort)
{
	char *p, **v;
	int first = 1, i, j;

	*buf = xstrdup(text);
	v = xcalloc(strlen(text) / 2 + 2, sizeof(*v));
	*n = 0;
	for (p = *buf; *p; ) {
		size_t len;

		if (*p == '\n' || *p == ' ' || *p == '\t') {
			first |= *p == '\n';
			*p++ = '\0';
			continue;
		}
		len = strcspn(p, " \t\n");
		if (first || p[0] != '[' || p[len - 1] != ']')
			v[(*n)++] = p;
		first = 0;
		p += len;
	}
	if (!sort)
		return v;
	qsort(v, *n, sizeof(*v), cmp_str);
	for (i = j = 0; i < *n; i++)
		if (!j || strcmp(v[j - 1], v[i]))
			v[j++] = v[i];
	v[j] = NULL;
	*n = j;
	return v;
}

/* write_list - the entries of VALUE, one write each, on one open FILE */
static int write_list(struct tracefs_instance *inst, const char *file, const char *value)
{
	char *path = tracefs_instance_get_file(inst, file), *buf, **v;
	int fd, i, n, err = 0;
	ssize_t w;

	fd = path ? open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) : -1;
	err = errno;
	tracefs_put_tracing_file(path);
	if (fd < 0) {
		errno = err;
		return -1;
	}
	err = 0;
	v = entries(value, &buf, &n, 0);
	for (i = 0; i < n && !err; i++) {
		/* the kernel takes an entry once a blank ends it: without the
		 * newline it would join the next write's entry */
		char *e = xmalloc(strlen(v[i]) + 2);
		size_t len = (size_t)sprintf(e, "%s\n", v[i]);

		w = write(fd, e, len);
		if (w < 0)
			err = errno;
		else if ((size_t)w != len)
			err = EINVAL;	/* the kernel took part of one entry */
		free(e);
	}
	free(v);
	free(buf);
	/* the list is applied at close, with the entries it took */
	if (close(fd) < 0 && !err)
		err = errno;
	errno = err;
	return err ? -1 : 0;
}

/* setting_write - see setting.h */
int setting_write(struct tracefs_instance *inst, const char *file, const char *value)
{
	if (setting_is_list(file))
		return write_list(inst, file, value);
	return tracefs_instance_file_write(inst, file, value) < 0 ? -1 : 0;
}

/* setting_holds - see setting.h */
int setting_holds(const char *content, char *const *names, int n)
{
	char *buf, **have, **want;
	int nh, nw, i, same;

	want = xcalloc(n + 1, sizeof(*want));
	if (n > 0) {		/* names may be NULL for an empty list */
		memcpy(want, names, n * sizeof(*want));
		qsort(want, n, sizeof(*want), cmp_str);
	}
	for (i = nw = 0; i < n; i++)
		if (!nw || strcmp(want[nw - 1], want[i]))
			want[nw++] = want[i];
	have = entries(content, &buf, &nh, 1);
	same = nh == nw;
	for (i = 0; same && i < nh; i++)
		same = !strcmp(have[i], want[i]);
	free(have);
	free(buf);
	free(want);
	return same;
}

/* setting_same - see setting.h */
int setting_same(const char *file, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *buf, **v;
	int n, same;

	if (setting_is_list(file)) {
		v = entries(b, &buf, &n, 1);
		same = setting_holds(a, v, n);
		free(v);
		free(buf);
		return same;
	}
	while (na && a[na - 1] == '\n')
		na--;
	while (nb && b[nb - 1] == '\n')
		nb--;
	return na == nb && !memcmp(a, b, na);
}

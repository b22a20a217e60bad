/* SPDX-License-Identifier: GPL-2.0-only */
/* kenum.c - the running kernel's enum constants (BTF), for event print formats
 *
 * Some events' print formats name constants the kernel knows at build time and
 * never published to tracefs: block's IOPRIO_CLASS_BE, tcp's TCP_SYN_SENT,
 * writeback's I_DIRTY_SYNC. The kernel's own formatter prints "be"; a user-space
 * one cannot evaluate the name and prints a number. The kernel's BTF
 * (/sys/kernel/btf/vmlinux, on every Debian kernel since 5.10) lists each enum
 * constant with its value, so the names are replaced by numbers in the format
 * text before libtraceevent parses it. Only all-capital names outside strings,
 * not a field (REC->X) and not a macro call (X(...)), are looked up, and BTF
 * is read only when a format has one.
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kenum.h"

#define BTF_PATH "/sys/kernel/btf/vmlinux"
#define BTF_MAGIC 0xeB9F

struct konst {
	const char *name;	/* in the BTF string section */
	unsigned long long value;
	int is_signed;
};

static char *btf;		/* the whole BTF file, while loaded */
static struct konst *konsts;
static size_t nr_konsts;
static int tried;

/* read_all - the whole file at path, its length in *len; NULL on failure */
static char *read_all(const char *path, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap), *p;
	ssize_t r = -1;
	int fd = buf ? open(path, O_RDONLY | O_CLOEXEC) : -1;

	while (fd >= 0 && (r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap) {
			p = realloc(buf, cap * 2);
			if (!p)
				break;
			buf = p;
			cap *= 2;
		}
	}
	if (fd >= 0)
		close(fd);
	if (r < 0 || n == 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* u32at - a native 32-bit word at p (BTF is in the kernel's byte order) */
static uint32_t u32at(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* add - one constant; the name must lie inside the string section */
static void add(const char *strs, uint32_t str_len, uint32_t name_off,
		unsigned long long value, int is_signed, size_t *cap)
{
	struct konst *k;

	if (name_off >= str_len || !memchr(strs + name_off, '\0', str_len - name_off))
		return;
	if (nr_konsts == *cap) {
		k = realloc(konsts, (*cap ? *cap * 2 : 4096) * sizeof(*k));
		if (!k)
			return;
		konsts = k;
		*cap = *cap ? *cap * 2 : 4096;
	}
	konsts[nr_konsts++] = (struct konst){ strs + name_off, value, is_signed };
}

/* by_name - qsort/bsearch order of constants */
static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct konst *)a)->name, ((const struct konst *)b)->name);
}

/*
 * load - every ENUM and ENUM64 constant of the kernel's BTF, sorted by name.
 * Each type is 12 bytes, then data of a size fixed by its kind: `extra` bytes
 * and `member` bytes per member (vlen). Kinds 1 to 19 are known (up to
 * ENUM64, Linux 6.0); another ends the walk, keeping what was read so far.
 */
static void load(void)
{
	static const unsigned char extra[20] = { [1] = 4, [3] = 12, [14] = 4, [17] = 4 };
	static const unsigned char member[20] = {
		[4] = 12, [5] = 12, [6] = 8, [13] = 8, [15] = 12, [19] = 12,
	};
	uint32_t hdr_len, type_off, type_len, str_off, str_len, info, kind, vlen, i;
	size_t len, cap = 0, p, end;
	const char *strs;

	tried = 1;
	btf = read_all(BTF_PATH, &len);
	if (!btf || len < 24 || (u32at(btf) & 0xffff) != BTF_MAGIC)
		goto fail;
	hdr_len = u32at(btf + 4);
	type_off = u32at(btf + 8);
	type_len = u32at(btf + 12);
	str_off = u32at(btf + 16);
	str_len = u32at(btf + 20);
	if ((size_t)hdr_len + type_off + type_len > len || (size_t)hdr_len + str_off + str_len > len)
		goto fail;
	strs = btf + hdr_len + str_off;
	p = (size_t)hdr_len + type_off;
	end = p + type_len;
	while (p + 12 <= end) {
		info = u32at(btf + p + 4);
		kind = (info >> 24) & 0x1f;
		vlen = info & 0xffff;
		if (kind == 0 || kind >= 20)
			break;
		p += 12 + extra[kind];
		if (p + (size_t)vlen * member[kind] > end)
			break;
		/* the kind flag (bit 31) marks a signed enum */
		for (i = 0; (kind == 6 || kind == 19) && i < vlen; i++) {
			const char *m = btf + p + (size_t)i * member[kind];
			unsigned long long v = u32at(m + 4);

			if (kind == 19)
				v |= (unsigned long long)u32at(m + 8) << 32;
			else if (info >> 31)
				v = (unsigned long long)(long long)(int32_t)v;
			add(strs, str_len, u32at(m), v, info >> 31, &cap);
		}
		p += (size_t)vlen * member[kind];
	}
	if (!nr_konsts)
		goto fail;
	qsort(konsts, nr_konsts, sizeof(*konsts), by_name);
	return;
fail:
	kenum_release();
	tried = 1;
}

/* kenum_release - see kenum.h */
void kenum_release(void)
{
	free(konsts);
	free(btf);
	konsts = NULL;
	btf = NULL;
	nr_konsts = 0;
	tried = 0;
}

/* is_word - a character of a C identifier */
static int is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * candidate - the all-capital identifier of n bytes at fmt[at], outside a
 * string, is a constant to look up: not REC, not a field (->X, .X), not a call
 */
static int candidate(const char *fmt, size_t at, size_t n)
{
	size_t i, j;

	if (n == 3 && !memcmp(fmt + at, "REC", 3))
		return 0;
	for (i = 0; i < n; i++) {
		char c = fmt[at + i];

		if (!((c >= 'A' && c <= 'Z') || c == '_' || (i && c >= '0' && c <= '9')))
			return 0;
	}
	if ((at >= 2 && fmt[at - 2] == '-' && fmt[at - 1] == '>') || (at && fmt[at - 1] == '.'))
		return 0;
	for (j = at + n; fmt[j] == ' ' || fmt[j] == '\t'; j++)
		;
	return fmt[j] != '(';
}

/* lookup - the constant of n bytes at name; NULL if unknown */
static const struct konst *lookup(const char *name, size_t n)
{
	struct konst key;
	char buf[128];

	if (n >= sizeof(buf))
		return NULL;
	memcpy(buf, name, n);
	buf[n] = '\0';
	if (!tried)
		load();
	if (!konsts)
		return NULL;
	key.name = buf;
	return bsearch(&key, konsts, nr_konsts, sizeof(*konsts), by_name);
}

/* kenum_resolve - see kenum.h */
char *kenum_resolve(const char *fmt, int *size)
{
	const char *line = fmt ? strstr(fmt, "print fmt:") : NULL, *p, *q;
	const struct konst *k;
	int in_str = 0, changed = 0;
	size_t out_len = 0;
	char *out = NULL;
	FILE *m;

	if (!line || !(m = open_memstream(&out, &out_len)))
		return NULL;
	fwrite(fmt, 1, line - fmt, m);
	for (p = line; *p && *p != '\n'; p = q) {
		q = p + 1;
		if (in_str) {
			if (*p == '\\' && *q)
				q++;		/* an escaped character, a quote too */
			else if (*p == '"')
				in_str = 0;
		} else if (*p == '"') {
			in_str = 1;
		} else if (is_word(*p) && !(p > fmt && is_word(p[-1]))) {
			for (q = p; is_word(*q); q++)
				;
			if (candidate(fmt, p - fmt, q - p) && (k = lookup(p, q - p))) {
				fprintf(m, k->is_signed ? "%lld" : "%llu", k->value);
				changed = 1;
				continue;
			}
		}
		fwrite(p, 1, q - p, m);
	}
	fputs(p, m);
	if (fclose(m) != 0 || !changed) {
		free(out);
		return NULL;
	}
	*size = (int)out_len;
	return out;
}

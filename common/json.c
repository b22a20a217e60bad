/* SPDX-License-Identifier: GPL-2.0-only */
/* json.c - JSON text: strings escaped so every line parses, and ISO 8601 times */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "json.h"

/* json_safe_len - see json.h */
size_t json_safe_len(const unsigned char *s, size_t n)
{
	unsigned int cp;
	size_t len, i;

	if (s[0] < 0x80)
		return s[0] >= 0x20 && s[0] != 0x7f;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp <= 0x9f)
		return 0;
	return len;
}

/* json_esc - the escape for the byte(s) at s in e: JSON's (json), else the
 * text output's \xNN; how many bytes it stands for */
static size_t json_esc(const unsigned char *s, size_t n, char *e, int json)
{
	static const char hex[] = "0123456789abcdef";
	static const char shorts[] = "\"\"\\\\\bb\ff\nn\rr\tt";
	const char *p;

	if (json && s[0] && (p = memchr(shorts, s[0], sizeof(shorts) - 1)) &&
	    (p - shorts) % 2 == 0) {
		e[0] = '\\', e[1] = p[1], e[2] = '\0';
		return 1;
	}
	if (json && (s[0] < 0x20 || s[0] == 0x7f ||
		     (s[0] == 0xc2 && n > 1 && s[1] >= 0x80 && s[1] <= 0x9f))) {
		unsigned int c = s[0] == 0xc2 ? s[1] : s[0];

		snprintf(e, 8, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
		return s[0] == 0xc2 ? 2 : 1;
	}
	/* JSON escapes the backslash of the text's \xNN */
	snprintf(e, 8, "%s\\x%c%c", json ? "\\" : "", hex[s[0] >> 4], hex[s[0] & 15]);
	return 1;
}

/* json_escape - see json.h */
size_t json_escape(char *dst, size_t len, size_t at, const char *src, size_t n, int json,
		   size_t *used)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, k, el;
	char e[8];

	while (i < n) {
		k = json && (s[i] == '"' || s[i] == '\\') ? 0 : json_safe_len(s + i, n - i);
		if (k) {
			if (at + k > len)
				break;
			memcpy(dst + at, s + i, k);
			at += k;
			i += k;
			continue;
		}
		k = json_esc(s + i, n - i, e, json);
		el = strlen(e);
		if (at + el > len)
			break;
		memcpy(dst + at, e, el);
		at += el;
		i += k;
	}
	if (at < len)
		dst[at] = '\0';
	if (used)
		*used = i;
	return at;
}

/* json_str - see json.h */
size_t json_str(char *dst, size_t len, size_t at, const char *src, size_t n)
{
	return json_escape(dst, len, at, src, n, 1, NULL);
}

/* json_time - see json.h */
char *json_time(long long real_ns, char *buf, size_t len)
{
	time_t t = (time_t)(real_ns / 1000000000LL);
	struct tm tm;
	char s[32];

	gmtime_r(&t, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%09lldZ", s, real_ns % 1000000000LL);
	return buf;
}

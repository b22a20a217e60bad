/* SPDX-License-Identifier: GPL-2.0-only */
/* test_output - text from the traced reaches the terminal escaped: out_vis, and
 * what out_write and out_text write */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "unit.h"

/* vis_is - out_vis of src (n bytes) gives want */
static int vis_is(const char *src, size_t n, const char *want)
{
	char dst[256];
	size_t len = out_vis(dst, sizeof(dst), 0, src, n);
	int ok = len == strlen(want) && !strcmp(dst, want);

	if (!ok)
		printf("  out_vis gave \"%s\", want \"%s\"\n", dst, want);
	return ok;
}

/* written_is - what fn writes of src (n bytes) is want */
static int written_is(int text, const char *src, size_t n, const char *want)
{
	char *mem = NULL;
	size_t len = 0, done = n;
	FILE *fp = open_memstream(&mem, &len);
	int ok;

	if (text)
		done = out_text(fp, src, n);
	else
		out_write(fp, src, n);
	fclose(fp);
	ok = len == strlen(want) && !memcmp(mem, want, len) && (!text || done <= n);
	if (!ok)
		printf("  wrote \"%.*s\", want \"%s\"\n", (int)len, mem, want);
	free(mem);
	return ok;
}

/* S - a string literal and its length */
#define S(lit) lit, sizeof(lit) - 1

/* check_vis - out_vis escapes what a terminal could act on; out_write and out_text write it so */
static void check_vis(void)
{
	char small[8];

	/* printable ASCII and UTF-8 as they are */
	CHECK("vis_plain", vis_is(S("/etc/passwd"), "/etc/passwd"));
	CHECK("vis_utf8", vis_is(S("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
				 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
	/* C0 (a newline too), DEL, ESC sequences */
	CHECK("vis_c0", vis_is(S("a\tb\nc\r\x7f"), "a\\x09b\\x0ac\\x0d\\x7f"));
	CHECK("vis_esc", vis_is(S("\x1b[1A\x1b[2K"), "\\x1b[1A\\x1b[2K"));
	/* C1 in UTF-8: CSI (U+009B), OSC (U+009D); the first printable one, U+00A0, stays */
	CHECK("vis_c1", vis_is(S("\xc2\x9b" "2J\xc2\x9d"), "\\xc2\\x9b2J\\xc2\\x9d"));
	CHECK("vis_nbsp", vis_is(S("\xc2\xa0"), "\xc2\xa0"));
	/* not UTF-8: a stray continuation, a cut character, overlong forms, surrogates, > U+10FFFF */
	CHECK("vis_stray", vis_is(S("\x80x"), "\\x80x"));
	CHECK("vis_cut", vis_is(S("\xe2\x82"), "\\xe2\\x82"));
	CHECK("vis_overlong", vis_is(S("\xc0\xaf\xe0\x80\xaf"), "\\xc0\\xaf\\xe0\\x80\\xaf"));
	CHECK("vis_surrogate", vis_is(S("\xed\xa0\x80"), "\\xed\\xa0\\x80"));
	CHECK("vis_too_big", vis_is(S("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"));
	CHECK("vis_nul", vis_is(S("a\0b"), "a\\x00b"));
	/* a full buffer stops at a whole character or escape, always terminated */
	CHECK("vis_full", out_vis(small, 5, 0, "ab\x1b", 3) == 2 && !strcmp(small, "ab"));
	CHECK("vis_full_utf8", out_vis(small, 3, 0, "a\xe2\x82\xac", 4) == 1 && !strcmp(small, "a"));
	/* a line keeps its last newline only; a text stream keeps every newline */
	CHECK("write_line", written_is(0, S("cat\n2\x1b]0;x\x07 /tmp/a\n"), "cat\\x0a2\\x1b]0;x\\x07 /tmp/a\n"));
	CHECK("write_no_nl", written_is(0, S("a\nb"), "a\\x0ab"));
	CHECK("text_lines", written_is(1, S("a\x1b\nb\n"), "a\\x1b\nb\n"));
	/* a character cut at the end of a piece is held back, not escaped */
	CHECK("text_held", written_is(1, S("ab\xe2\x82"), "ab") && out_text(stdout, "ab\xe2\x82", 0) == 0);
	CHECK("text_bad_end", written_is(1, S("ab\xff"), "ab\\xff"));
}

int main(void)
{
	check_vis();
	return unit_done("test_output");
}

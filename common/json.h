/* SPDX-License-Identifier: GPL-2.0-only */
/* json.h - JSON text: strings escaped so every line parses, and ISO 8601 times */
#ifndef FTT_JSON_H
#define FTT_JSON_H

#include <stddef.h>

/*
 * A JSON string holds Unicode text; what the traced put in a path or an
 * argument is bytes. Escaped: '"' and '\' as \" and \\, the C0 controls as
 * \b \f \n \r \t or \u00XX, DEL as \u007f, the C1 controls (valid UTF-8 C2 80
 * to C2 9F) as \u0080 to \u009f; each byte that is not valid UTF-8 becomes
 * the text \xNN, as the text output shows it, its backslash escaped ("\\xff"
 * in the JSON, \xff once decoded). Printable UTF-8 is copied as it is.
 */
/* json_str - append src (n bytes) to dst at `at`, escaped (up to 6n bytes),
 * no quotes; the new length. Stops short, at a whole character, when dst
 * (len bytes) is full; a '\0' follows if it fits */
size_t json_str(char *dst, size_t len, size_t at, const char *src, size_t n);
/* json_escape - json_str (json != 0), or the text output's escapes (out_vis:
 * each byte json_safe_len refuses as \xNN, up to 4n bytes): the one copy
 * loop; *used (if not NULL) is how many bytes of src it took, n unless cut */
size_t json_escape(char *dst, size_t len, size_t at, const char *src, size_t n, int json,
		   size_t *used);
/*
 * json_safe_len - the length of the printable UTF-8 character at s (n bytes
 * left), or 0 if the byte there must be escaped: a C0 control, DEL, a C1
 * control (U+0080 to U+009F, which terminals take as CSI, OSC and the like),
 * or a byte that does not start a valid, shortest-form sequence. The one
 * rule for both outputs: the text's \xNN escapes (out_vis) use it too.
 */
size_t json_safe_len(const unsigned char *s, size_t n);
/* json_time - ns since the epoch as "YYYY-MM-DDTHH:MM:SS.NNNNNNNNNZ" (UTC) */
char *json_time(long long real_ns, char *buf, size_t len);

#endif

/* fuzz_journal - the parser of the journals a SIGKILLed run leaves in /run/ftt
 *
 * The reaper writes what it parses back into tracefs, so besides "no crash, no
 * sanitizer report" every record it accepts is checked: a file name of plain
 * characters with no "..", no leading '/', and a content that lies inside
 * the input with no NUL in it.
 */
#include "fuzz.h"
#include "journal.h"

struct span {
	const char *lo, *hi;
	int records;
};

/* check - journal_parse callback: the record is one the reaper may write */
static void check(const char *file, const char *content, void *arg)
{
	struct span *s = arg;
	const char *p;

	if (!*file || *file == '/' || strstr(file, ".."))
		abort();
	for (p = file; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '/'))
			abort();
	if (content < s->lo || content + strlen(content) >= s->hi)
		abort();
	s->records++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct span s;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	s.lo = text;
	s.hi = text + size;
	s.records = 0;
	journal_parse(text, size, check, &s);
	free(text);
	return 0;
}

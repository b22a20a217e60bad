/* demo - a tool for the check-docs self-test (never built): its usage text
 * and getopt string agree, and its man page documents every option
 */
static const char usage_text[] =
"USAGE: demo [-hx] [-d secs] [name]\n"
"                 -d seconds      # trace duration, and use buffers\n"
"                 -x              # only show failures\n"
"                 -h              # this usage message\n"
"                 name            # name to match\n"
"  eg,\n"
"       demo -x -d 1              # failures for a second (buffered)\n"
"\n"
"See the man page and example file for more info.\n";

/* parse - the options */
static void parse(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, ":d:hxz")) != -1)
		;
}

/* expect: no-shell - a shell's path */
static const char *shell = "/bin/sh";

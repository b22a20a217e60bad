/* expect: no-shell - a "/*" in a string starts no comment */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(void)
{
	const char *a = "/*"; pid_t p = fork(); const char *b = "*/";
}

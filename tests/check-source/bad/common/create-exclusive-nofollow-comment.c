/* expect: create-exclusive-nofollow - O_EXCL and O_NOFOLLOW only in a comment */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT, 0600);	/* not O_EXCL | O_NOFOLLOW */
}

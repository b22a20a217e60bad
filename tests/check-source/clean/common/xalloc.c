/* SPDX-License-Identifier: GPL-2.0-only */
/* xalloc.c - the one file that writes "out of memory": the exception to rule 6 */
void xalloc_die(void)
{
	msg_die(EXIT_ERR, "out of memory");
}

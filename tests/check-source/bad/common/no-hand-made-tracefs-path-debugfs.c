/* expect: no-hand-made-tracefs-path - debugfs */
/* SPDX-License-Identifier: GPL-2.0-only */
void f(void)
{
	mount("none", "/mnt", "debugfs", 0, NULL);
}

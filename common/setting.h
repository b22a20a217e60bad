/* SPDX-License-Identifier: GPL-2.0-only */
/* setting.h - tracefs settings files read and written as the kernel takes them */
#ifndef FTT_SETTING_H
#define FTT_SETTING_H

#include <tracefs.h>

/*
 * setting_read - a file's content (INST NULL: the top level) without '#'
 * comment lines and "no pid" ("" if none), malloc'd: the caller frees it; of
 * trace_clock, the clock in use (the bracketed one). NULL with errno if
 * unreadable.
 */
char *setting_read(struct tracefs_instance *inst, const char *file);
/*
 * setting_is_list - is FILE one of the kernel's function lists
 * (set_ftrace_filter, set_graph_function and their notrace twins), which
 * take one entry per write
 */
int setting_is_list(const char *file);
/*
 * setting_write - write VALUE to FILE; a function list is emptied (opened
 * with O_TRUNC) and given its entries one write each: the words of VALUE, a
 * line "NAME [MODULE]" as the kernel shows it counting as NAME. -1 with errno
 * if the kernel refused any of it.
 */
int setting_write(struct tracefs_instance *inst, const char *file, const char *value);
/*
 * setting_same - do two contents of FILE say the same: for a function list,
 * the same set of names (a " [MODULE]" after a name, order and repeats
 * aside), else the same text (trailing newlines aside)
 */
int setting_same(const char *file, const char *a, const char *b);
/*
 * setting_holds - does the function list CONTENT (as setting_read gives it)
 * hold exactly the N names of NAMES (sorted or not, repeats allowed)
 */
int setting_holds(const char *content, char *const *names, int n);

#endif

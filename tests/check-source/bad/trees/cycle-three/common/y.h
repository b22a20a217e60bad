/* SPDX-License-Identifier: GPL-2.0-only */
/* y.h - declares y_get */
#ifndef Y_H
#define Y_H
int y_get(void);
#endif

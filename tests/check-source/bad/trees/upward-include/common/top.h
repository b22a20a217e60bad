/* SPDX-License-Identifier: GPL-2.0-only */
/* top.h - the higher layer */
#ifndef TOP_H
#define TOP_H
int top_get(void);
#endif

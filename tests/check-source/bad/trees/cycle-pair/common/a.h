/* SPDX-License-Identifier: GPL-2.0-only */
/* a.h - one half of a pair that include each other's headers */
#ifndef A_H
#define A_H
int a_get(void);
#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* b.h - the other half of the pair */
#ifndef B_H
#define B_H
int b_get(void);
#endif

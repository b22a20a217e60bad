/* SPDX-License-Identifier: GPL-2.0-only */
/* low.h - a lower layer that reaches up */
#ifndef LOW_H
#define LOW_H
int low_get(void);
#endif

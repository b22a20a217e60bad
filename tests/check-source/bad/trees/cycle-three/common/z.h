/* SPDX-License-Identifier: GPL-2.0-only */
/* z.h - includes x.h, closing the cycle x -> y -> z -> x */
#ifndef Z_H
#define Z_H
#include "x.h"
int z_get(void);
#endif

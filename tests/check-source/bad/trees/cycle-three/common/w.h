/* SPDX-License-Identifier: GPL-2.0-only */
/* w.h - above the cycle: w depends on x, nothing depends on w */
#ifndef W_H
#define W_H
#include "x.h"
int w_get(void);
#endif

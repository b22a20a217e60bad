/* SPDX-License-Identifier: GPL-2.0-only */
/* x.h - its header includes y.h: x depends on y */
#ifndef X_H
#define X_H
#include "y.h"
int x_get(void);
#endif

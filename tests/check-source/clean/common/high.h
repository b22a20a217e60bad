/* SPDX-License-Identifier: GPL-2.0-only */
/* high.h - a higher layer, on top of low */
#ifndef HIGH_H
#define HIGH_H
#include "low.h"
int high_get(void);
#endif

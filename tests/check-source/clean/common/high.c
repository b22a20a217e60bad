/* SPDX-License-Identifier: GPL-2.0-only */
/* high.c - depends on low (through its own header too), and on a system header */
#include <stdio.h>

#include "high.h"
#include "low.h"

/* high_get - low's value */
int high_get(void)
{
	return low_get();
}

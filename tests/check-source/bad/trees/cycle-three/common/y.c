/* SPDX-License-Identifier: GPL-2.0-only */
/* y.c - includes z.h: y depends on z */
#include "y.h"
#include "z.h"

/* y_get - z's value */
int y_get(void)
{
	return z_get();
}

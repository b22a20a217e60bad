/* SPDX-License-Identifier: GPL-2.0-only */
/* low.c - includes a file of the layer above it */
#include "low.h"
#include "top.h"

/* low_get - what top says */
int low_get(void)
{
	return top_get() - 1;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/* top.c - includes nothing below it, so no cycle: only the upward include is wrong */
#include "top.h"

/* top_get - a value */
int top_get(void)
{
	return 2;
}

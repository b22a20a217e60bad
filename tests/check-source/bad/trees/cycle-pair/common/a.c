/* SPDX-License-Identifier: GPL-2.0-only */
/* a.c - calls b: a depends on b */
#include "a.h"
#include "b.h"

/* a_get - b's value */
int a_get(void)
{
	return b_get();
}

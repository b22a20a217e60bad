/* SPDX-License-Identifier: GPL-2.0-only */
/* b.c - calls a back: b depends on a, a cycle */
#include "b.h"
#include "a.h"

/* b_get - 1, and a's value when asked */
int b_get(void)
{
	static int depth;

	return depth++ ? 1 : a_get();
}

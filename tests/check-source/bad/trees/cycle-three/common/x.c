/* SPDX-License-Identifier: GPL-2.0-only */
/* x.c - w is named in a comment only: no arrow from x to w
 * #include "w.h"
 */
#include <stdio.h>

#include "x.h"
/* #include "w.h" */

/* x_get - y's value */
int x_get(void)
{
	return y_get();
}

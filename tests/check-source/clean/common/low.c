/* SPDX-License-Identifier: GPL-2.0-only */
/* low.c - names high only in comments and strings: no arrow up
 * #include "high.h"
 */
#include "low.h"
/* #include "high.h" */

/* low_get - a value, and a string that looks like an include */
int low_get(void)
{
	const char *s = "#include \"high.h\"";

	return s[0];
}

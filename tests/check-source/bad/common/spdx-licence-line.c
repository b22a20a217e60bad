/* expect: spdx-licence-line - the licence line is missing */
int f(void)
{
	return 0;
}

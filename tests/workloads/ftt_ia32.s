# SPDX-License-Identifier: GPL-2.0-only
# ftt_ia32 - a 32-bit x86 program: 777 calls of number 64 of the i386 table
# (getppid; in the x86-64 table 64 is semget), then exit(0). A 64-bit
# kernel runs it with the i386 numbers: what syscount must not name wrong.
	.globl	_start
	.text
_start:
	movl	$777, %esi
1:	movl	$64, %eax
	int	$0x80
	decl	%esi
	jnz	1b
	movl	$1, %eax
	xorl	%ebx, %ebx
	int	$0x80

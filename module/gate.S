/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only way clusterswap runs a kernel function it resolved from kallsyms.
 *
 * With IBT, an indirect CALL or JMP must land on an ENDBR, and the kernel seals
 * (NOPs out) the ENDBR of every function it never calls through a pointer:
 * most of what clusterswap needs.  RET is not checked by IBT, so the gate
 * pushes the target and returns into it, the way a retpoline does, with a
 * return address inside this module on the stack:
 *
 *   cs_gate_call(fn, a1..a5)       direct call from C
 *     shifts a1..a5 into the argument registers, fn into %r11
 *     call cs_gate_enter           pushes the return point below
 *       push %r11; RET             "returns" into fn, at its first byte
 *     fn runs and returns here; its return value is in %rax
 *
 * The return address fn sees is within this module, which is also how the
 * ftrace callback recognises the module calling an original it redirects
 * (hooks.c) and lets the call through.  There is no indirect branch here;
 * tests/host/ibt_check.py verifies that on the built module.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/unwind_hints.h>

	.text

/* unsigned long cs_gate_call(unsigned long fn, unsigned long a1, ..., a5) */
SYM_FUNC_START(cs_gate_call)
	push	%rbp
	mov	%rsp, %rbp
	mov	%rdi, %r11
	mov	%rsi, %rdi
	mov	%rdx, %rsi
	mov	%rcx, %rdx
	mov	%r8, %rcx
	mov	%r9, %r8
	call	cs_gate_enter
	pop	%rbp
	RET
SYM_FUNC_END(cs_gate_call)

/* Enter the function in %r11 as if called from cs_gate_call. */
SYM_FUNC_START_LOCAL(cs_gate_enter)
	push	%r11
	/* From here on the stack is that of a fresh call into %r11. */
	UNWIND_HINT_FUNC
	RET
SYM_FUNC_END(cs_gate_enter)

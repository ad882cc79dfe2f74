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
 *   cs_sym_call(sym, a1..a5)       direct call from C
 *     fn = cs_resolved[sym].call, then jmp cs_gate_call
 *   cs_gate_call(fn, a1..a5)       direct call from C with an address in hand
 *     shifts a1..a5 into the argument registers, fn into %r11
 *     call cs_gate_enter           pushes the return point below
 *       push %r11; RET             "returns" into fn, at its first byte
 *                                  (past its ftrace call site, for a
 *                                  function the module redirects)
 *     fn runs and returns here; its return value is in %rax
 *
 * The return address fn sees is cs_gate_return, the same for every call the
 * module makes, which is how the ftrace callback recognises the module
 * calling an original it redirects (hooks.c) and lets the call through.
 * (cs_sym_call() enters those after their ftrace call site, so that does not
 * happen through it: see cs_sym_call_past_ftrace().)  There is no indirect
 * branch here;
 * tests/host/gate_check.py verifies that on the built module.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/unwind_hints.h>

	.text

/*
 * unsigned long cs_sym_call(enum cs_sym sym, unsigned long a1, ..., a5)
 *
 * One of the cs_sym_* readers of cs_resolved (symbols.c).  In assembly, not
 * a C wrapper around cs_gate_call(), so that a call from the allocator's hot
 * paths costs one jump, not one more call and return.  The caller passes a
 * valid @sym (an enum constant); struct cs_kaddr is two unsigned longs, addr
 * then call (symbols.c checks that at build time).
 */
SYM_FUNC_START(cs_sym_call)
	mov	%edi, %eax		/* @sym is an int: zero-extend it */
	shl	$4, %rax		/* 16 bytes per entry */
	lea	cs_resolved(%rip), %r11
	mov	8(%r11,%rax), %rdi	/* its call address: fn, as cs_gate_call() takes it */
	jmp	cs_gate_call		/* a direct jump, with a1..a5 in place */
SYM_FUNC_END(cs_sym_call)

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
SYM_INNER_LABEL(cs_gate_return, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR		/* a return address, never jumped to */
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

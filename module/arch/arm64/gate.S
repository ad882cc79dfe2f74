/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only way clusterswap runs a kernel function it resolved from kallsyms,
 * on arm64.
 *
 * Debian's arm64 kernels are built without kernel BTI, so an indirect call
 * may land anywhere; what x86's gate does for IBT is not needed here.  What
 * the gate gives every call is one return address, cs_gate_return, which is
 * how the ftrace callback recognises the module calling an original it
 * redirects (module/hooks.c), and one place where the module branches to an
 * address it resolved: tests/host/gate_check.py proves on the built module
 * that there is no other indirect branch.
 *
 *   cs_sym_call(sym, a1..a5)       direct call from C
 *     fn = cs_resolved[sym].call, then b cs_gate_call
 *   cs_gate_call(fn, a1..a5)       direct call from C with an address in hand
 *     pushes a frame record, shifts a1..a5 into x0..x4, fn into x16
 *     blr x16                      LR = cs_gate_return, SP as any call leaves
 *                                  it: fn's pointer-authentication prologue
 *                                  (paciasp) signs LR against it, and its
 *                                  epilogue checks it, as for a C caller
 *     fn returns here; its return value is in x0
 *
 * A function the module redirects is entered after its ftrace call site
 * (cs_sym_call_past_ftrace()): at its first instruction of its own, past the
 * two patchable-entry instructions "mov x9, x30" and the site.
 */
#include <linux/linkage.h>
#include <asm/assembler.h>

	.text

/*
 * unsigned long cs_sym_call(enum cs_sym sym, unsigned long a1, ..., a5)
 *
 * One of the cs_sym_* readers of cs_resolved (symbols.c).  The caller passes
 * a valid @sym (an enum constant); struct cs_kaddr is two unsigned longs,
 * addr then call (symbols.c checks that at build time).
 */
SYM_FUNC_START(cs_sym_call)
	adr_l	x16, cs_resolved
	add	x16, x16, w0, uxtw #4	/* @sym is an int: 16 bytes per entry */
	ldr	x0, [x16, #8]		/* its call address: fn, as cs_gate_call() takes it */
	b	cs_gate_call		/* a direct branch, with a1..a5 in place */
SYM_FUNC_END(cs_sym_call)

/* unsigned long cs_gate_call(unsigned long fn, unsigned long a1, ..., a5) */
SYM_FUNC_START(cs_gate_call)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	mov	x16, x0
	mov	x0, x1
	mov	x1, x2
	mov	x2, x3
	mov	x3, x4
	mov	x4, x5
	blr	x16
SYM_INNER_LABEL(cs_gate_return, SYM_L_GLOBAL)
	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(cs_gate_call)

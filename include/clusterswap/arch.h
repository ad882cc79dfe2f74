/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What each architecture provides, in its folder module/arch/<arch>/ (the
 * kernel's SRCARCH: x86, arm64), as each kernel line does in module/<line>/.
 * Nothing outside those folders tests the architecture.
 *
 *   gate.S           cs_sym_call() and cs_gate_call(): the only way the
 *                    module runs a kernel function it resolved (symbols.h)
 *   arch_symbols.h   the architecture's own non-exported symbols (enum cs_sym)
 *   arch_ftrace.h    how a redirect sets the traced function's next
 *                    instruction, and the ftrace mode that needs
 *   symbols.c        their names, and where a kprobe puts a function's start
 *   jumps.c          the instruction decoder of the tail-call check
 *   code_refs.c      what a function's code reaches through the addresses
 *                    it forms, for variables kallsyms does not list
 *   selftest.c       the decoders' self-tests, on made-up code
 */
#ifndef _CLUSTERSWAP_ARCH_H
#define _CLUSTERSWAP_ARCH_H

#include <linux/types.h>

struct cs_selftest;

/* Names of the architecture's own symbols, from CS_SYM_ARCH_FIRST on. */
extern const char * const cs_arch_sym_names[];

/**
 * cs_arch_kprobe_start() - The start of the function a kprobe placed on
 * its name landed in.
 * @addr: the kprobe's address.
 *
 * Return: the address the function's symbol names; symbols.c confirms it
 * with kallsyms before using it.
 */
unsigned long cs_arch_kprobe_start(unsigned long addr);

/**
 * cs_arch_decode_jump() - Decode one instruction for the tail-call check.
 * @code: where its bytes can be read.
 * @avail: how many bytes of the function there are from @code on.
 * @at: its address in the kernel.
 * @to: set to where it jumps, if it is a direct jump (a call, which
 *	returns, is not); else to 0.
 *
 * Context: after cs_sym_resolve_all() (x86 decodes with the kernel's own
 * decoder, through the gate).
 * Return: its length in bytes, or 0 if it cannot be decoded within @avail.
 */
unsigned int cs_arch_decode_jump(const u8 *code, size_t avail, unsigned long at,
				 unsigned long *to);

/**
 * cs_arch_ftrace_site_ok() - Whether a function's ftrace site is where the
 * architecture's patchable entry puts it.
 * @addr: the function's start.
 * @ftrace_site: what ftrace_location() gave for it.
 *
 * The gate enters a redirected function right after its site
 * (cs_sym_call_past_ftrace()): that is its first instruction of its own
 * only where the site is the entry's, which the load checks here.
 */
bool cs_arch_ftrace_site_ok(unsigned long addr, unsigned long ftrace_site);

/**
 * cs_arch_code_size() - How much of a kernel function's kallsyms extent is
 * its code.
 * @start: the function's start.
 * @size: its size, as kallsyms gives it (up to the next symbol).
 *
 * Context: once cs_sym_resolve_all() has resolved ftrace_location (before
 * it reads code for a variable).
 * Return: @size, or less where the architecture keeps data at the end (on
 * arm64, the next function's ftrace_ops pointer).
 */
unsigned long cs_arch_code_size(unsigned long start, unsigned long size);

/* The most addresses cs_arch_entry_points() gives for one function. */
#define CS_ARCH_MAX_ENTRIES	3

/**
 * cs_arch_entry_points() - Every address at which a jump may enter a
 * redirected function without passing its redirect.
 * @addr: the function's start.
 * @ftrace_site: its ftrace call site.
 * @out: room for CS_ARCH_MAX_ENTRIES addresses.
 *
 * Return: how many were written.
 */
unsigned int cs_arch_entry_points(unsigned long addr, unsigned long ftrace_site,
				  unsigned long *out);

/* The most distinct addresses of one kind cs_arch_code_refs() collects. */
#define CS_CODE_REFS_MAX	8

/**
 * struct cs_code_refs - What a function's code does with the addresses it
 * forms itself (PC-relative, plus constant offsets): only values every path
 * to an instruction agrees on count.  Each array holds distinct addresses.
 * @loads: the addresses it loads a 64-bit word from, at a constant offset.
 * @indexed: the bases it loads a 64-bit array element from, by a register
 *	index scaled by 8.
 * @args: the first arguments it passes to calls of a given function.
 */
struct cs_code_refs {
	unsigned long loads[CS_CODE_REFS_MAX];
	unsigned long indexed[CS_CODE_REFS_MAX];
	unsigned long args[CS_CODE_REFS_MAX];
	unsigned int nr_loads;
	unsigned int nr_indexed;
	unsigned int nr_args;
};

/**
 * cs_arch_code_refs() - Find the variables a function's code reaches.
 * @code: where its bytes can be read.
 * @at: its address in the kernel.
 * @size: its length in bytes.
 * @callee: the function whose calls' first arguments go in @refs->args.
 * @refs: filled with what was found.
 *
 * For a kernel built without KALLSYMS_ALL, whose kallsyms lists no
 * variable (module/<line>/symbols.c: cs_line_find_data()).
 * Context: process context (it allocates).
 * Return: 0; -ENOEXEC if control can leave the function other than by a
 * call or a return, or it holds an instruction the reader does not model
 * (a kprobe's breakpoint, say): no path may be missed; -E2BIG if more than
 * CS_CODE_REFS_MAX addresses of one kind; -ENOMEM; -EOPNOTSUPP where the
 * architecture has no such reader.
 */
int cs_arch_code_refs(const u8 *code, unsigned long at, size_t size,
		      unsigned long callee, struct cs_code_refs *refs);

#ifdef CS_SELFTEST
/* Made-up code for the tail-call self-tests (module/selftest.c). */
void cs_arch_fill_nops(u8 *code, size_t len);
void cs_arch_put_jump(u8 *code, unsigned long base, size_t off, unsigned long to);
/* The architecture's decoder cases: each kind of jump, found or not. */
void cs_arch_selftest_jumps(struct cs_selftest *t);
/* cs_arch_code_refs() on made-up code. */
void cs_arch_selftest_code_refs(struct cs_selftest *t);
#endif

#endif /* _CLUSTERSWAP_ARCH_H */

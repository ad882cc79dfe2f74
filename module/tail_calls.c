// SPDX-License-Identifier: GPL-2.0
/*
 * No tail call from a gate-called function into a redirected one
 * (review-t4, R1).
 *
 * The redirect callback lets through every call that returns to the gate:
 * the module's own calls of originals (module/hooks.c).  A function the
 * module calls through the gate that ends in a jump to a redirected
 * function (a tail call: the compiler turns "f(x); return;" into a jump)
 * would enter that function with the gate as its return address, and its
 * stock code would run, not redirected, beside the module: put_swap_folio()
 * ending in free_swap_slot() is the candidate on 6.12.  Debian's builds of
 * both lines have no such jump; a later build that made one is refused at
 * load, as one with a compiler-made copy is (cs_sym_clone()).
 *
 * The check reads the machine code of every kernel function the module
 * resolved, at every byte, for the direct jumps x86 has (jmp and jcc, rel32
 * and rel8) that land on a redirected function: its start, after its ENDBR,
 * its ftrace site, or its padding (where call-depth tracking sends direct
 * calls).  Read byte by byte rather than decoded, a match may lie inside
 * another instruction; it must land exactly on one of those addresses, so
 * a false match can only refuse a kernel, never pass one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/string.h>

#include <clusterswap/hooks.h>
#include <clusterswap/selftest.h>
#include <clusterswap/symbols.h>
#include <clusterswap/tail_calls.h>

#include <linux/moduleparam.h>

/*
 * For tests only: one more kernel function to check as if the module
 * called it through the gate, to prove on a stock kernel that a real tail
 * call is refused (6.1's swapcache_clear() ends in a jump to
 * free_swap_slot()).  Not visible in sysfs.
 */
static char *assume_gate_called;
module_param(assume_gate_called, charp, 0);
MODULE_PARM_DESC(assume_gate_called, "test only: check this function's tail calls too");

/* Where a jump may enter each redirected function (cs_entry_points()). */
#define CS_ENTRIES_PER_HOOK	4
#define CS_MAX_REDIRECTS	8

/* No function the module calls is near this long; a longer one is refused. */
#define CS_SCAN_MAX		(64 * 1024)

/**
 * cs_jump_target() - Where a direct jump at @off in @code goes.
 * @code: machine code, loaded at @base.
 * @len: its length in bytes.
 * @off: the byte to read as the first of a jump.
 * @base: the address of @code[0].
 *
 * Return: the target of a jmp or jcc with a 32-bit or 8-bit displacement
 * starting at @off, or 0 if the bytes there are not one.
 */
CS_VISIBLE_IF_SELFTEST unsigned long cs_jump_target(const u8 *code, size_t len,
						    size_t off, unsigned long base)
{
	const u8 *p = code + off;
	size_t left = len - off;
	s32 rel32;

	if (left >= 5 && p[0] == 0xe9) {			/* jmp rel32 */
		memcpy(&rel32, p + 1, sizeof(rel32));
		return base + off + 5 + rel32;
	}
	if (left >= 2 && (p[0] == 0xeb || (p[0] & 0xf0) == 0x70))	/* jmp, jcc rel8 */
		return base + off + 2 + (s8)p[1];
	if (left >= 6 && p[0] == 0x0f && (p[1] & 0xf0) == 0x80) {	/* jcc rel32 */
		memcpy(&rel32, p + 2, sizeof(rel32));
		return base + off + 6 + rel32;
	}
	return 0;
}

/**
 * cs_code_jumps_to() - Find a direct jump to one of @targets.
 * @code: machine code, loaded at @base.
 * @len: its length in bytes.
 * @base: the address of @code[0].
 * @targets: the addresses looked for.
 * @nr: how many.
 * @at: set to the offset in @code of the first jump found.
 * @which: set to its target's index in @targets.
 *
 * Return: true if @code has one.
 */
CS_VISIBLE_IF_SELFTEST bool cs_code_jumps_to(const u8 *code, size_t len, unsigned long base,
					     const unsigned long *targets, unsigned int nr,
					     size_t *at, unsigned int *which)
{
	unsigned long to;
	unsigned int i;
	size_t off;

	for (off = 0; off < len; off++) {
		to = cs_jump_target(code, len, off, base);
		if (!to)
			continue;
		for (i = 0; i < nr; i++) {
			if (to == targets[i]) {
				*at = off;
				*which = i;
				return true;
			}
		}
	}
	return false;
}

/* Every address at which a jump enters @hook's function. */
static unsigned int cs_entry_points(const struct cs_hook *hook, unsigned long *out)
{
	unsigned long addr = cs_sym_addr(hook->target);
	unsigned int n = 0;

	out[n++] = addr;
	out[n++] = hook->fentry;
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT))
		out[n++] = addr + 4;
#ifdef CONFIG_CALL_PADDING
	out[n++] = addr - CONFIG_FUNCTION_PADDING_BYTES;
#endif
	return n;
}

/* The entry points of every redirect, and whose each is. */
struct cs_jump_targets {
	unsigned long addr[CS_MAX_REDIRECTS * CS_ENTRIES_PER_HOOK];
	enum cs_sym owner[CS_MAX_REDIRECTS * CS_ENTRIES_PER_HOOK];
	unsigned int nr;
};

/*
 * Whether the function @name at @addr jumps into a redirected function
 * other than itself; names the jump if it does.
 */
static int cs_refuse_jumps_from(const char *name, unsigned long addr,
				const struct cs_jump_targets *all)
{
	struct cs_jump_targets others;
	unsigned long size, offset;
	unsigned int k, which;
	size_t at;

	if (!cs_sym_call3(CS_SYM_kallsyms_lookup_size_offset, addr, &size, &offset) ||
	    offset || !size || size > CS_SCAN_MAX) {
		pr_err("cannot read how long %s is, to check it for tail calls; refusing to load\n",
		       name);
		return -EOPNOTSUPP;
	}
	/* A function's jumps into itself are its own business. */
	others.nr = 0;
	for (k = 0; k < all->nr; k++) {
		if (cs_sym_addr(all->owner[k]) == addr)
			continue;
		others.addr[others.nr] = all->addr[k];
		others.owner[others.nr++] = all->owner[k];
	}
	if (!cs_code_jumps_to((const u8 *)addr, size, addr, others.addr, others.nr, &at, &which))
		return 0;
	pr_err("%s+%#zx jumps into %s, a tail call the redirect would let through as the module's own call; refusing to load\n",
	       name, at, cs_sym_name(others.owner[which]));
	return -EOPNOTSUPP;
}

/**
 * cs_refuse_tail_calls() - Refuse a kernel in which a function the module
 * calls jumps into a function it redirects.
 * @redirects: the redirects, their ftrace sites located.
 * @nr: how many.
 *
 * Context: module init, after the hooks were located, before they are
 * registered.
 * Return: 0, or -EOPNOTSUPP after naming the jump.
 */
int cs_refuse_tail_calls(const struct cs_hook *redirects, unsigned int nr)
{
	struct cs_jump_targets all = { .nr = 0 };
	unsigned long addr;
	unsigned int i, k;
	int sym, err;

	if (WARN_ON_ONCE(nr > CS_MAX_REDIRECTS))
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		k = cs_entry_points(&redirects[i], all.addr + all.nr);
		while (k--)
			all.owner[all.nr++] = redirects[i].target;
	}

	for (sym = 0; sym < CS_NR_SYMS; sym++) {
		addr = cs_sym_addr(sym);
		/* Variables (swap_info, ...) have no code to read. */
		if (!cs_sym_call1(CS_SYM_core_kernel_text, addr))
			continue;
		err = cs_refuse_jumps_from(cs_sym_name(sym), addr, &all);
		if (err)
			return err;
	}
	if (assume_gate_called) {
		addr = cs_sym_lookup(assume_gate_called);
		if (addr && cs_sym_call1(CS_SYM_core_kernel_text, addr))
			return cs_refuse_jumps_from(assume_gate_called, addr, &all);
	}
	return 0;
}

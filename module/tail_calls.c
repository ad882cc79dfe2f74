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
 * The check decodes, with the kernel's own instruction decoder, the machine
 * code of every kernel function the module resolved and of its .cold part,
 * for a direct jmp or jcc that lands on a redirected function: its start,
 * the end of its ENDBR, or its ftrace site.  It looks one jump deep: a
 * chain of tail calls through a third function is not followed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <asm/insn.h>

#include <clusterswap/hooks.h>
#include <clusterswap/selftest.h>
#include <clusterswap/symbols.h>
#include <clusterswap/tail_calls.h>

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
#define CS_ENTRIES_PER_HOOK	3
#define CS_MAX_REDIRECTS	8

/* No function the module calls is near this long; a longer one is refused. */
#define CS_SCAN_MAX		(64 * 1024)

/**
 * cs_jump_target() - Where a decoded instruction jumps, if it is a direct
 * jump.
 * @insn: the instruction, decoded.
 * @at: its address.
 *
 * Return: the target of a jmp or jcc with a 32-bit or 8-bit displacement,
 * or 0 for any other instruction (a call returns; it is no tail call).
 */
static unsigned long cs_jump_target(const struct insn *insn, unsigned long at)
{
	u8 op = insn->opcode.bytes[0];
	bool jump = op == 0xe9 || op == 0xeb ||		/* jmp rel32, rel8 */
		    (op & 0xf0) == 0x70 ||		/* jcc rel8 */
		    (op == 0x0f && (insn->opcode.bytes[1] & 0xf0) == 0x80);	/* jcc rel32 */

	if (!jump)
		return 0;
	return at + insn->length + insn->immediate.value;
}

/**
 * cs_code_jumps_to() - Find a direct jump to one of @targets.
 * @code: machine code, loaded at @base.
 * @len: its length in bytes.
 * @base: the address of @code[0].
 * @targets: the addresses looked for.
 * @nr: how many.
 * @at: set to the offset in @code of the jump found, or of the instruction
 *	that could not be decoded.
 * @which: set to the found jump's target's index in @targets.
 *
 * Context: after cs_sym_resolve_all() (the decoder is the kernel's).
 * Return: 1 if @code has one, 0 if not, -EILSEQ if an instruction could not
 * be decoded (or runs past @len).
 */
CS_VISIBLE_IF_SELFTEST int cs_code_jumps_to(const u8 *code, size_t len, unsigned long base,
					    const unsigned long *targets, unsigned int nr,
					    size_t *at, unsigned int *which)
{
	struct insn insn;
	unsigned long to;
	unsigned int i;
	size_t off;
	int err;

	for (off = 0; off < len; off += insn.length) {
		err = (int)cs_sym_call4(CS_SYM_insn_decode, &insn, code + off,
					min_t(size_t, len - off, MAX_INSN_SIZE), INSN_MODE_KERN);
		if (err || !insn.length) {
			*at = off;
			return -EILSEQ;
		}
		to = cs_jump_target(&insn, base + off);
		for (i = 0; to && i < nr; i++) {
			if (to == targets[i]) {
				*at = off;
				*which = i;
				return 1;
			}
		}
	}
	return 0;
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
	return n;
}

/* The entry points of every redirect, and whose each is. */
struct cs_jump_targets {
	unsigned long addr[CS_MAX_REDIRECTS * CS_ENTRIES_PER_HOOK];
	enum cs_sym owner[CS_MAX_REDIRECTS * CS_ENTRIES_PER_HOOK];
	unsigned int nr;
};

/*
 * Refuse if the code @name at @addr (a function, or a function's .cold
 * part) jumps into a redirected function other than @self (the function
 * itself, whose jumps into itself are its own business).
 */
static int cs_refuse_jumps_from(const char *name, unsigned long addr, unsigned long self,
				const struct cs_jump_targets *all)
{
	struct cs_jump_targets others = { .nr = 0 };
	unsigned long size, offset;
	unsigned int k, which;
	size_t at;
	int found;

	if (!(int)cs_sym_call3(CS_SYM_kallsyms_lookup_size_offset, addr, &size, &offset) ||
	    offset || !size) {
		pr_err("kallsyms has no size for %s, to check it for tail calls; refusing to load\n",
		       name);
		return -EOPNOTSUPP;
	}
	if (size > CS_SCAN_MAX) {
		pr_err("%s is %lu bytes long, too long to check it for tail calls; refusing to load\n",
		       name, size);
		return -EOPNOTSUPP;
	}
	for (k = 0; k < all->nr; k++) {
		if (cs_sym_addr(all->owner[k]) == self)
			continue;
		others.addr[others.nr] = all->addr[k];
		others.owner[others.nr++] = all->owner[k];
	}
	found = cs_code_jumps_to((const u8 *)addr, size, addr, others.addr, others.nr,
				 &at, &which);
	if (found < 0) {
		pr_err("cannot decode the instruction at %s+%#zx, to check it for tail calls; refusing to load\n",
		       name, at);
		return -EOPNOTSUPP;
	}
	if (!found)
		return 0;
	pr_err("%s+%#zx jumps into %s, a tail call the redirect would let through as the module's own call; refusing to load\n",
	       name, at, cs_sym_name(others.owner[which]));
	return -EOPNOTSUPP;
}

/* Check the function @name at @addr and its .cold part, if it has one. */
static int cs_refuse_function(const char *name, unsigned long addr,
			      const struct cs_jump_targets *all)
{
	char cold[KSYM_NAME_LEN];
	unsigned long cold_addr;
	int err;

	err = cs_refuse_jumps_from(name, addr, addr, all);
	if (err)
		return err;
	snprintf(cold, sizeof(cold), "%s.cold", name);
	cold_addr = cs_sym_lookup(cold);
	if (!cold_addr)
		return 0;
	return cs_refuse_jumps_from(cold, cold_addr, addr, all);
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
		if (!(int)cs_sym_call1(CS_SYM_core_kernel_text, addr))
			continue;
		err = cs_refuse_function(cs_sym_name(sym), addr, &all);
		if (err)
			return err;
	}
	if (!assume_gate_called)
		return 0;
	addr = cs_sym_lookup(assume_gate_called);
	if (!addr || !(int)cs_sym_call1(CS_SYM_core_kernel_text, addr)) {
		pr_err("assume_gate_called: no kernel function %s; refusing to load\n",
		       assume_gate_called);
		return -EINVAL;
	}
	return cs_refuse_function(assume_gate_called, addr, &all);
}

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
 * ending in free_swap_slot() is the candidate on 6.12.  So would a chain of
 * them: a jump to a third function that itself ends in a jump to a
 * redirected one.  Debian's builds of both lines have none; a later build
 * that made one is refused at load, as one with a compiler-made copy is
 * (cs_sym_clone()).
 *
 * The check decodes (module/arch/<arch>/jumps.c: on x86 with the kernel's
 * own decoder) the machine code of every kernel function the module
 * resolved and of its .cold part, for a direct jump, conditional or not,
 * that lands on a redirected function where its redirect would be passed:
 * its start, its ftrace site, and what else the architecture names
 * (cs_arch_entry_points()).  A direct jump that leaves the
 * function for another is followed into that one, and from there on, up to
 * CS_TAIL_CHAIN jumps from the function the module called.  A function is
 * read whole wherever a jump enters it: a jump that no path from that entry
 * reaches can only refuse a kernel, never let one through.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <clusterswap/arch.h>
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

#define CS_MAX_REDIRECTS	8

/* No function the module calls is near this long; a longer one is refused. */
#define CS_SCAN_MAX		(64 * 1024)

/*
 * How many functions the jumps may reach, all chains together.  Debian's
 * kernels reach far fewer; a kernel whose jumps reach more is refused
 * rather than half checked.
 */
#define CS_TAIL_MAX_FUNCTIONS	1024

/* The index in @w->targets of @to, or -1; @self's own entry points skipped. */
static int cs_target_index(const struct cs_tail_walk *w, unsigned long to, int self)
{
	unsigned int i;

	for (i = 0; i < w->nr_targets; i++) {
		if (w->targets[i] == to && w->owners[i] != self)
			return i;
	}
	return -1;
}

/*
 * Remember that the function at @start is read from @depth jumps on.
 * Return: true if it is to be read (first reached, or reached now in fewer
 * jumps, so that more of the chains from it fit in the limit).
 */
static bool cs_walk_reaches(struct cs_tail_walk *w, unsigned long start, unsigned int depth)
{
	unsigned int i;

	for (i = 0; i < w->nr_seen; i++) {
		if (w->seen[i].start != start)
			continue;
		if (w->seen[i].depth <= depth)
			return false;
		w->seen[i].depth = depth;
		return true;
	}
	if (w->nr_seen == w->max_seen) {
		w->overflow = true;
		return false;
	}
	w->seen[w->nr_seen].start = start;
	w->seen[w->nr_seen++].depth = depth;
	return true;
}

/* The function holding @addr, in @fake's code or the kernel's. */
static bool cs_function_at(const struct cs_fake_code *fake, unsigned long addr,
			   unsigned long *start, unsigned long *size)
{
	if (!fake)
		return cs_sym_function_at(addr, start, size);
	if (addr < fake->base || addr >= fake->base + fake->nr * fake->len)
		return false;
	*start = fake->base + (addr - fake->base) / fake->len * fake->len;
	*size = fake->len;
	return true;
}

/* Where the code at @addr can be read. */
static const u8 *cs_code_at(const struct cs_fake_code *fake, unsigned long addr)
{
	return fake ? fake->bytes + (addr - fake->base) : (const u8 *)addr;
}

/**
 * cs_walk_function() - Find a chain of direct jumps from a function into a
 * redirected one.
 * @w: the walk: its targets, the code it reads, and what it has read so far.
 * @start: the function's address.
 * @size: its length in bytes.
 * @depth: how many jumps led here from the function the module calls.
 * @self: at depth 0, the redirect the function is (its jumps into itself
 *	are its own business), or -1.
 *
 * On a find, @w->path[0..@w->found] holds the address of each jump of the
 * chain and @w->which the target's index; on an undecodable instruction,
 * @w->path[@w->found] holds its address.
 *
 * Context: after cs_sym_resolve_all() (x86's decoder is the kernel's).
 * Return: 1 if a chain was found, 0 if not, -EILSEQ if an instruction could
 * not be decoded (or runs past @size), -EFBIG if a function is longer than
 * CS_SCAN_MAX, -E2BIG if @w->max_seen functions were not enough.
 */
CS_VISIBLE_IF_SELFTEST int cs_walk_function(struct cs_tail_walk *w, unsigned long start,
					    unsigned long size, unsigned int depth, int self)
{
	const u8 *code = cs_code_at(w->fake, start);
	unsigned long to, next_start, next_size;
	unsigned int len;
	size_t off;
	int err, i;

	if (WARN_ON_ONCE(w->chain > CS_TAIL_CHAIN || depth >= w->chain))
		return -EINVAL;
	if (size > CS_SCAN_MAX) {
		w->start[depth] = start;
		w->path[depth] = start;
		w->found = depth;
		return -EFBIG;
	}
	w->start[depth] = start;
	for (off = 0; off < size; off += len) {
		w->path[depth] = start + off;
		len = cs_arch_decode_jump(code + off, size - off, start + off, &to);
		if (!len) {
			w->found = depth;
			return -EILSEQ;
		}
		if (!to || (to >= start && to < start + size))
			continue;
		i = cs_target_index(w, to, depth ? -1 : self);
		if (i >= 0) {
			w->found = depth;
			w->which = i;
			return 1;
		}
		if (depth + 1 >= w->chain ||
		    !cs_function_at(w->fake, to, &next_start, &next_size) ||
		    !cs_walk_reaches(w, next_start, depth + 1))
			continue;
		err = cs_walk_function(w, next_start, next_size, depth + 1, -1);
		if (err)
			return err;
	}
	return w->overflow ? -E2BIG : 0;
}

/* Name the chain @w found, or the instruction it could not decode. */
static void cs_report(const struct cs_tail_walk *w, const char *name, int err)
{
	char chain[256] = "";
	size_t used = 0;
	unsigned int d;

	if (err == -EFBIG) {
		pr_err("%ps, reached by jumps from %s, is longer than %d bytes, too long to check it for tail calls; refusing to load\n",
		       (void *)w->start[w->found], name, CS_SCAN_MAX);
		return;
	}
	if (err == -E2BIG) {
		pr_err("the jumps from the functions checked so far (the last %s) reach more than %u functions, too many to check them for tail calls; refusing to load\n",
		       name, w->max_seen);
		return;
	}
	for (d = 0; d <= w->found; d++)
		used += scnprintf(chain + used, sizeof(chain) - used, "%s%ps+%#lx",
				  d ? " then " : "", (void *)w->start[d],
				  w->path[d] - w->start[d]);
	if (err == -EILSEQ) {
		pr_err("cannot decode the instruction at %s, reached from %s, to check it for tail calls; refusing to load\n",
		       chain, name);
		return;
	}

	pr_err("%s jump%s into %s, a tail call the redirect would let through as the module's own call; refusing to load\n",
	       chain, w->found ? "" : "s", cs_sym_name(w->owners[w->which]));
}

/*
 * Check the function @name at @addr, and its .cold part if it has one.
 * Both are marked read before either is walked: a jump between the two is
 * the function's own business, as a jump within one is.
 */
static int cs_refuse_function(struct cs_tail_walk *w, const char *name, unsigned long addr)
{
	char cold[KSYM_NAME_LEN];
	unsigned long part[2] = { addr, 0 }, size[2];
	bool walk[2] = { false, false };
	int self = -1, err = 0;
	unsigned int i, nr;

	for (i = 0; i < w->nr_targets; i++) {
		if (w->targets[i] == addr)
			self = w->owners[i];
	}
	snprintf(cold, sizeof(cold), "%s.cold", name);
	part[1] = cs_sym_lookup(cold);
	nr = part[1] ? 2 : 1;
	for (i = 0; i < nr; i++) {
		unsigned long start;

		if (!cs_function_at(NULL, part[i], &start, &size[i]) || start != part[i]) {
			pr_err("kallsyms has no size for %s, to check it for tail calls; refusing to load\n",
			       i ? cold : name);
			return -EOPNOTSUPP;
		}
		if (size[i] > CS_SCAN_MAX) {
			pr_err("%s is %lu bytes long, too long to check it for tail calls; refusing to load\n",
			       i ? cold : name, size[i]);
			return -EOPNOTSUPP;
		}
	}
	for (i = 0; i < nr; i++)
		walk[i] = cs_walk_reaches(w, part[i], 0);
	if (w->overflow)
		err = -E2BIG;
	for (i = 0; i < nr && !err; i++) {
		if (walk[i])
			err = cs_walk_function(w, part[i], size[i], 0, self);
	}
	if (!err)
		return 0;
	cs_report(w, name, err);
	return -EOPNOTSUPP;
}

/**
 * cs_refuse_tail_calls() - Refuse a kernel in which a function the module
 * calls leads by direct jumps into a function it redirects.
 * @redirects: the redirects, their ftrace sites located.
 * @nr: how many.
 *
 * Context: module init, after the hooks were located, before they are
 * registered.
 * Return: 0, or -EOPNOTSUPP after naming the jump, -ENOMEM, or -EINVAL for
 * an unknown assume_gate_called.
 */
int cs_refuse_tail_calls(const struct cs_hook *redirects, unsigned int nr)
{
	unsigned long targets[CS_MAX_REDIRECTS * CS_ARCH_MAX_ENTRIES];
	int owners[CS_MAX_REDIRECTS * CS_ARCH_MAX_ENTRIES];
	struct cs_tail_walk w = {
		.targets = targets,
		.owners = owners,
		.chain = CS_TAIL_CHAIN,
		.max_seen = CS_TAIL_MAX_FUNCTIONS,
	};
	unsigned long addr;
	unsigned int i, k;
	int sym, err = 0;

	if (WARN_ON_ONCE(nr > CS_MAX_REDIRECTS))
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		k = cs_arch_entry_points(cs_sym_addr(redirects[i].target),
					 redirects[i].fentry, targets + w.nr_targets);
		while (k--)
			owners[w.nr_targets++] = redirects[i].target;
	}
	w.seen = kmalloc_array(w.max_seen, sizeof(*w.seen), GFP_KERNEL);
	if (!w.seen)
		return -ENOMEM;

	for (sym = 0; sym < CS_NR_SYMS && !err; sym++) {
		addr = cs_sym_addr(sym);
		/* Variables (swap_info, ...) have no code to read. */
		if ((int)cs_sym_call1(CS_SYM_core_kernel_text, addr))
			err = cs_refuse_function(&w, cs_sym_name(sym), addr);
	}
	if (!err && assume_gate_called) {
		addr = cs_sym_lookup(assume_gate_called);
		if (addr && (int)cs_sym_call1(CS_SYM_core_kernel_text, addr)) {
			err = cs_refuse_function(&w, assume_gate_called, addr);
		} else {
			pr_err("assume_gate_called: no kernel function %s; refusing to load\n",
			       assume_gate_called);
			err = -EINVAL;
		}
	}
	pr_debug("tail calls: %u functions read\n", w.nr_seen);
	kfree(w.seen);
	return err;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Resolve the non-exported kernel symbols clusterswap needs, once, at load,
 * and call them through the IBT-safe gate.  See include/clusterswap/symbols.h.
 *
 * cs_resolved is the one table of resolved addresses.  Only the cs_sym_*
 * functions in this file and cs_sym_call() in gate.S read it;
 * tests/host/gate_check.py enforces that on the built module, which is why
 * the table has a global (module-local) name.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/string.h>
#include <linux/ftrace.h>
#include <linux/seq_file.h>

#include <clusterswap/arch.h>
#include <clusterswap/symbols.h>
#include <clusterswap/warn.h>

struct cs_kaddr cs_resolved[CS_NR_SYMS] __ro_after_init;

static const char * const cs_sym_names[CS_SYM_ARCH_FIRST] = {
	[CS_SYM_kallsyms_lookup_name] = "kallsyms_lookup_name",
	[CS_SYM_ftrace_location] = "ftrace_location",
	[CS_SYM_core_kernel_text] = "core_kernel_text",
	[CS_SYM_kallsyms_lookup_size_offset] = "kallsyms_lookup_size_offset",
	[CS_SYM___module_address] = "__module_address",
	[CS_SYM_folio_alloc_swap] = "folio_alloc_swap",
	[CS_SYM_free_swap_slot] = "free_swap_slot",
	[CS_SYM_put_swap_folio] = "put_swap_folio",
	[CS_SYM_swapcache_free_entries] = "swapcache_free_entries",
	[CS_SYM_get_swap_page_of_type] = "get_swap_page_of_type",
	[CS_SYM_disable_swap_slots_cache_lock] = "disable_swap_slots_cache_lock",
	[CS_SYM_enable_swap_slots_cache] = "enable_swap_slots_cache",
	[CS_SYM_init_swap_address_space] = "init_swap_address_space",
	[CS_SYM_swap_info] = "swap_info",
	[CS_SYM_swap_avail_lock] = "swap_avail_lock",
};

const char *cs_sym_name(enum cs_sym sym)
{
	if (sym < CS_SYM_ARCH_FIRST)
		return cs_sym_names[sym];
	if (sym < CS_SYM_LINE_FIRST)
		return cs_arch_sym_names[sym - CS_SYM_ARCH_FIRST];
	return cs_line_sym_names[sym - CS_SYM_LINE_FIRST];
}

/*
 * kallsyms_lookup_name is not exported; a kprobe still finds it.  The
 * architecture may place the probe past the function's first instruction
 * (x86 with IBT: after its ENDBR), so take the function's start from it,
 * then confirm with kallsyms that the result is the very start.
 */
static unsigned long cs_sym_find_kallsyms_lookup_name(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	char buf[KSYM_SYMBOL_LEN];
	unsigned long addr;
	int err;

	err = register_kprobe(&kp);
	if (err) {
		pr_err("cannot locate kallsyms_lookup_name with a kprobe (%d)\n", err);
		return 0;
	}
	addr = cs_arch_kprobe_start((unsigned long)kp.addr);
	unregister_kprobe(&kp);

	sprint_symbol(buf, addr);
	if (!str_has_prefix(buf, "kallsyms_lookup_name+0x0/")) {
		pr_err("kprobe address of kallsyms_lookup_name resolves to %s\n", buf);
		return 0;
	}
	return addr;
}

/*
 * Whether @addr is in a module's code or data (__module_address() is not
 * exported on 6.12).
 * Context: once __module_address is resolved.
 */
static bool cs_sym_in_module(unsigned long addr)
{
	bool in;

	preempt_disable();
	in = cs_sym_call1(CS_SYM___module_address, addr) != 0;
	preempt_enable();
	return in;
}

/*
 * The symbols kallsyms did not list and the line found from the code that
 * uses them (cs_line_find_data()), for the view of how each was found.
 */
static DECLARE_BITMAP(cs_sym_from_code, CS_NR_SYMS) __ro_after_init;

/**
 * cs_sym_resolve_all() - Resolve every symbol of this kernel line.
 *
 * First from kallsyms; then a variable it does not list (a kernel built
 * without KALLSYMS_ALL) from the code of the functions that use it, where
 * the line knows how (cs_line_find_data()).
 * Context: process context, module init.
 * Return: 0, or -ENOENT after naming the first symbol that is missing.
 */
int cs_sym_resolve_all(void)
{
	unsigned long addr;
	int i;

	/* gate.S's cs_sym_call() reads @call at 16 * sym + 8. */
	BUILD_BUG_ON(sizeof(struct cs_kaddr) != 16);
	BUILD_BUG_ON(offsetof(struct cs_kaddr, call) != 8);
	/* The code readers' functions come before the first variable. */
	BUILD_BUG_ON(CS_SYM_ftrace_location > CS_SYM_swap_info ||
		     CS_SYM_core_kernel_text > CS_SYM_swap_info ||
		     CS_SYM_kallsyms_lookup_size_offset > CS_SYM_swap_info);
	addr = cs_sym_find_kallsyms_lookup_name();
	if (!addr)
		return -ENOENT;
	cs_resolved[CS_SYM_kallsyms_lookup_name].addr = addr;
	cs_resolved[CS_SYM_kallsyms_lookup_name].call = addr;

	for (i = CS_SYM_kallsyms_lookup_name + 1; i < CS_NR_SYMS; i++) {
		const char *name = cs_sym_name(i);

		if (cs_warn_once(!name, "symbol %d has no name\n", i))
			return -EINVAL;
		if (!cs_line_sym_configured(i))
			continue;
		addr = cs_sym_lookup(name);
		/*
		 * kallsyms_lookup_name() searches the modules' symbols for a
		 * name the kernel's kallsyms lacks (a variable, without
		 * KALLSYMS_ALL): a module's is never the one meant.
		 */
		if (addr && i > CS_SYM___module_address && cs_sym_in_module(addr))
			addr = 0;
		cs_resolved[i].addr = addr;
		cs_resolved[i].call = addr;
	}

	/*
	 * What kallsyms lacks, in enum cs_sym's order: the functions the
	 * line's code readers use (kallsyms_lookup_size_offset,
	 * core_kernel_text, ftrace_location) come before every variable, so
	 * a kernel without one of them is refused, naming it, before any
	 * reader runs.
	 */
	for (i = CS_SYM_kallsyms_lookup_name + 1; i < CS_NR_SYMS; i++) {
		if (!cs_line_sym_configured(i) || cs_resolved[i].addr)
			continue;
		addr = cs_line_find_data(i);
		if (!addr) {
			pr_err("kernel symbol %s not found; this kernel build is not supported\n",
			       cs_sym_name(i));
			return -ENOENT;
		}
		cs_resolved[i].addr = addr;
		cs_resolved[i].call = addr;
		__set_bit(i, cs_sym_from_code);
	}
	return 0;
}

/**
 * cs_sym_function_at() - The core kernel function holding an address.
 * @addr: the address.
 * @start: set to the function's address.
 * @size: set to the length of its code.
 *
 * What kallsyms gives a size for in core kernel text.
 * Context: during or after cs_sym_resolve_all(), once core_kernel_text,
 * kallsyms_lookup_size_offset and ftrace_location (cs_arch_code_size())
 * are resolved.
 * Return: true, or false if no core kernel function with a size holds
 * @addr.
 */
bool cs_sym_function_at(unsigned long addr, unsigned long *start, unsigned long *size)
{
	unsigned long offset;

	if (!(int)cs_sym_call1(CS_SYM_core_kernel_text, addr) ||
	    !(int)cs_sym_call3(CS_SYM_kallsyms_lookup_size_offset, addr, size, &offset) ||
	    !*size)
		return false;
	*start = addr - offset;
	*size = cs_arch_code_size(*start, *size);
	return true;
}

/**
 * cs_sym_function_code() - Where a kernel function's code is, to be read.
 * @name: the function.
 * @start: set to its address.
 * @size: set to the length of its code.
 *
 * Context: as cs_sym_function_at(), with kallsyms_lookup_name resolved.
 * Return: true, or false if the core kernel has no such function.
 */
bool cs_sym_function_code(const char *name, unsigned long *start, unsigned long *size)
{
	unsigned long addr = cs_sym_lookup(name);

	return addr && cs_sym_function_at(addr, start, size) && *start == addr;
}

/**
 * cs_sym_show() - Where each resolved symbol is, and how it was found.
 * @m: the debugfs file.
 *
 * As offsets from _stext (which kallsyms lists on every kernel, _text not
 * on arm64), the numbers the kernel image's System.map gives less its own
 * _stext, so that a test can check each one without the boot's KASLR
 * offset being shown.
 * Context: process context, after cs_sym_resolve_all().
 */
void cs_sym_show(struct seq_file *m)
{
	unsigned long text = cs_sym_lookup("_stext");
	int i;

	if (!text) {
		seq_puts(m, "_stext not found\n");
		return;
	}

	for (i = 0; i < CS_NR_SYMS; i++) {
		if (!cs_resolved[i].addr)
			continue;
		seq_printf(m, "%-36s _stext+%#lx %s\n", cs_sym_name(i),
			   cs_resolved[i].addr - text,
			   test_bit(i, cs_sym_from_code) ? "code" : "kallsyms");
	}
}

/**
 * cs_sym_call_past_ftrace() - Have cs_sym_call() enter a function the module
 * redirects after its ftrace call site.
 * @sym: the redirected function.
 * @ftrace_site: its ftrace call site, as ftrace_location() gave it.
 *
 * The module calls the original of a function it redirects (a passthrough, a
 * hand-off to stock code).  Entered at its start, the call would run the
 * ftrace trampoline and the redirect callback a second time, only to be let
 * through.  Entered after the call site, it runs as it does whenever ftrace
 * is off there: the site is a 5-byte NOP then, the first instruction of the
 * function after its ENDBR.  Other tracers of the function see the call
 * once, where its stock caller made it.
 * Context: module init (the table is read-only after it), before the
 * redirects are registered.
 */
void cs_sym_call_past_ftrace(enum cs_sym sym, unsigned long ftrace_site)
{
	cs_resolved[sym].call = ftrace_site + MCOUNT_INSN_SIZE;
}

/*
 * For tests only: one more name to treat as later swap code, to prove on a
 * stock kernel (with a name it has) that such a kernel is refused.  Not
 * visible in sysfs.
 */
static char *assume_later_symbol;
module_param(assume_later_symbol, charp, 0);
MODULE_PARM_DESC(assume_later_symbol, "test only: refuse the kernel if it has this symbol");

/**
 * cs_sym_lookup() - The address of a kernel symbol by name, for reading.
 * @name: the symbol.
 *
 * Never to be called: only cs_sym_call() runs code (symbols.h).
 * Context: once cs_sym_resolve_all() has resolved kallsyms_lookup_name,
 * its first step.
 * Return: its address, or 0 if the kernel has none of that name.
 */
unsigned long cs_sym_lookup(const char *name)
{
	return cs_gate_call(cs_resolved[CS_SYM_kallsyms_lookup_name].addr,
			    (unsigned long)name, 0, 0, 0, 0);
}

static bool cs_sym_exists(const char *name)
{
	return cs_sym_lookup(name) != 0;
}

/*
 * For tests only: one more suffix to look for after a redirected function's
 * name, to prove on a stock kernel that a build with a copy is refused (""
 * finds the function itself).  Not visible in sysfs.
 */
static char *assume_clone_suffix;
module_param(assume_clone_suffix, charp, 0);
MODULE_PARM_DESC(assume_clone_suffix, "test only: treat NAME+this as a copy of each redirected NAME");

/*
 * The copies gcc's interprocedural passes make of a function: a
 * specialisation for constant arguments, one with its arguments rewritten,
 * or a part split out of it (the first two of each; a later build with more
 * would have these too), and a copy of a copy, named in the order the
 * passes run (split, then constant propagation, then argument rewriting).
 * ".cold" is not among them: it is entered only from the function itself.
 */
static const char * const cs_clone_suffixes[] = {
	".constprop.0", ".constprop.1", ".isra.0", ".isra.1", ".part.0", ".part.1",
	".constprop.0.isra.0", ".part.0.constprop.0", ".part.0.isra.0",
};

/**
 * cs_sym_clone() - A copy the compiler made of a hooked function.
 * @sym: the function, redirected or observed.
 * @buf: where to put the copy's name.
 * @len: @buf's size.
 *
 * A caller of such a copy never reaches the function's ftrace site: the
 * redirect would miss its calls, and stock code would run beside the module
 * (for the final free: module/README.md, D1); an observer would miss a
 * swapon or swapoff.  Debian's builds of both lines
 * have none; a later build that made one must be refused, not served.
 * Context: module init, after cs_sym_resolve_all().
 * Return: @buf, holding the copy's name, or NULL if the kernel has none.
 */
const char *cs_sym_clone(enum cs_sym sym, char *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cs_clone_suffixes); i++) {
		snprintf(buf, len, "%s%s", cs_sym_name(sym), cs_clone_suffixes[i]);
		if (cs_sym_exists(buf))
			return buf;
	}
	if (assume_clone_suffix) {
		snprintf(buf, len, "%s%s", cs_sym_name(sym), assume_clone_suffix);
		if (cs_sym_exists(buf))
			return buf;
	}
	return NULL;
}

/**
 * cs_sym_refuse_later_code() - Refuse a kernel of the line that carries swap
 * code of a later kernel.
 *
 * Context: module init, after cs_sym_resolve_all().
 * Return: 0, or -EOPNOTSUPP after naming what was found.
 */
int cs_sym_refuse_later_code(void)
{
	const char * const *name;
	const char *found = NULL;

	for (name = cs_line_later_syms; *name && !found; name++)
		if (cs_sym_exists(*name))
			found = *name;
	if (!found && assume_later_symbol && cs_sym_exists(assume_later_symbol))
		found = assume_later_symbol;
	if (!found)
		return 0;
	pr_err("this %s.y kernel has %s(), swap code of a later kernel (a backport?); clusterswap is verified only against the stock %s.y swap code; refusing to load\n",
	       CS_KERNEL_LINE_NAME, found, CS_KERNEL_LINE_NAME);
	return -EOPNOTSUPP;
}

/**
 * cs_sym_addr() - The address of a resolved symbol, as a number.
 * @sym: the symbol.
 *
 * For ftrace filters and address comparisons only: never cast it to a
 * function pointer (the IBT check fails the build's test if anything does).
 */
unsigned long cs_sym_addr(enum cs_sym sym)
{
	return cs_resolved[sym].addr;
}

/**
 * cs_sym_data() - The address of a resolved kernel variable.
 * @sym: the variable.
 */
void *cs_sym_data(enum cs_sym sym)
{
	return (void *)cs_resolved[sym].addr;
}


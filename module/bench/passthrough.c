// SPDX-License-Identifier: GPL-2.0
/*
 * The replacements of a passthrough bench build (make CS_BENCH=passthrough;
 * built by make bench only, never loaded by make check or installed by
 * DKMS) for the functions every line redirects: each one calls the original
 * through the gate and does nothing else, and the switch does not take over
 * from the kernel (control.c).  So with enabled=1 the kernel allocates and
 * frees swap slots itself, slot cache and all, while every call of a
 * redirected function pays what redirecting it costs: the ftrace trampoline,
 * the callback that turns the call to the replacement, the replacement's
 * counters and the gate's call of the original.  make bench reports that as
 * the arm "redirect": what clusterswap's "on" costs before its allocator does
 * any work.  A line's own redirects have theirs in module/<line>/bench/.
 */
#include <linux/swap.h>

#include <clusterswap/hooks.h>
#include <clusterswap/passthrough.h>
#include <clusterswap/symbols.h>

swp_entry_t cs_pass_folio_alloc_swap(struct folio *folio)
{
	swp_entry_t entry;

	cs_hook_enter(CS_SYM_folio_alloc_swap);
	entry.val = cs_sym_call1(CS_SYM_folio_alloc_swap, folio);
	cs_hook_exit();
	return entry;
}

void cs_pass_free_swap_slot(swp_entry_t entry)
{
	cs_hook_enter(CS_SYM_free_swap_slot);
	cs_sym_call1(CS_SYM_free_swap_slot, entry.val);
	cs_hook_exit();
}

void cs_pass_put_swap_folio(struct folio *folio, swp_entry_t entry)
{
	cs_hook_enter(CS_SYM_put_swap_folio);
	cs_sym_call2(CS_SYM_put_swap_folio, folio, entry.val);
	cs_hook_exit();
}

void cs_pass_swapcache_free_entries(swp_entry_t *entries, int n)
{
	cs_hook_enter(CS_SYM_swapcache_free_entries);
	cs_sym_call2(CS_SYM_swapcache_free_entries, entries, n);
	cs_hook_exit();
}

swp_entry_t cs_pass_get_swap_page_of_type(int type)
{
	swp_entry_t entry;

	cs_hook_enter(CS_SYM_get_swap_page_of_type);
	entry.val = cs_sym_call1(CS_SYM_get_swap_page_of_type, type);
	cs_hook_exit();
	return entry;
}

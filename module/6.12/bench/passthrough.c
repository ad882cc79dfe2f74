// SPDX-License-Identifier: GPL-2.0
/*
 * The passthrough bench build's replacements of the functions only the 6.12
 * line redirects; those of every line, and what the build is for, are in
 * module/bench/passthrough.c.
 */
#include <linux/swap.h>

#include "internal.h"
#include <clusterswap/hooks.h>
#include <clusterswap/symbols.h>

void cs_pass_free_swap_and_cache_nr(swp_entry_t entry, int nr)
{
	cs_hook_enter(CS_SYM_free_swap_and_cache_nr);
	cs_sym_call2(CS_SYM_free_swap_and_cache_nr, entry.val, nr);
	cs_hook_exit();
}

void cs_pass_swap_entry_range_free(struct swap_info_struct *si, swp_entry_t entry,
				   unsigned int nr)
{
	cs_hook_enter(CS_SYM_swap_entry_range_free);
	cs_sym_call3(CS_SYM_swap_entry_range_free, si, entry.val, nr);
	cs_hook_exit();
}

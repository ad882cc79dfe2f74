// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the 6.12 line's own non-exported symbols (line_symbols.h),
 * resolved at load with those of every line (module/symbols.c).
 */
#include <clusterswap/symbols.h>

const char * const cs_line_sym_names[CS_NR_SYMS - CS_SYM_LINE_FIRST] = {
	[CS_SYM_free_swap_and_cache_nr - CS_SYM_LINE_FIRST] = "free_swap_and_cache_nr",
	[CS_SYM_swap_cgroup_swapoff - CS_SYM_LINE_FIRST] = "swap_cgroup_swapoff",
	[CS_SYM_swap_entry_range_free - CS_SYM_LINE_FIRST] = "swap_entry_range_free",
	[CS_SYM_get_swap_pages - CS_SYM_LINE_FIRST] = "get_swap_pages",
	[CS_SYM_reenable_swap_slots_cache_unlock - CS_SYM_LINE_FIRST] =
		"reenable_swap_slots_cache_unlock",
	[CS_SYM_zswap_invalidate - CS_SYM_LINE_FIRST] = "zswap_invalidate",
	[CS_SYM_zswap_ever_enabled - CS_SYM_LINE_FIRST] = "zswap_ever_enabled",
	[CS_SYM___mem_cgroup_try_charge_swap - CS_SYM_LINE_FIRST] = "__mem_cgroup_try_charge_swap",
	[CS_SYM___mem_cgroup_uncharge_swap - CS_SYM_LINE_FIRST] = "__mem_cgroup_uncharge_swap",
	[CS_SYM_clear_shadow_from_swap_cache - CS_SYM_LINE_FIRST] = "clear_shadow_from_swap_cache",
	[CS_SYM_plist_requeue - CS_SYM_LINE_FIRST] = "plist_requeue",
	[CS_SYM_add_to_avail_list - CS_SYM_LINE_FIRST] = "add_to_avail_list",
	[CS_SYM___del_from_avail_list - CS_SYM_LINE_FIRST] = "__del_from_avail_list",
	[CS_SYM_swap_avail_heads - CS_SYM_LINE_FIRST] = "swap_avail_heads",
	[CS_SYM___try_to_reclaim_swap - CS_SYM_LINE_FIRST] = "__try_to_reclaim_swap",
	[CS_SYM_total_swap_pages - CS_SYM_LINE_FIRST] = "total_swap_pages",
};

/*
 * Every kernel of the line lists its variables in kallsyms: Debian builds
 * 6.12 with KALLSYMS_ALL on amd64 and arm64 alike.  A build without it is
 * refused, naming the first variable it lacks.
 */
unsigned long cs_line_find_data(enum cs_sym sym)
{
	return 0;
}

bool cs_line_swap_info_agrees(unsigned long table)
{
	return true;
}

/* zswap's, only where zswap is built: Debian's cloud flavour leaves it out. */
bool cs_line_sym_configured(enum cs_sym sym)
{
	switch (sym) {
	case CS_SYM_zswap_invalidate:
	case CS_SYM_zswap_ever_enabled:
		return IS_ENABLED(CONFIG_ZSWAP);
	default:
		return true;
	}
}

/*
 * From the allocator rework of 6.14 ("rework of swap allocator locks": lists
 * moved under the cluster lock, inuse_pages with an off-list bit) and 6.15
 * ("remove swap slot cache"), in upstream's names.  None is in any 6.12.y.
 */
const char * const cs_line_later_syms[] = {
	"isolate_lock_cluster",
	"relocate_cluster",
	"move_cluster",
	"partial_free_cluster",
	"swap_alloc_fast",
	"swap_alloc_slow",
	NULL,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the 6.1 line's own non-exported symbols (line_symbols.h),
 * resolved at load with those of every line (module/symbols.c).
 */
#include <clusterswap/symbols.h>

const char * const cs_line_sym_names[CS_NR_SYMS - CS_SYM_LINE_FIRST] = {
	[CS_SYM_swap_cgroup_swapoff - CS_SYM_LINE_FIRST] = "swap_cgroup_swapoff",
	[CS_SYM_get_swap_pages - CS_SYM_LINE_FIRST] = "get_swap_pages",
	[CS_SYM_reenable_swap_slots_cache_unlock - CS_SYM_LINE_FIRST] =
		"reenable_swap_slots_cache_unlock",
	[CS_SYM___frontswap_invalidate_page - CS_SYM_LINE_FIRST] = "__frontswap_invalidate_page",
	[CS_SYM_frontswap_enabled_key - CS_SYM_LINE_FIRST] = "frontswap_enabled_key",
	[CS_SYM___mem_cgroup_try_charge_swap - CS_SYM_LINE_FIRST] = "__mem_cgroup_try_charge_swap",
	[CS_SYM___mem_cgroup_uncharge_swap - CS_SYM_LINE_FIRST] = "__mem_cgroup_uncharge_swap",
	[CS_SYM_clear_shadow_from_swap_cache - CS_SYM_LINE_FIRST] = "clear_shadow_from_swap_cache",
	[CS_SYM_plist_add - CS_SYM_LINE_FIRST] = "plist_add",
	[CS_SYM_plist_del - CS_SYM_LINE_FIRST] = "plist_del",
	[CS_SYM_plist_requeue - CS_SYM_LINE_FIRST] = "plist_requeue",
	[CS_SYM_swap_avail_heads - CS_SYM_LINE_FIRST] = "swap_avail_heads",
};

/*
 * frontswap's, only where it is built (zswap selects it): Debian's cloud
 * flavour leaves both out.
 */
bool cs_line_sym_configured(enum cs_sym sym)
{
	switch (sym) {
	case CS_SYM___frontswap_invalidate_page:
	case CS_SYM_frontswap_enabled_key:
		return IS_ENABLED(CONFIG_FRONTSWAP);
	default:
		return true;
	}
}

/*
 * From the cluster allocator of 6.10-6.12 (mTHP swap-out, per-order lists,
 * direct zswap calls) and the reworks after it, in upstream's names.  None
 * is in any 6.1.y.
 */
const char * const cs_line_later_syms[] = {
	"cluster_alloc_swap_entry",
	"swap_reclaim_full_clusters",
	"swap_entry_range_free",
	"zswap_invalidate",
	"isolate_lock_cluster",
	"relocate_cluster",
	"swap_alloc_fast",
	NULL,
};

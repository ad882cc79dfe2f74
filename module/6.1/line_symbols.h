/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 6.1 line's non-exported symbols: the enumerators that follow those
 * of every line inside enum cs_sym (include/clusterswap/symbols.h includes
 * this file there).  Their names are in symbols.c here.
 */
	/* Observed (hooks.c). */
	CS_SYM_swap_cgroup_swapoff = CS_SYM_LINE_FIRST,
	/* Called or read by the allocator. */
	CS_SYM_get_swap_pages,
	CS_SYM_reenable_swap_slots_cache_unlock,
	CS_SYM___frontswap_invalidate_page,
	CS_SYM___mem_cgroup_try_charge_swap,
	CS_SYM___mem_cgroup_uncharge_swap,
	CS_SYM_clear_shadow_from_swap_cache,
	CS_SYM_plist_add,
	CS_SYM_plist_del,
	CS_SYM_plist_requeue,
	CS_SYM_swap_avail_heads,
	/* Called only to check swap_info where it is found from code (symbols.c). */
	CS_SYM_swp_swap_info,

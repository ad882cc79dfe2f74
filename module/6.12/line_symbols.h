/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 6.12 line's non-exported symbols: the enumerators that follow those
 * of every line inside enum cs_sym (include/clusterswap/symbols.h includes
 * this file there).  Their names are in symbols.c here.
 */
	/* Redirected or observed (hooks.c). */
	CS_SYM_free_swap_and_cache_nr = CS_SYM_LINE_FIRST,
	CS_SYM_swap_cgroup_swapoff,
	CS_SYM_swap_entry_range_free,
	/* Called or read by the allocator. */
	CS_SYM_get_swap_pages,
	CS_SYM_reenable_swap_slots_cache_unlock,
	CS_SYM_zswap_invalidate,
	CS_SYM_zswap_ever_enabled,
	CS_SYM___mem_cgroup_try_charge_swap,
	CS_SYM___mem_cgroup_uncharge_swap,
	CS_SYM_clear_shadow_from_swap_cache,
	CS_SYM_plist_requeue,
	CS_SYM_add_to_avail_list,
	CS_SYM___del_from_avail_list,
	CS_SYM_swap_avail_heads,
	CS_SYM___try_to_reclaim_swap,
	CS_SYM_total_swap_pages,

// SPDX-License-Identifier: GPL-2.0
/*
 * The 6.1 line: which functions are redirected or observed.  Each
 * replacement has the exact prototype of the function it replaces
 * (include/linux/swap.h, include/linux/swap_slots.h of 6.1), because it
 * returns straight to that function's caller.  They live in 6.1/alloc.c,
 * 6.1/free.c and module/stock_alloc.c; a passthrough bench build's in
 * module/bench/passthrough.c.
 *
 * free_swap_and_cache() is not redirected: on 6.1 it takes no si->lock on a
 * device with clusters and makes no final free of its own (the slot's last
 * reference goes to free_swap_slot() or put_swap_folio(), both redirected).
 */
#include <linux/swap.h>
#include <linux/swap_slots.h>

#include "internal.h"
#include <clusterswap/hooks.h>
#include <clusterswap/line.h>
#include <clusterswap/passthrough.h>

struct cs_hook cs_redirects[] = {
	{ CS_SYM_folio_alloc_swap, CS_REPLACEMENT(folio_alloc_swap) },
	{ CS_SYM_free_swap_slot, CS_REPLACEMENT(free_swap_slot) },
	{ CS_SYM_put_swap_folio, CS_REPLACEMENT(put_swap_folio) },
	{ CS_SYM_swapcache_free_entries, CS_REPLACEMENT(swapcache_free_entries) },
	{ CS_SYM_get_swap_page_of_type, CS_REPLACEMENT(get_swap_page_of_type) },
};

const unsigned int cs_nr_redirects = ARRAY_SIZE(cs_redirects);

/*
 * disable_swap_slots_cache_lock: swapoff, right after SWP_WRITEOK is cleared.
 * enable_swap_slots_cache: the end of a successful swapon.
 * init_swap_address_space: swapon's last step before the device enters
 * service, where the table of devices is checked (cs_swapdev_before_swapon()).
 * swap_cgroup_swapoff: swapoff teardown, after the device is detached (also
 * a failed swapon).  Not __frontswap_invalidate_area(), which runs only when
 * a frontswap backend registered.
 */
struct cs_hook cs_observers[] = {
	{ CS_SYM_disable_swap_slots_cache_lock },
	{ CS_SYM_enable_swap_slots_cache },
	{ CS_SYM_swap_cgroup_swapoff },
	{ CS_SYM_init_swap_address_space },
};

const unsigned int cs_nr_observers = ARRAY_SIZE(cs_observers);

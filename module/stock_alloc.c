// SPDX-License-Identifier: GPL-2.0
/*
 * Stock allocation beside the module, on every line: the module's fallback
 * to stock get_swap_pages() and hibernation's get_swap_page_of_type() run
 * stock code on devices the module serves, and stock decides "full" from
 * inuse_pages, which here also counts the CPUs' unspent credit.
 */
#include <linux/swap.h>

/* The line's private header (module/<line>/ is on the include path). */
#include "internal.h"
#include <clusterswap/alloc.h>
#include <clusterswap/compat.h>
#include <clusterswap/hooks.h>
#include <clusterswap/symbols.h>
#include <clusterswap/line.h>

/*
 * Ready @si for a stock allocation of @nr slots.  Stock decides "full" from
 * inuse_pages alone (swap_range_alloc(): inuse_pages == pages), and here
 * inuse_pages also counts the CPUs' unspent credit.  On a device within @nr
 * slots of that count, stock would take the device out of service while
 * CPUs hold credit for free slots, or allocate past it (inuse_pages > pages,
 * /proc/swaps Used > Size): module/README.md, D5.  So such a device gets its
 * credit back (@exact: every device, whatever its count).  And the line
 * clears what stock would read stale (cs_line_before_stock_alloc()).
 * Context: no swap lock held.
 */
static void cs_stock_alloc_ready(struct swap_info_struct *si, unsigned int nr, bool exact)
{
	if (!READ_ONCE(si->cluster_info))
		return;
	/* Nothing to do under the lock: the common case, on 6.1. */
	if (!exact && !CS_LINE_STOCK_HINTS &&
	    READ_ONCE(si->inuse_pages) + nr < READ_ONCE(si->pages))
		return;
	spin_lock(&si->lock);
	cs_count_lock(CS_LOCK_STOCK);
	if (cs_swap_device_attached(si) && si->cluster_info) {
		cs_line_before_stock_alloc(si);
		if (exact || si->inuse_pages + nr >= si->pages) {
			cs_credit_reclaim(si);
			/* The credit back may be a free's that has yet to un-mark it. */
			cs_unmark_full_if_room(si);
		}
	}
	spin_unlock(&si->lock);
}

/* Before the module's fallback to stock get_swap_pages(): every device. */
void cs_stock_alloc_prepare(unsigned int nr)
{
	struct swap_info_struct *si;
	unsigned int type;

	cs_for_each_swap_device(type, si)
		cs_stock_alloc_ready(si, nr, false);
}

/*
 * After stock allocated on @entry's device: a CPU may have taken credit
 * between cs_stock_alloc_prepare() and stock's count, so stock may still
 * have found the device full (or gone past pages): settle it exactly.
 * Context: no swap lock held.
 */
void cs_stock_alloc_done(swp_entry_t entry)
{
	struct swap_info_struct *si = cs_swap_device(swp_type(entry));

	if (!entry.val || !si || !si->cluster_info ||
	    READ_ONCE(si->inuse_pages) < si->pages)
		return;
	spin_lock(&si->lock);
	cs_count_lock(CS_LOCK_STOCK);
	if (si->cluster_info && (si->flags & SWP_WRITEOK)) {
		cs_credit_reclaim(si);
		if (!si->highest_bit && si->inuse_pages < si->pages)
			cs_unmark_full(si);
	}
	spin_unlock(&si->lock);
}

/*
 * After stock found no slot on @si: whether the line had room there that
 * stock does not look at, now open to it.
 * Context: no swap lock held.
 */
static bool cs_stock_open_full(struct swap_info_struct *si)
{
	bool opened = false;

	spin_lock(&si->lock);
	cs_count_lock(CS_LOCK_STOCK);
	if (cs_swap_device_attached(si) && si->cluster_info)
		opened = cs_line_open_for_stock(si);
	spin_unlock(&si->lock);
	return opened;
}

/**
 * cs_get_swap_page_of_type() - Replacement for get_swap_page_of_type().
 * @type: the swap device hibernation writes its image to.
 *
 * Hibernation allocates one slot at a time with swap count 1 (not
 * SWAP_HAS_CACHE).  Stock 6.1 and 6.12 do that under si->lock with no slot
 * cache, so passing it on costs no speed (upstream's 6.15 hibernation
 * slowdown came with removing the slot cache from this path, which these
 * lines never used), and it is safe beside the module: stock allocation
 * under si->lock finds the lists as stock keeps them (6.12: no full cluster
 * of an order above 0 on frag or nonfull, cs_take_last(); 6.1: the free
 * list's head taken only, bounds never narrowed, module/README.md section
 * 10), and its frees come back to the module.  The device's credit is
 * given back first, every time: hibernation reads the free count
 * (enough_swap(): pages - inuse_pages) after its first slot, and the CPUs'
 * credit would read as used.  Where stock finds no slot, the room the line
 * keeps out of stock's sight is opened and stock asked once more: without
 * it the image write fails with ENOSPC beside free slots.
 * Context: process context (the hibernation writer); may sleep.
 * Return: the slot, or 0.
 */
swp_entry_t cs_get_swap_page_of_type(int type)
{
	struct swap_info_struct *si = cs_swap_device(type);
	swp_entry_t entry;

	cs_hook_enter(CS_SYM_get_swap_page_of_type);
	if (si)
		cs_stock_alloc_ready(si, 1, true);
	entry.val = cs_sym_call1(CS_SYM_get_swap_page_of_type, type);
	if (!entry.val && si && cs_stock_open_full(si))
		entry.val = cs_sym_call1(CS_SYM_get_swap_page_of_type, type);
	cs_stock_alloc_done(entry);
	cs_hook_exit();
	return entry;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The free entry points every line serves the same way: a final free comes
 * to the line's cs_free_slots_locked() (under the cluster lock, clean-ups
 * before the bytes) on a device with clusters, and to the line's
 * cs_free_stock() on one without (the module never allocates there).
 */
#include <linux/swap.h>
#include <linux/blkdev.h>

/* The line's private header (module/<line>/ is on the include path). */
#include "internal.h"
#include <clusterswap/free.h>
#include <clusterswap/hooks.h>
#include <clusterswap/warn.h>

/*
 * The block driver's slot-free notification (zram drops the slot's data).
 * The kernel calls it through the same pointer, so it has a live ENDBR:
 * this is one of the two indirect calls the IBT check allows (cs_kcall_*).
 */
noinline void cs_kcall_slot_free_notify(struct swap_info_struct *si,
					       unsigned long offset)
{
	void (*notify)(struct block_device *bdev, unsigned long offset);

	notify = si->bdev->bd_disk->fops->swap_slot_free_notify;
	if (notify)
		notify(si->bdev, offset);
}

/* swap_is_has_cache(): every slot of the range holds only the cache's reference. */
bool cs_only_cached(struct swap_info_struct *si, unsigned long offset, unsigned int nr)
{
	unsigned char *map = si->swap_map + offset;
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (map[i] != SWAP_HAS_CACHE)
			return false;
	return true;
}

void cs_free_slots(struct swap_info_struct *si, unsigned long offset, unsigned int nr)
{
	struct swap_cluster_info *ci = cs_cluster_of(si, offset);

	spin_lock(&ci->lock);
	if (cs_warn_once(!cs_only_cached(si, offset, nr),
			 "freeing swap slots %u:%lu+%u not held by the cache alone\n",
			 si->type, offset, nr)) {
		/* Leak the range rather than free a slot in use. */
		spin_unlock(&ci->lock);
		return;
	}
	cs_free_slots_locked(si, ci, offset, nr);
}

static void cs_free_entry(swp_entry_t entry)
{
	struct swap_info_struct *si = cs_swap_device(swp_type(entry));

	if (cs_warn_once(!si, "freeing a slot of unknown swap type %u\n", swp_type(entry)))
		return;
	if (si->cluster_info)
		cs_free_slots(si, swp_offset(entry), 1);
	else
		cs_free_stock(entry);
}

/**
 * cs_free_swap_slot() - Replacement for free_swap_slot().
 * @entry: a slot whose last reference is gone (its byte is SWAP_HAS_CACHE).
 *
 * Context: any context free_swap_slot() is called in: under a page-table
 * lock, after cluster locks are dropped; never sleeps.
 */
void cs_free_swap_slot(swp_entry_t entry)
{
	cs_hook_enter(CS_SYM_free_swap_slot);
	cs_free_entry(entry);
	cs_hook_exit();
}

/**
 * cs_swapcache_free_entries() - Replacement for swapcache_free_entries().
 * @entries: slots whose bytes are SWAP_HAS_CACHE.
 * @n: how many.
 *
 * Reached while the module serves only from the slot cache's drain (the
 * switch-on, swapoff, CPU offline), which may run with IRQs off.
 */
void cs_swapcache_free_entries(swp_entry_t *entries, int n)
{
	int i;

	cs_hook_enter(CS_SYM_swapcache_free_entries);
	for (i = 0; i < n; i++)
		cs_free_entry(entries[i]);
	cs_hook_exit();
}

/**
 * cs_put_swap_folio() - Replacement for put_swap_folio(): cs_put_folio().
 * @folio: a folio leaving the swap cache.
 * @entry: its first swap entry.
 *
 * Context: as cs_put_folio().
 */
void cs_put_swap_folio(struct folio *folio, swp_entry_t entry)
{
	cs_hook_enter(CS_SYM_put_swap_folio);
	cs_put_folio(folio, entry);
	cs_hook_exit();
}

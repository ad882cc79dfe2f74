// SPDX-License-Identifier: GPL-2.0
/*
 * The final free of swap slots on 6.1, and the free entry points it serves.
 *
 * Stock 6.1 parks freed slots in the per-CPU slot cache, with their zswap
 * (frontswap) copies still stored, and frees them in batches under si->lock
 * (swapcache_free_entries()); its final free, swap_range_free(), sets the
 * bytes to 0 first and invalidates frontswap, notifies zram and clears shadow
 * entries after, which is safe only beside allocators that hold si->lock.
 * Here every final free is done at once, under the cluster lock, clean-ups
 * first: when the call returns the slot is free and its zswap copy is gone
 * (module/README.md, section 10).
 *
 * Every stock final free goes through swap_range_free(), which has two
 * callers: swapcache_free_entries() and put_swap_folio()'s THP path.  Both
 * are replaced here, so no stock final free runs on a device the module
 * serves; free_swap_and_cache(), swap_free() and swapcache_clear() stay
 * stock: they only drop references under ci->lock, and send each slot that
 * reaches the cache's reference alone to free_swap_slot(), which is ours.
 */
#include <linux/swap.h>
#include <linux/blkdev.h>
#include <linux/frontswap.h>
#include <linux/memcontrol.h>
#include <linux/string.h>

#include "internal.h"
#include <clusterswap/alloc.h>
#include <clusterswap/hooks.h>
#include <clusterswap/symbols.h>
#include <clusterswap/warn.h>

/*
 * frontswap_invalidate_page(), only for a slot whose frontswap_map bit says
 * it has a copy: the test __frontswap_invalidate_page() makes first.  The
 * bit is set by a store, under the folio lock, before the slot can be
 * freed, and cleared only by invalidation: a clear bit means no copy.  A
 * store runs only once a backend (zswap) registered, and none unregisters,
 * so a set bit also means __frontswap_invalidate_page() has the backend it
 * asserts (VM_BUG_ON(!frontswap_ops) on a DEBUG_VM kernel).  The inline
 * wrapper's test of frontswap_enabled_key is therefore not needed, and the
 * key is not read: Debian's arm64 6.1 does not list it in kallsyms.
 */
#ifdef CONFIG_FRONTSWAP
static void cs_frontswap_invalidate(struct swap_info_struct *si, unsigned long offset,
				    unsigned int nr)
{
	unsigned int i, stored = 0;

	if (!si->frontswap_map)
		return;
	for (i = 0; i < nr; i++) {
		if (!test_bit(offset + i, si->frontswap_map))
			continue;
		cs_sym_call2(CS_SYM___frontswap_invalidate_page, si->type, offset + i);
		stored++;
	}
	cs_count_n(frontswap_invalidate, stored);
}
#else
/* No frontswap in this kernel (Debian's cloud flavour): no slot has a copy. */
static inline void cs_frontswap_invalidate(struct swap_info_struct *si, unsigned long offset,
					   unsigned int nr)
{
}
#endif

/*
 * The bounds must cover a slot before its byte goes to 0 (invariant I-1,
 * 6.1/clusters.c).  Only stock allocations narrow them, or a full device
 * has none: widen (or put the device back in service) under si->lock.
 * Context: ci->lock held; held again on return.
 */
static void cs_widen_for(struct swap_info_struct *si, struct swap_cluster_info *ci,
			 unsigned long offset, unsigned int nr)
{
	lockdep_assert_held(&ci->lock);
	if (cs_bounds_cover(si, offset, nr))
		return;
	cs_relock_si_ci(si, ci);
	cs_count_lock(CS_LOCK_BOUNDS);
	cs_count(bounds_widened);
	if (!si->highest_bit) {
		/* Full: free slots follow, as swap_range_free() re-opens it. */
		if (si->flags & SWP_WRITEOK)
			cs_unmark_full(si);
	} else {
		cs_bounds_full_width(si);
	}
	spin_unlock(&si->lock);
}

/**
 * cs_release_slots() - Clean up @nr slots of one cluster and set their bytes to 0.
 * @si: the device, with cluster_info.
 * @ci: the cluster, locked by the caller.
 * @offset: the first slot; @nr slots from there lie in one cluster.
 * @nr: slots, 1 or a PMD THP's.
 *
 * Each slot's byte must be exactly SWAP_HAS_CACHE.  What swap_range_free()
 * and its callers do, in the order that is safe beside allocation under
 * ci->lock alone: everything that names the slots (frontswap copy, zram
 * data, shadow entries, memcg charge) goes before the bytes go to 0.
 * Context: ci->lock held; never sleeps.
 */
static void cs_release_slots(struct swap_info_struct *si, struct swap_cluster_info *ci,
			     unsigned long offset, unsigned int nr)
{
	unsigned int i;

	lockdep_assert_held(&ci->lock);
	cs_widen_for(si, ci, offset, nr);
	cs_frontswap_invalidate(si, offset, nr);
	if (si->flags & SWP_BLKDEV)
		for (i = 0; i < nr; i++)
			cs_kcall_slot_free_notify(si, offset + i);
	cs_sym_call3(CS_SYM_clear_shadow_from_swap_cache, si->type, offset, offset + nr - 1);
	/* mem_cgroup_uncharge_swap(); one folio's range has one memcg. */
	if (!mem_cgroup_disabled())
		cs_sym_call2(CS_SYM___mem_cgroup_uncharge_swap,
			     swp_entry(si->type, offset).val, nr);

	memset(si->swap_map + offset, 0, nr);
	if (cs_warn_once(ci->data < nr, "cluster %lu of swap type %u counts %u, freeing %u\n",
			 cs_cluster_index(si, ci), si->type, ci->data, nr))
		ci->data = nr;
	ci->data -= nr;
	/* As swap_range_free(): try_to_unuse() sees the counts after the clean-ups. */
	smp_wmb();
	atomic_long_add(nr, &nr_swap_pages);
	cs_count_n(freed, nr);
}

/*
 * Whether this CPU allocates from @ci: an emptied cluster then stays with it
 * (count 0, off the lists), so that its next allocations need no si->lock.
 */
static bool cs_free_keeps(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	unsigned long pos;
	unsigned int type;

	return cs_unpack(READ_ONCE(raw_cpu_ptr(&cs_pcp)->next), &type, &pos) &&
	       type == si->type && pos / CS_SWAPFILE_CLUSTER == cs_cluster_index(si, ci);
}

/*
 * inuse_pages for freed slots: this CPU's credit once the module allocates;
 * until then (the switch just went on) exactly, under si->lock, as stock.
 */
static void cs_account_freed(struct swap_info_struct *si, unsigned int nr)
{
	/* Pairs with the smp_store_release() in 6.1/serve.c. */
	if (smp_load_acquire(&cs_alloc_ready)) {
		cs_credit_put(si, nr);
		return;
	}
	spin_lock(&si->lock);
	cs_count_lock(CS_LOCK_EXACT);
	WRITE_ONCE(si->inuse_pages, si->inuse_pages - min(nr, si->inuse_pages));
	cs_unmark_full_if_room(si);
	spin_unlock(&si->lock);
}

/**
 * cs_free_slots_locked() - The final free of @nr slots of one cluster.
 * @si: the device, with cluster_info.
 * @ci: the cluster, locked by the caller; unlocked on return.
 * @offset: the first slot; @nr slots from there lie in one cluster.
 * @nr: slots, 1 or a PMD THP's.
 *
 * cs_release_slots(); an emptied cluster goes to the free (or discard) list
 * when si->lock is free, or stays off the lists, usable, until a slow path
 * or the switch-off settles it (cs_settle_empty()).
 * Context: ci->lock held, no other swap lock; may run with IRQs off (a slot
 * cache drain); never sleeps.
 */
void cs_free_slots_locked(struct swap_info_struct *si, struct swap_cluster_info *ci,
			  unsigned long offset, unsigned int nr)
{
	cs_release_slots(si, ci, offset, nr);
	if (!ci->data && !cs_free_keeps(si, ci) && cs_trylock_si_under_ci(si, ci)) {
		cs_count_lock(CS_LOCK_RELIST);
		cs_settle_empty(si, ci);
		spin_unlock(&si->lock);
	}
	spin_unlock(&ci->lock);
	cs_account_freed(si, nr);
}

/*
 * Slots of devices without cluster_info stay with stock code, which the
 * module never races there (it allocates only on devices with clusters):
 * stock's final free, frontswap invalidation included, directly.
 */
void cs_free_stock(swp_entry_t entry)
{
	cs_sym_call2(CS_SYM_swapcache_free_entries, &entry, 1);
}

/*
 * A PMD THP leaves the swap cache: put_swap_folio()'s THP path with the
 * module's final free.  HUGE goes (as stock clears it); a range held by the
 * cache alone is freed whole, otherwise each slot drops the cache's
 * reference (__swap_entry_free_locked(SWAP_HAS_CACHE)) and each slot that
 * held only that is freed, all under the one ci->lock hold.  Stock's own THP
 * path would free the range after its re-check under si->lock, in its
 * unsafe order: it is never called for a device the module serves.
 * Context: ci->lock not held; never sleeps.
 */
static void cs_put_pmd(struct swap_info_struct *si, unsigned long offset)
{
	struct swap_cluster_info *ci = cs_cluster_of(si, offset);
	unsigned char *map = si->swap_map + offset;
	unsigned int i, freed = 0;

	spin_lock(&ci->lock);
	cs_warn_once(!(ci->flags & CLUSTER_FLAG_HUGE),
		     "THP slots %u:%lu in a cluster without HUGE\n", si->type, offset);
	ci->flags &= ~CLUSTER_FLAG_HUGE;
	if (cs_only_cached(si, offset, CS_SWAPFILE_CLUSTER)) {
		cs_free_slots_locked(si, ci, offset, CS_SWAPFILE_CLUSTER);	/* unlocks */
		return;
	}
	for (i = 0; i < CS_SWAPFILE_CLUSTER; i++) {
		if (cs_warn_once(!(map[i] & SWAP_HAS_CACHE),
				 "THP slot %u:%lu without the cache's reference\n",
				 si->type, offset + i))
			continue;
		if (map[i] != SWAP_HAS_CACHE) {
			map[i] &= ~SWAP_HAS_CACHE;
			continue;
		}
		cs_release_slots(si, ci, offset + i, 1);
		freed++;
	}
	if (!ci->data && cs_trylock_si_under_ci(si, ci)) {
		cs_count_lock(CS_LOCK_RELIST);
		cs_settle_empty(si, ci);
		spin_unlock(&si->lock);
	}
	spin_unlock(&ci->lock);
	if (freed)
		cs_account_freed(si, freed);
}

/**
 * cs_put_folio() - What put_swap_folio() does, with the module's final free.
 * @folio: a folio leaving the swap cache, or one whose charge failed.
 * @entry: its first swap entry.
 *
 * A PMD THP on a device with clusters: cs_put_pmd().  A single page goes to
 * stock put_swap_folio(), which drops the cache's reference under ci->lock
 * and sends a slot that reaches 0 to free_swap_slot(), that is to
 * cs_free_swap_slot().  Devices without clusters are stock's throughout.
 * Context: under the folio lock, or after the mapping's lock; never sleeps.
 */
void cs_put_folio(struct folio *folio, swp_entry_t entry)
{
	unsigned int nr = folio_nr_pages(folio);
	unsigned long offset = swp_offset(entry);
	struct swap_info_struct *si = cs_swap_device(swp_type(entry));

	if (nr > 1 && si && si->cluster_info && offset < si->max) {
		if (!cs_warn_once(nr != CS_SWAPFILE_CLUSTER ||
				  offset % CS_SWAPFILE_CLUSTER,
				  "a large folio of %u pages at %u:%lu, not a PMD THP\n",
				  nr, si->type, offset)) {
			cs_put_pmd(si, offset);
			return;
		}
	}
	cs_sym_call2(CS_SYM_put_swap_folio, folio, entry.val);
}

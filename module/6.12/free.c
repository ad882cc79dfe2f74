// SPDX-License-Identifier: GPL-2.0
/*
 * The final free of swap slots on 6.12, and the free entry points it serves.
 *
 * Stock 6.12 parks freed order-0 slots in the per-CPU slot cache (their zswap
 * copies already invalidated, but the slots still pinned) and frees them in
 * batches under si->lock; large ranges skip zswap invalidation.  Here every
 * final free is done at once, under the cluster lock, for one slot or a
 * large folio's range alike: when the call returns the slot is free and its
 * zswap copy is gone (module/README.md, section 5).
 */
#include <linux/swap.h>
#include <linux/blkdev.h>
#include <linux/memcontrol.h>
#include <linux/string.h>

#include "internal.h"
#include <clusterswap/alloc.h>
#include <clusterswap/hooks.h>
#include <clusterswap/symbols.h>
#include <clusterswap/warn.h>

/*
 * zswap_invalidate() for @nr slots, once zswap has ever been enabled.
 * zswap stores a page only through a pool, and the first pool's creation
 * enables zswap_ever_enabled before the pool is published, so while the key
 * is off no slot has a zswap copy: zswap_load() makes the same test.  Stock
 * calls zswap_invalidate() for every slot freed regardless; here, with zswap
 * never on, that is one read instead of a call and an xa_erase() per slot.
 */
static void cs_zswap_invalidate(unsigned int type, unsigned long offset, unsigned int nr)
{
	struct static_key_false *key;
	unsigned int i;

	/* Without zswap (Debian's cloud flavour) no slot has a copy. */
	if (!IS_ENABLED(CONFIG_ZSWAP))
		return;
	key = cs_sym_data(CS_SYM_zswap_ever_enabled);
	if (!static_key_enabled(key))
		return;
	for (i = 0; i < nr; i++)
		cs_sym_call1(CS_SYM_zswap_invalidate, swp_entry(type, offset + i).val);
	cs_count_n(zswap_invalidate, nr);
}

/**
 * cs_release_slots() - Clean up @nr slots of one cluster and set their bytes to 0.
 * @si: the device, with cluster_info.
 * @ci: the cluster, locked by the caller.
 * @offset: the first slot; @nr slots from there lie in one cluster.
 * @nr: slots, 1 or a folio's.
 *
 * Each slot's byte must be exactly SWAP_HAS_CACHE: the last reference is
 * gone and only the freeing caller holds it.  Everything that names the
 * slots (zswap entry, zram data, zeromap bit, shadow entries, memcg charge)
 * is dropped before the bytes go to 0, under ci->lock: an allocation needs
 * that lock, so no new owner of the slots can see a stale copy.  Stock 6.12
 * does these clean-ups after the bytes (swap_entry_range_free()), which is
 * safe only beside allocators that hold si->lock: module/README.md, D1.
 * Context: ci->lock held; never sleeps.
 */
static void cs_release_slots(struct swap_info_struct *si, struct swap_cluster_info *ci,
			     unsigned long offset, unsigned int nr)
{
	unsigned int i;

	lockdep_assert_held(&ci->lock);
	cs_zswap_invalidate(si->type, offset, nr);
	for (i = 0; i < nr; i++) {
		clear_bit(offset + i, si->zeromap);
		if (si->flags & SWP_BLKDEV)
			cs_kcall_slot_free_notify(si, offset + i);
	}
	cs_sym_call3(CS_SYM_clear_shadow_from_swap_cache, si->type, offset, offset + nr - 1);
	/* mem_cgroup_uncharge_swap(); one folio's range has one memcg. */
	if (!mem_cgroup_disabled())
		cs_sym_call2(CS_SYM___mem_cgroup_uncharge_swap,
			     swp_entry(si->type, offset).val, nr);

	memset(si->swap_map + offset, 0, nr);
	ci->count -= nr;
	/* As swap_range_free(): try_to_unuse() sees the counts after the clean-ups. */
	smp_wmb();
	atomic_long_add(nr, &nr_swap_pages);
	cs_count_n(freed, nr);
}

/*
 * Whether a cluster that just had slots freed must change lists: empty ->
 * free, unless it is this CPU's cluster (cs_free_keeps()); full or frag with
 * CS_RELIST_FREE slots free -> nonfull (dec_cluster_info_page() moves at the
 * first free; see internal.h).  While the module does not allocate (the
 * switch just went on, or is going off), stock does, and a full cluster
 * moves at the first free, as stock moves it: stock never looks at the full
 * list, and one of its per-CPU hints set meanwhile may point into the
 * cluster and fill it, which DEBUG_VM kernels assert is on a list stock
 * allocates from.
 */
static bool cs_freed_needs_relist(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	if (!ci->count)
		return !cs_free_keeps(si, ci);
	if (!READ_ONCE(cs_alloc_ready))
		return ci->flags & CLUSTER_FLAG_FULL;
	return (ci->flags & (CLUSTER_FLAG_FULL | CLUSTER_FLAG_FRAG)) &&
	       CS_SWAPFILE_CLUSTER - ci->count >= CS_RELIST_FREE;
}

/**
 * cs_free_slots_locked() - The final free of @nr slots of one cluster.
 * @si: the device, with cluster_info.
 * @ci: the cluster, locked by the caller; unlocked on return.
 * @offset: the first slot; @nr slots from there lie in one cluster.
 * @nr: slots, 1 or a folio's.
 *
 * cs_release_slots(), then the cluster moves list if its count calls for
 * it, and the slots go back to this CPU's inuse_pages credit.
 * Context: ci->lock held, no other swap lock; may run under a page-table
 * lock or with IRQs off; never sleeps.
 */
void cs_free_slots_locked(struct swap_info_struct *si, struct swap_cluster_info *ci,
			  unsigned long offset, unsigned int nr)
{
	cs_release_slots(si, ci, offset, nr);
	if (cs_freed_needs_relist(si, ci)) {
		if (cs_trylock_si_under_ci(si, ci)) {
			cs_relist(si, ci);
			spin_unlock(&si->lock);
			cs_count_lock(CS_LOCK_RELIST);
		} else if (ci->flags & CLUSTER_FLAG_FULL || !ci->count) {
			/* Needed for the cluster to be found again: wait, in order. */
			cs_relock_si_ci(si, ci);
			cs_relist(si, ci);
			spin_unlock(&si->lock);
			cs_count_lock(CS_LOCK_RELIST);
		}
		/* A frag cluster may stay on frag: the slow path scans frag too. */
	}
	spin_unlock(&ci->lock);

	cs_credit_put(si, nr);
}

/*
 * Slots of devices without cluster_info stay with stock code, freed directly
 * (not parked in the slot cache) after their zswap copy is dropped.
 */
void cs_free_stock(swp_entry_t entry)
{
	cs_zswap_invalidate(swp_type(entry), swp_offset(entry), 1);
	cs_sym_call2(CS_SYM_swapcache_free_entries, &entry, 1);
}

/**
 * cs_put_folio() - What put_swap_folio() does, with the module's final free.
 * @folio: a folio leaving the swap cache, or one whose charge failed.
 * @entry: its first swap entry.
 *
 * A folio whose slots are referenced by the cache alone is freed here at
 * once under the cluster lock, one page or a large folio's
 * range (stock takes si->lock for a range and skips zswap, and sends a
 * single page through free_swap_slot(): for the module a second redirect).
 * Anything else goes to stock put_swap_folio(), which drops the cache
 * reference under ci->lock and sends each slot that reaches 0 to
 * free_swap_slot(), that is to cs_free_swap_slot(); should its own re-check
 * find the whole range cached, its swap_entry_range_free() comes to
 * cs_swap_entry_range_free().
 * Context: under a page-table lock or the folio lock; never sleeps.
 */
void cs_put_folio(struct folio *folio, swp_entry_t entry)
{
	unsigned int nr = folio_nr_pages(folio);
	unsigned long offset = swp_offset(entry);
	struct swap_info_struct *si = cs_swap_device(swp_type(entry));
	struct swap_cluster_info *ci;

	/*
	 * Usually a page is written out with its slot still mapped: its byte
	 * holds a count beside the cache's bit, and stock code only drops the
	 * bit.  Read without the lock, the byte can only lead to stock: a
	 * slot that turns cache-only meanwhile is freed there (through
	 * free_swap_slot() or swap_entry_range_free(), both the module's), and
	 * one that reads cache-only is checked again under the lock.
	 */
	if (si && si->cluster_info && offset < si->max &&
	    READ_ONCE(si->swap_map[offset]) == SWAP_HAS_CACHE) {
		ci = cs_cluster_of(si, offset);
		spin_lock(&ci->lock);
		if (cs_only_cached(si, offset, nr)) {
			cs_free_slots_locked(si, ci, offset, nr);	/* unlocks */
			return;
		}
		spin_unlock(&ci->lock);
	}
	cs_sym_call2(CS_SYM_put_swap_folio, folio, entry.val);
}

/**
 * cs_swap_entry_range_free() - Replacement for swap_entry_range_free().
 * @si: the device, locked by the caller.
 * @entry: the first slot of the range.
 * @nr: slots, in one cluster, each held by the swap cache alone.
 *
 * The final free that stock code still makes while the module serves: the
 * reclaim worker and stock allocation reclaiming cache-only slots
 * (__try_to_reclaim_swap() with TTRS_DIRECT), a zapped range freed in one
 * batch (__swap_entries_free()), stock put_swap_folio()'s large-folio path,
 * and a slot-cache drain that started before the switch.  Stock sets the
 * bytes to 0 first and cleans up after, under si->lock alone, while the
 * module's fast path allocates under ci->lock alone: the slot could go to a
 * new owner whose zram data, zeromap bit or memcg charge the late clean-up
 * would then destroy (module/README.md, D1).  Here the clean-ups come first,
 * under ci->lock, as in every module free; the caller already holds
 * si->lock, so the list move and inuse_pages are done directly.
 * Devices without cluster_info are the module's only through this hook:
 * they go to the original.
 * Context: si->lock held (every stock caller takes it); never sleeps.
 */
void cs_swap_entry_range_free(struct swap_info_struct *si, swp_entry_t entry,
			      unsigned int nr)
{
	unsigned long offset = swp_offset(entry);
	struct swap_cluster_info *ci;

	cs_hook_enter(CS_SYM_swap_entry_range_free);
	lockdep_assert_held(&si->lock);
	if (!si->cluster_info) {
		cs_sym_call3(CS_SYM_swap_entry_range_free, si, entry.val, nr);
		goto out;
	}
	ci = cs_cluster_of(si, offset);
	spin_lock(&ci->lock);
	if (cs_warn_once(!cs_only_cached(si, offset, nr),
			 "stock freeing swap slots %u:%lu+%u not held by the cache alone\n",
			 si->type, offset, nr)) {
		spin_unlock(&ci->lock);
		goto out;
	}
	cs_release_slots(si, ci, offset, nr);
	cs_count(stock_final_free);
	if (cs_freed_needs_relist(si, ci))
		cs_relist(si, ci);
	spin_unlock(&ci->lock);
	/* As swap_range_free(): these slots were counted in inuse_pages. */
	WRITE_ONCE(si->inuse_pages, si->inuse_pages - min(nr, si->inuse_pages));
	if (!si->highest_bit && (si->flags & SWP_WRITEOK))
		cs_unmark_full(si);
out:
	cs_hook_exit();
}

/**
 * cs_free_swap_and_cache_nr() - Replacement for free_swap_and_cache_nr().
 * @entry: first entry of a range of swap PTEs being zapped.
 * @nr: entries.
 *
 * Stock frees a range whose slots all hold one reference in one batch under
 * si->lock.  Entry by entry, stock's ci->lock path drops each reference and
 * sends each slot that reaches 0 to free_swap_slot() (cs_free_swap_slot()),
 * then reclaims cache-only slots as the batch would: same result, no
 * si->lock.
 *
 * Last entry first: each call that leaves its slot to the swap cache alone
 * tries to reclaim the folio, and __try_to_reclaim_swap() checks the
 * folio's slots from its first one and gives up at the first still mapped.
 * Backwards, that is the folio's first slot until the call that frees it,
 * which then reclaims the folio whole; forwards, a folio of n pages would
 * cost n^2 / 2 byte reads under the page-table lock.
 * Context: under a page-table lock; never sleeps.
 */
void cs_free_swap_and_cache_nr(swp_entry_t entry, int nr)
{
	int i;

	cs_hook_enter(CS_SYM_free_swap_and_cache_nr);
	for (i = nr - 1; i >= 0; i--)
		cs_sym_call2(CS_SYM_free_swap_and_cache_nr,
			     swp_entry(swp_type(entry), swp_offset(entry) + i).val, 1);
	cs_hook_exit();
}

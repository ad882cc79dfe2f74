// SPDX-License-Identifier: GPL-2.0
/*
 * Swap-slot allocation on 6.1, with the design upstream reached in 6.15:
 *
 *  - fast path: this CPU's cluster, under that cluster's lock only
 *    (cs_alloc_fast());
 *  - slow path: walk the avail list in priority order (module/walk.c), and
 *    on each device take a cluster under si->lock: the free list's head,
 *    else a partly used cluster found from the device's rotor, and set a
 *    second empty one aside for the fast path to go on in
 *    (cs_alloc_on_device());
 *  - a PMD THP takes the free list's head whole, as stock
 *    swap_alloc_cluster() does (block devices only);
 *  - no slot cache: the slot is the caller's when the call returns.
 *
 * 6.1 keeps no list of partly used clusters (only free and discard): a
 * cluster in use is on no list.  Stock 6.1 finds room there by a linear scan
 * of swap_map under si->lock; the module looks for a cluster whose count
 * says it has room, from where it last found one, and scans bytes only in
 * that cluster, under its lock.
 *
 * A device without cluster_info (rotational) is left to stock code, as on
 * 6.12; so is an order-0 allocation that finds no room (stock can reclaim
 * slots held only by the swap cache, and wait for discards).
 */
#include <linux/swap.h>
#include <linux/huge_mm.h>

#include "internal.h"
#include <clusterswap/alloc.h>
#include <clusterswap/hooks.h>
#include <clusterswap/symbols.h>
#include <clusterswap/line.h>
#include <clusterswap/warn.h>
#include <clusterswap/trace.h>

DEFINE_PER_CPU(struct cs_pcp, cs_pcp) = {
	.lock = INIT_LOCAL_LOCK(lock),
};

DEFINE_PER_CPU(struct cs_stats, cs_stats);

/*
 * Per swap type: the cluster after the one where the slow path last found
 * room.  A hint, read and written under si->lock.
 */
static unsigned long cs_rotor[MAX_SWAPFILES];

/* ---------------------------------------------------------------------
 * One cluster
 * ---------------------------------------------------------------------
 */

/* The cursor after @found: the next slot, 0 ("none") at the cluster's end. */
static unsigned long cs_cursor_after(struct swap_info_struct *si, struct swap_cluster_info *ci,
				     unsigned long found)
{
	if ((found + 1) % CS_SWAPFILE_CLUSTER == 0 || found + 1 >= si->max ||
	    ci->data >= CS_SWAPFILE_CLUSTER)
		return 0;
	return cs_pack(si->type, found + 1);
}

/*
 * Take a slot of @ci from its start and make it this CPU's cluster.
 * Context: cs_pcp.lock, si->lock and ci->lock held.
 */
static unsigned long cs_take_here(struct cs_pcp *pcp, struct swap_info_struct *si,
				  struct swap_cluster_info *ci, enum cs_take_from from)
{
	unsigned long idx = cs_cluster_index(si, ci);
	unsigned long found;

	cs_assert_pcp_locked();
	lockdep_assert_held(&ci->lock);
	found = cs_cluster_take(si, ci, idx * CS_SWAPFILE_CLUSTER);
	if (found) {
		pcp->next = cs_cursor_after(si, ci, found);
		trace_cluster_take(si->type, idx, 0, from, false);
	}
	return found;
}

/* ---------------------------------------------------------------------
 * One device
 * ---------------------------------------------------------------------
 */

/*
 * The free list's head, made this CPU's cluster.
 * Context: cs_pcp.lock and si->lock held.
 * Upstream counterpart: the free-list step of cluster_alloc_swap_entry().
 */
static unsigned long cs_take_free(struct cs_pcp *pcp, struct swap_info_struct *si)
{
	struct swap_cluster_info *ci;
	unsigned long found;

	lockdep_assert_held(&si->lock);
	if (si->free_clusters.head.flags & CLUSTER_FLAG_NEXT_NULL)
		return 0;
	ci = si->cluster_info + si->free_clusters.head.data;
	spin_lock(&ci->lock);
	cs_take_free_head(si, ci);
	found = cs_take_here(pcp, si, ci, CS_TAKE_FREE);
	spin_unlock(&ci->lock);
	return found;
}

/*
 * A partly used cluster, found from the device's rotor by its count (a racy
 * read: the bytes under ci->lock are the truth), preferring one no other CPU
 * allocates from.  An empty cluster left off the lists is used in place.
 * Context: cs_pcp.lock and si->lock held.
 * Upstream counterpart: the nonfull and frag steps of cluster_alloc_swap_entry().
 */
static unsigned long cs_take_partial(struct cs_pcp *pcp, struct swap_info_struct *si)
{
	unsigned long nr = DIV_ROUND_UP(si->max, CS_SWAPFILE_CLUSTER);
	unsigned long i, idx, shared = nr, found = 0;
	struct swap_cluster_info *ci;

	lockdep_assert_held(&si->lock);
	for (i = 0; i < nr && !found; i++) {
		idx = (cs_rotor[si->type] + i) % nr;
		ci = si->cluster_info + idx;
		cs_count(scanned);
		/*
		 * Racy reads of the cluster word, as a filter only: the word
		 * changes under ci->lock, and cs_cluster_take() reads it again
		 * there.
		 */
		if (data_race((ci->flags & CLUSTER_FLAG_FREE) || ci->data >= CS_SWAPFILE_CLUSTER))
			continue;
		if (cs_cluster_in_use(si, idx)) {
			cs_count(in_use_skipped);
			if (shared == nr)
				shared = idx;
			continue;
		}
		spin_lock(&ci->lock);
		found = cs_take_here(pcp, si, ci, CS_TAKE_NONFULL);
		spin_unlock(&ci->lock);
	}
	if (found) {
		cs_rotor[si->type] = idx;
	} else if (shared < nr) {
		/* Only clusters other CPUs allocate from: share one. */
		ci = si->cluster_info + shared;
		spin_lock(&ci->lock);
		found = cs_take_here(pcp, si, ci, CS_TAKE_NONFULL);
		spin_unlock(&ci->lock);
	}
	return found;
}

/*
 * A PMD THP: the free list's head, whole, as swap_alloc_cluster() takes it.
 * Context: si->lock held.
 */
static unsigned long cs_take_pmd(struct swap_info_struct *si)
{
	struct swap_cluster_info *ci;
	unsigned long idx, start;

	lockdep_assert_held(&si->lock);
	if (si->free_clusters.head.flags & CLUSTER_FLAG_NEXT_NULL ||
	    !(si->flags & SWP_WRITEOK))
		return 0;
	idx = si->free_clusters.head.data;
	start = idx * CS_SWAPFILE_CLUSTER;
	ci = si->cluster_info + idx;
	spin_lock(&ci->lock);
	cs_take_free_head(si, ci);
	/* cluster_set_count_flag(ci, SWAPFILE_CLUSTER, CLUSTER_FLAG_HUGE) */
	ci->data = CS_SWAPFILE_CLUSTER;
	ci->flags = CLUSTER_FLAG_HUGE;
	memset(si->swap_map + start, SWAP_HAS_CACHE, CS_SWAPFILE_CLUSTER);
	spin_unlock(&ci->lock);
	trace_cluster_take(si->type, idx, CS_PMD_ORDER, CS_TAKE_FREE, false);
	return start;
}

/*
 * Set an empty cluster aside for this CPU while si->lock is held anyway: the
 * free list's head, taken off it (count 0, on no list).  A cluster no CPU
 * ends up using is put back by the switch-off or swapoff (cs_settle_empty()).
 * Context: cs_pcp.lock and si->lock held.
 * Upstream counterpart: none: upstream keeps one cluster per CPU and order.
 */
static void cs_set_spare(struct cs_pcp *pcp, struct swap_info_struct *si)
{
	struct swap_cluster_info *ci;
	unsigned long idx;

	cs_assert_pcp_locked();
	lockdep_assert_held(&si->lock);
	if (pcp->spare || (si->free_clusters.head.flags & CLUSTER_FLAG_NEXT_NULL) ||
	    !(si->flags & SWP_WRITEOK))
		return;
	idx = si->free_clusters.head.data;
	ci = si->cluster_info + idx;
	spin_lock(&ci->lock);
	cs_take_free_head(si, ci);
	spin_unlock(&ci->lock);
	pcp->spare = cs_pack(si->type, idx);
	trace_cluster_take(si->type, idx, 0, CS_TAKE_FREE, true);
}

/*
 * Credit for this cluster and the spare, taken in the slow path's hold so
 * that the fast path does not come back for it, when the device has room
 * for a whole batch (otherwise cs_credit_refill() has taken what is needed).
 * Context: cs_pcp.lock and si->lock held.
 */
static void cs_credit_ahead(struct cs_pcp *pcp, struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
	if (si->pages >= si->inuse_pages + cs_credit_batch)
		cs_credit_refill(si, pcp, cs_credit_batch);
}

/**
 * cs_alloc_on_device() - One device of the walk (module/walk.c).
 * @pcp: this CPU's state.
 * @si: the device.
 * @order: 0, or CS_PMD_ORDER.
 *
 * Context: cs_pcp.lock held.
 * Return: the slot, or 0.
 * Upstream counterpart: the per-device body of swap_alloc_slow().
 */
unsigned long cs_alloc_on_device(struct cs_pcp *pcp, struct swap_info_struct *si, int order)
{
	unsigned int nr = 1U << order;
	unsigned long found = 0;

	cs_assert_pcp_locked();
	/* As get_swap_pages(): a PMD THP only on block devices. */
	if (order && !(si->flags & SWP_BLKDEV))
		return 0;
	if (!cs_device_live_rcu(si))
		return 0;
	spin_lock(&si->lock);
	cs_count_lock(CS_LOCK_SLOW);
	if (!si->highest_bit || !(si->flags & SWP_WRITEOK) || !si->cluster_info) {
		/* As get_swap_pages(): off the avail list, lazily. */
		cs_avail_del(si);
		goto unlock;
	}
	/* Undo stock allocations' narrowing while the lock is held anyway. */
	cs_bounds_full_width(si);
	if (!cs_credit_refill(si, pcp, nr)) {
		if (!order)
			cs_mark_full(si);
		goto unlock;
	}
	if (cs_warn_once(!cs_credit_take(pcp, si->type, nr),
			 "no credit on swap type %u just after a refill\n", si->type))
		goto unlock;
	if (order) {
		found = cs_take_pmd(si);
	} else {
		found = cs_take_free(pcp, si) ?: cs_take_partial(pcp, si);
		if (found) {
			cs_set_spare(pcp, si);
			cs_credit_ahead(pcp, si);
		}
	}
	if (!found)
		cs_credit_put_locked(si, pcp, nr);
unlock:
	spin_unlock(&si->lock);
	return found;
}

/* ---------------------------------------------------------------------
 * Fast path
 * ---------------------------------------------------------------------
 */

/* What the fast path says when it has no slot for the caller. */
enum cs_fast {
	CS_FAST_NO_CLUSTER,	/* no usable cluster: the slow path picks one */
	CS_FAST_NO_CREDIT,	/* a cluster, but no inuse_pages credit left */
};

/**
 * cs_alloc_fast() - Allocate a single page's slot from this CPU's cluster.
 * @pcp: this CPU's state.
 * @why: set to why there is no slot, when there is none.
 *
 * Context: cs_pcp.lock held.
 * Return: the swap entry value, or 0.
 * Upstream counterpart: swap_alloc_fast().
 */
static unsigned long cs_alloc_fast(struct cs_pcp *pcp, enum cs_fast *why)
{
	struct swap_cluster_info *ci;
	struct swap_info_struct *si;
	unsigned long offset, found;
	unsigned int type;

	cs_assert_pcp_locked();
	*why = CS_FAST_NO_CLUSTER;
	if (!cs_unpack(pcp->next, &type, &offset))
		return 0;
	si = cs_swap_device(type);
	if (!si || !cs_device_live_rcu(si)) {
		pcp->next = 0;
		return 0;
	}
	/* cluster_info and max stay put until cs_pcp.lock is dropped (cs_device_live_rcu()). */
	if (!si->cluster_info || offset >= si->max) {
		pcp->next = 0;
		goto out;
	}
	if (!cs_credit_take(pcp, type, 1)) {
		*why = CS_FAST_NO_CREDIT;
		goto out;
	}

	ci = cs_cluster_of(si, offset);
	spin_lock(&ci->lock);
	/*
	 * A cluster freed to the free list meanwhile is refused here (taking
	 * it needs si->lock), as is a discard cluster (no 0 byte).
	 */
	found = cs_cluster_take(si, ci, offset);
	pcp->next = found ? cs_cursor_after(si, ci, found) : 0;
	spin_unlock(&ci->lock);

	if (found)
		cs_count(fast);
	else
		cs_credit_put(si, 1);
out:
	return found ? swp_entry(type, found).val : 0;
}

/* The cluster in use is done: go on in the spare, if any.  Context: cs_pcp.lock. */
static bool cs_use_spare(struct cs_pcp *pcp)
{
	unsigned long idx;
	unsigned int type;

	cs_assert_pcp_locked();
	if (!cs_unpack(pcp->spare, &type, &idx))
		return false;
	pcp->spare = 0;
	pcp->next = cs_pack(type, idx * CS_SWAPFILE_CLUSTER);
	return true;
}

/*
 * The fast path has a cluster but no credit: refill from the cluster's
 * device.  Context: cs_pcp.lock held.
 * Return: whether the fast path may try again.
 */
static bool cs_refill_credit(struct cs_pcp *pcp)
{
	struct swap_info_struct *si;
	unsigned long offset;
	unsigned int type;
	bool ok;

	cs_assert_pcp_locked();
	if (!cs_unpack(pcp->next, &type, &offset))
		return false;
	si = cs_swap_device(type);
	if (!si || !cs_device_live_rcu(si))
		return false;
	spin_lock(&si->lock);
	cs_count_lock(CS_LOCK_CREDIT);
	ok = cs_credit_refill(si, pcp, 1);
	if (!ok)
		pcp->next = 0;
	spin_unlock(&si->lock);
	return ok;
}

/* ---------------------------------------------------------------------
 * Stock allocation beside the module (module/stock_alloc.c)
 * ---------------------------------------------------------------------
 */

/*
 * Stock's allocation of one slot, without the slot cache (the module leaves
 * it empty).  6.1's get_swap_pages() takes a size in pages, not an order.
 */
static unsigned long cs_alloc_stock(int order, enum cs_stock_why why)
{
	swp_entry_t entry = { 0 };

	cs_count(stock_fallback);
	trace_stock_fallback(order, why);
	cs_stock_alloc_prepare(1U << order);
	cs_sym_call3(CS_SYM_get_swap_pages, 1, &entry, 1U << order);
	cs_stock_alloc_done(entry);
	return entry.val;
}

/* ---------------------------------------------------------------------
 * Entry point
 * ---------------------------------------------------------------------
 */

/* A PMD THP gets no slot: its caller splits it. */
static void cs_large_refused(enum cs_large_why why)
{
	cs_count(large_fail_pmd);
	trace_large_refused(CS_PMD_ORDER, why);
}

/*
 * This CPU's cluster (a single page), then the walk over devices; nothing
 * once the switch has begun to go off.
 * Context: cs_pcp.lock held.
 */
static unsigned long cs_alloc_locked(struct cs_pcp *pcp, int order, bool *stock,
				     enum cs_stock_why *why)
{
	enum cs_fast fast_why;
	unsigned long val = 0;

	if (cs_alloc_stopped(stock, why))
		return 0;
	if (!order) {
		val = cs_alloc_fast(pcp, &fast_why);
		if (!val && fast_why == CS_FAST_NO_CLUSTER && cs_use_spare(pcp))
			val = cs_alloc_fast(pcp, &fast_why);
		if (!val && fast_why == CS_FAST_NO_CREDIT && cs_refill_credit(pcp))
			val = cs_alloc_fast(pcp, &fast_why);
	}
	if (!val)
		val = cs_alloc_slow(pcp, order, stock, why);
	return val;
}

/*
 * One try of the module's own allocation: reserve the slots, then this CPU's
 * cluster, then the walk over devices.  *@stock says whether to ask stock
 * code instead, and *@why why.
 * Context: no lock held.
 * Return: the entry's value, or 0 with the reservation given back.
 */
static unsigned long cs_alloc_served(int order, bool *stock, enum cs_stock_why *why)
{
	unsigned int nr = 1U << order;
	struct cs_pcp *pcp;
	unsigned long val;

	*stock = false;
	*why = CS_STOCK_NO_ROOM;
	if (!cs_reserve_swap_pages(nr)) {
		if (order)
			cs_large_refused(CS_LARGE_NO_SWAP_PAGES);
		return 0;
	}

	local_lock(&cs_pcp.lock);
	pcp = this_cpu_ptr(&cs_pcp);
	val = cs_alloc_locked(pcp, order, stock, why);
	local_unlock(&cs_pcp.lock);

	if (val) {
		if (order)
			cs_count(alloc_pmd);
		else
			cs_count(alloc_order0);
		cs_full_after_alloc((swp_entry_t){ .val = val });
	} else {
		atomic_long_add(nr, &nr_swap_pages);
		if (order && !*stock)
			cs_large_refused(CS_LARGE_NO_ROOM);
	}
	return val;
}

/**
 * cs_folio_alloc_swap() - Replacement for folio_alloc_swap().
 * @folio: the locked folio to be swapped out.
 *
 * A single page, or a PMD THP where the architecture swaps those whole (as
 * folio_alloc_swap() decides); 6.1 makes no other large folio for swap, and
 * one would get no slot here (stock would give it a single slot).
 * Context: process context (reclaim, shmem writeout); may sleep.
 * Return: the first swap entry of the folio's range, or 0.
 * Upstream counterpart: folio_alloc_swap().
 */
swp_entry_t cs_folio_alloc_swap(struct folio *folio)
{
	enum cs_stock_why why;
	int order = folio_order(folio);
	swp_entry_t entry = { 0 };
	bool stock;

	cs_hook_enter(CS_SYM_folio_alloc_swap);
	/* The caller's side of the contract, checked on DEBUG_VM kernels. */
	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	if (order && (order != CS_PMD_ORDER || !arch_thp_swp_supported()))
		goto charge;
	/* Pairs with the smp_store_release() in 6.1/serve.c. */
	if (!smp_load_acquire(&cs_alloc_ready)) {
		entry.val = cs_alloc_stock(order, CS_STOCK_TAKING_OVER);
		goto charge;
	}
	entry.val = cs_alloc_served(order, &stock, &why);
	if (!entry.val && stock)
		entry.val = cs_alloc_stock(order, why);
charge:
	/* As folio_alloc_swap(), also without a slot (memcg "fail" events). */
	if (cs_charge_swap(folio, entry) && entry.val) {
		cs_put_folio(folio, entry);
		entry.val = 0;
	}
	cs_hook_exit();
	return entry;
}

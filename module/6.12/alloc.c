// SPDX-License-Identifier: GPL-2.0
/*
 * Swap-slot allocation on 6.12, as upstream does it since 6.15:
 *
 *  - fast path: this CPU's cluster for the folio's order, under that
 *    cluster's lock only (cs_alloc_fast());
 *  - slow path: walk the avail list in priority order (module/walk.c: round robin among
 *    equal priorities, as stock), and on each device take a cluster under
 *    si->lock: nonfull of the order, then free, then frag, then (order 0)
 *    any partly used cluster of a higher order (cs_alloc_on_device());
 *  - no slot cache: the slot is the caller's when the call returns.
 *
 * A device without cluster_info (rotational) is left to stock code: when the
 * walk reaches one before finding a slot, the call goes to stock
 * get_swap_pages(), as it does when no managed device has a free slot (stock
 * can reclaim slots held only by the swap cache, and wait for discards).
 * A large folio that finds no room gets "no slot" and is split by its caller.
 */
#include <linux/swap.h>

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

/* ---------------------------------------------------------------------
 * One cluster
 * ---------------------------------------------------------------------
 */

/* From @offset on, then (slots behind it may have been freed since) from the start. */
static unsigned long cs_take_wrapping(struct swap_info_struct *si, struct swap_cluster_info *ci,
				      unsigned long offset, int order)
{
	unsigned long found = cs_cluster_take(si, ci, offset, order);

	return found ?: cs_cluster_take(si, ci, 0, order);
}

/*
 * Try one cluster under si->lock, found on the list @from says.  @cache:
 * make it this CPU's cluster for @order when room is left (not when order 0
 * borrows a higher order's, nor for a whole-cluster allocation).
 * Upstream counterpart: alloc_swap_scan_cluster().
 */
static unsigned long cs_take_locked(struct cs_pcp *pcp, struct swap_info_struct *si,
				    struct swap_cluster_info *ci, int order,
				    enum cs_take_from from, bool cache)
{
	unsigned long idx = cs_cluster_index(si, ci);
	unsigned long start = idx * CS_SWAPFILE_CLUSTER;
	unsigned int nr = 1U << order;
	unsigned long found;

	spin_lock(&ci->lock);
	found = cs_cluster_take(si, ci, start, order);
	if (found)
		trace_cluster_take(si->type, idx, order, from, false);
	/* Full now (or found full: a filled cluster someone left): to full. */
	if (ci->count == CS_SWAPFILE_CLUSTER)
		cs_relist(si, ci);
	else if (found && cache)
		pcp->next[order] = cs_pack(si->type, (found + nr) % CS_SWAPFILE_CLUSTER ?
					   found + nr : start);
	spin_unlock(&ci->lock);
	return found;
}

/*
 * The allocation that fills a cluster of an order above 0 (of any allocation
 * order: single pages borrow from such clusters) moves it to the full list
 * at once, under si->lock.  Stock's order-0 allocation borrows from higher
 * orders by retrying the head of their frag and nonfull lists until it
 * yields a slot ("Clusters here have at least one usable slots",
 * cluster_alloc_swap_entry()), so a full cluster left there would make it
 * spin under si->lock for ever (module/README.md, D2).  Order-0 clusters may
 * wait for the CPU's next slow path: stock's loops over those are bounded.
 * When si->lock is busy, the fast path leaves the cluster to the slow path,
 * which fills it under si->lock.
 * Context: cs_pcp.lock and ci->lock held.
 * Return: the first slot, or 0.
 * Upstream counterpart: none: upstream moves lists under the cluster lock (relocate_cluster()).
 */
static unsigned long cs_take_last(struct swap_info_struct *si, struct swap_cluster_info *ci,
				  unsigned long offset, int order)
{
	unsigned long found;

	cs_assert_pcp_locked();
	lockdep_assert_held(&ci->lock);
	if (!cs_trylock_si_under_ci(si, ci))
		return 0;
	cs_count_lock(CS_LOCK_LAST);
	found = cs_take_wrapping(si, ci, offset, order);
	if (ci->count == CS_SWAPFILE_CLUSTER)
		cs_relist(si, ci);
	spin_unlock(&si->lock);
	return found;
}

/* ---------------------------------------------------------------------
 * One list
 * ---------------------------------------------------------------------
 */

#define cs_first_cluster(head) \
	list_first_entry_or_null(head, struct swap_cluster_info, list)

/*
 * The first nonfull cluster of @order, moved to frag (where CPUs' clusters
 * live), that no CPU is allocating from (cs_cluster_in_use()); those that a
 * CPU is allocating from go to frag too and stay its own.  Each cluster seen
 * leaves nonfull, so this ends.
 * Context: si->lock held.
 * Upstream counterpart: the nonfull loop of cluster_alloc_swap_entry().
 */
static struct swap_cluster_info *cs_nonfull_to_frag(struct swap_info_struct *si, int order)
{
	struct swap_cluster_info *ci;

	while ((ci = cs_first_cluster(&si->nonfull_clusters[order]))) {
		spin_lock(&ci->lock);
		cs_move_to_frag(si, ci);
		spin_unlock(&ci->lock);
		if (!cs_cluster_in_use(si, cs_cluster_index(si, ci), order))
			return ci;
		cs_count(in_use_skipped);
	}
	return NULL;
}

/* Context: as below. */
static unsigned long cs_try_nonfull(struct cs_pcp *pcp, struct swap_info_struct *si,
				    int order)
{
	struct swap_cluster_info *ci;
	unsigned long found;

	while ((ci = cs_nonfull_to_frag(si, order))) {
		found = cs_take_locked(pcp, si, ci, order, CS_TAKE_NONFULL, true);
		if (found)
			return found;
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * One device
 * ---------------------------------------------------------------------
 */

/*
 * cluster_alloc_swap_entry() without the per-CPU hint, the reclaim of
 * cache-only slots or the synchronous discard (all of which may sleep).
 * Context: cs_pcp.lock and si->lock held.
 * Upstream counterpart: cluster_alloc_swap_entry().
 */
static unsigned long cs_pick_cluster(struct cs_pcp *pcp, struct swap_info_struct *si,
				     int order)
{
	struct swap_cluster_info *ci, *tmp;
	unsigned long found = 0;
	unsigned int i, n;
	int o;

	cs_assert_pcp_locked();
	lockdep_assert_held(&si->lock);
	if (order >= CS_PMD_ORDER) {
		ci = cs_first_cluster(&si->free_clusters);
		if (!ci)
			cs_reclaim_want(si);
		return ci ? cs_take_locked(pcp, si, ci, order, CS_TAKE_FREE, false) : 0;
	}

	/* Discardable devices spread writes over free clusters first (upstream). */
	ci = cs_first_cluster(&si->free_clusters);
	if ((si->flags & SWP_PAGE_DISCARD) && ci) {
		found = cs_take_locked(pcp, si, ci, order, CS_TAKE_FREE, true);
		if (found)
			return found;
	}
	found = cs_try_nonfull(pcp, si, order);
	if (found)
		return found;
	ci = cs_first_cluster(&si->free_clusters);
	if (ci) {
		found = cs_take_locked(pcp, si, ci, order, CS_TAKE_FREE, true);
		if (found)
			return found;
	} else {
		/* Drained: the entry point scans for idle swap cache. */
		cs_reclaim_want(si);
	}
	/* One turn of frag, rotating it as stock does. */
	n = si->frag_cluster_nr[order];
	for (i = 0; i < n && (ci = cs_first_cluster(&si->frag_clusters[order])); i++) {
		cs_rotate_frag(si, ci);
		found = cs_take_locked(pcp, si, ci, order, CS_TAKE_FRAG, true);
		if (found)
			return found;
	}
	/*
	 * Full clusters keep up to CS_RELIST_FREE - 1 free slots (internal.h),
	 * where stock would have relisted them at the first free: before
	 * telling a large folio "no slot", look there too, as stock's nonfull
	 * list would have.
	 */
	if (order)
		return cs_sweep_full(si, order) ? cs_try_nonfull(pcp, si, order) : 0;
	cs_sweep_full(si, -1);
	found = cs_try_nonfull(pcp, si, 0);
	if (found)
		return found;
	/*
	 * Order 0 borrows from a higher order's partly used cluster, and its
	 * fast path goes on there (as stock's per-CPU hint does): without the
	 * cursor, a device whose room is all in such clusters sent every
	 * single page to si->lock (measured: 555 holds per 1000 allocations).
	 */
	for (o = 1; o < SWAP_NR_ORDERS; o++) {
		list_for_each_entry_safe(ci, tmp, &si->frag_clusters[o], list) {
			found = cs_take_locked(pcp, si, ci, 0, CS_TAKE_BORROW, true);
			if (found)
				return found;
		}
		list_for_each_entry_safe(ci, tmp, &si->nonfull_clusters[o], list) {
			found = cs_take_locked(pcp, si, ci, 0, CS_TAKE_BORROW, true);
			if (found)
				return found;
		}
	}
	return 0;
}

/*
 * Set a second cluster aside for this CPU while si->lock is held anyway: a
 * partly used one of the order (moved to frag, as any cluster a CPU takes),
 * else a free one (given the order, on frag, empty).
 * Context: cs_pcp.lock and si->lock held.
 * Upstream counterpart: none: upstream keeps one cluster per CPU and order.
 */
static void cs_set_spare(struct cs_pcp *pcp, struct swap_info_struct *si, int order)
{
	struct swap_cluster_info *ci = cs_nonfull_to_frag(si, order);
	enum cs_take_from from = CS_TAKE_NONFULL;
	unsigned int nr = 1U << order;
	bool room;

	cs_assert_pcp_locked();
	if (ci) {
		spin_lock(&ci->lock);
		room = ci->count + nr <= CS_SWAPFILE_CLUSTER;
		if (!room)
			cs_relist(si, ci);
		spin_unlock(&ci->lock);
		if (!room)
			return;
	} else {
		ci = cs_first_cluster(&si->free_clusters);
		if (!ci || !(si->flags & SWP_WRITEOK))
			return;
		spin_lock(&ci->lock);
		cs_take_free_cluster(si, ci, order);
		spin_unlock(&ci->lock);
		from = CS_TAKE_FREE;
	}
	pcp->spare[order] = cs_pack(si->type, cs_cluster_index(si, ci));
	trace_cluster_take(si->type, cs_cluster_index(si, ci), order, from, true);
}

/*
 * One device of the walk.  Context: cs_pcp.lock held.
 * Return: the slot, or 0.
 * Upstream counterpart: the per-device body of swap_alloc_slow().
 */
unsigned long cs_alloc_on_device(struct cs_pcp *pcp, struct swap_info_struct *si, int order)
{
	unsigned int nr = 1U << order;
	unsigned long found = 0;

	cs_assert_pcp_locked();
	/* As scan_swap_map_slots(): large folios only on block devices. */
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
	cs_settle_cpu(si, pcp, order);
	if (!cs_credit_refill(si, pcp, nr)) {
		if (!order)
			cs_mark_full(si);
		goto unlock;
	}
	if (cs_warn_once(!cs_credit_take(pcp, si->type, nr),
			 "no credit on swap type %u just after a refill\n", si->type))
		goto unlock;
	found = cs_pick_cluster(pcp, si, order);
	if (!found)
		cs_credit_put_locked(si, pcp, nr);
	else if (order < CS_PMD_ORDER && !pcp->spare[order])
		cs_set_spare(pcp, si, order);
unlock:
	spin_unlock(&si->lock);
	return found;
}

/* ---------------------------------------------------------------------
 * This CPU's clusters
 * ---------------------------------------------------------------------
 */

/*
 * Record a cluster the fast path filled.  A CPU fills at most its cluster and
 * its spare between two slow paths, and every slow path settles them.
 */
static void cs_note_filled(struct cs_pcp *pcp, int order, unsigned long v)
{
	int i;

	for (i = 0; i < CS_HELD; i++) {
		if (!pcp->filled[order][i]) {
			pcp->filled[order][i] = v;
			return;
		}
	}
	/* Left on frag, full: found and moved by a later scan. */
	cs_warn_once(1, "a CPU filled more than %d clusters of order %d between slow paths\n",
		     CS_HELD, order);
}

/* The cluster in use is done: go on in the spare, if any.  Context: cs_pcp.lock. */
static bool cs_use_spare(struct cs_pcp *pcp, int order)
{
	unsigned long v = pcp->spare[order], idx;
	unsigned int type;

	cs_assert_pcp_locked();
	if (!cs_unpack(v, &type, &idx))
		return false;
	pcp->spare[order] = 0;
	pcp->next[order] = cs_pack(type, idx * CS_SWAPFILE_CLUSTER);
	return true;
}

/*
 * The fast path has a cluster but no credit: refill from the cluster's
 * device, settling this CPU's filled cluster of the order in the same
 * si->lock hold.  Context: cs_pcp.lock held.
 * Return: whether the fast path may try again.
 */
static bool cs_refill_credit(struct cs_pcp *pcp, int order)
{
	struct swap_info_struct *si;
	unsigned long offset;
	unsigned int type;
	bool ok;

	cs_assert_pcp_locked();
	if (!cs_unpack(pcp->next[order], &type, &offset))
		return false;
	si = cs_swap_device(type);
	if (!si || !cs_device_live_rcu(si))
		return false;
	spin_lock(&si->lock);
	cs_count_lock(CS_LOCK_CREDIT);
	cs_settle_cpu(si, pcp, order);
	ok = cs_credit_refill(si, pcp, 1U << order);
	if (!ok)
		cs_settle_cursor(si, &pcp->next[order]);
	spin_unlock(&si->lock);
	return ok;
}

/*
 * This CPU's filled cluster of @order belongs to a device the slow path did
 * not lock: settle it there, so that the fast path never fills another one
 * first.  Context: cs_pcp.lock held.
 */
static void cs_settle_filled_elsewhere(struct cs_pcp *pcp, int order)
{
	struct swap_info_struct *si;
	unsigned long idx;
	unsigned int type;
	int i;

	cs_assert_pcp_locked();
	for (i = 0; i < CS_HELD; i++) {
		if (!cs_unpack(pcp->filled[order][i], &type, &idx))
			continue;
		si = cs_swap_device(type);
		if (!si || !cs_device_live_rcu(si)) {
			/* Gone: the device's swapoff settled or dropped it. */
			pcp->filled[order][i] = 0;
			continue;
		}
		spin_lock(&si->lock);
		cs_count_lock(CS_LOCK_FILLED);
		cs_settle_cpu(si, pcp, order);
		spin_unlock(&si->lock);
	}
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
 * cs_alloc_fast() - Allocate from this CPU's cluster for @order.
 * @pcp: this CPU's state.
 * @order: allocation order.
 * @why: set to why there is no slot, when there is none.
 *
 * Context: cs_pcp.lock held.
 * Return: the swap entry value, or 0.
 * Upstream counterpart: swap_alloc_fast().
 */
static unsigned long cs_alloc_fast(struct cs_pcp *pcp, int order, enum cs_fast *why)
{
	unsigned int nr = 1U << order, type;
	struct swap_cluster_info *ci;
	struct swap_info_struct *si;
	unsigned long offset, found = 0;

	cs_assert_pcp_locked();
	*why = CS_FAST_NO_CLUSTER;
	if (!cs_unpack(pcp->next[order], &type, &offset))
		return 0;
	si = cs_swap_device(type);
	if (!si || !cs_device_live_rcu(si)) {
		pcp->next[order] = 0;
		return 0;
	}
	/* cluster_info and max stay put until cs_pcp.lock is dropped (cs_device_live_rcu()). */
	if (!si->cluster_info || offset >= si->max) {
		pcp->next[order] = 0;
		goto out;
	}
	if (!cs_credit_take(pcp, type, nr)) {
		*why = CS_FAST_NO_CREDIT;
		goto out;
	}

	ci = cs_cluster_of(si, offset);
	spin_lock(&ci->lock);
	/*
	 * Only a cluster on nonfull or frag (free ones need si->lock), of this
	 * order, or for order 0 of any order: single pages go on in a higher
	 * order's cluster they borrowed from, as stock's per-CPU hint does.
	 * Whatever fills a cluster of an order above 0 moves it to full.
	 */
	if ((ci->flags & (CLUSTER_FLAG_NONFULL | CLUSTER_FLAG_FRAG)) &&
	    (ci->order == order || !order)) {
		if (ci->order && ci->count + nr == CS_SWAPFILE_CLUSTER)
			found = cs_take_last(si, ci, offset, order);
		else
			found = cs_take_wrapping(si, ci, offset, order);
	}
	if (!found || (ci->flags & CLUSTER_FLAG_FULL)) {
		pcp->next[order] = 0;
	} else if (ci->count == CS_SWAPFILE_CLUSTER) {
		/* Full: to the full list at this CPU's next slow path. */
		cs_note_filled(pcp, order, cs_pack(type, cs_cluster_index(si, ci)));
		pcp->next[order] = 0;
	} else if ((found + nr) % CS_SWAPFILE_CLUSTER) {
		pcp->next[order] = cs_pack(type, found + nr);
	} else {
		/* At the end: the next allocation wraps to the cluster's start. */
		pcp->next[order] = cs_pack(type, found + nr - CS_SWAPFILE_CLUSTER);
	}
	spin_unlock(&ci->lock);

	if (found)
		cs_count(fast);
	else
		cs_credit_put(si, nr);
out:
	return found ? swp_entry(type, found).val : 0;
}

/* ---------------------------------------------------------------------
 * The slow path (the walk over devices: module/walk.c)
 * ---------------------------------------------------------------------
 */

/* The slow path, then the settling it owes the fast path. */
static unsigned long cs_alloc_slow_settled(struct cs_pcp *pcp, int order, bool *stock,
					   enum cs_stock_why *why)
{
	unsigned long val = cs_alloc_slow(pcp, order, stock, why);

	cs_settle_filled_elsewhere(pcp, order);
	return val;
}

/* ---------------------------------------------------------------------
 * Stock allocation beside the module (module/stock_alloc.c)
 * ---------------------------------------------------------------------
 */

/* Stock's allocation, without the slot cache (the module leaves it empty). */
static unsigned long cs_alloc_stock(int order, enum cs_stock_why why)
{
	swp_entry_t entry = { 0 };

	cs_count(stock_fallback);
	trace_stock_fallback(order, why);
	cs_stock_alloc_prepare(1U << order);
	cs_sym_call3(CS_SYM_get_swap_pages, 1, &entry, order);
	cs_stock_alloc_done(entry);
	return entry.val;
}

/* ---------------------------------------------------------------------
 * Entry point
 * ---------------------------------------------------------------------
 */

/* A large folio gets no slot: its caller splits it. */
static void cs_large_refused(int order, enum cs_large_why why)
{
	cs_count_n(large_fail[order], 1);
	trace_large_refused(order, why);
}

/*
 * This CPU's clusters, then the walk over devices; nothing once the switch
 * has begun to go off.
 * Context: cs_pcp.lock held.
 */
static unsigned long cs_alloc_locked(struct cs_pcp *pcp, int order, bool *stock,
				     enum cs_stock_why *why)
{
	enum cs_fast fast_why;
	unsigned long val;

	if (cs_alloc_stopped(stock, why))
		return 0;
	val = cs_alloc_fast(pcp, order, &fast_why);
	if (!val && fast_why == CS_FAST_NO_CLUSTER && cs_use_spare(pcp, order))
		val = cs_alloc_fast(pcp, order, &fast_why);
	if (!val && fast_why == CS_FAST_NO_CREDIT && cs_refill_credit(pcp, order))
		val = cs_alloc_fast(pcp, order, &fast_why);
	if (!val)
		val = cs_alloc_slow_settled(pcp, order, stock, why);
	return val;
}

/*
 * One try of the module's own allocation: reserve the slots, then this CPU's
 * clusters, then the walk over devices.  *@stock says whether to ask stock
 * code instead, *@why why (a rotational device first), or why not (no room
 * on any device the module serves, or no free slot at all).
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
			cs_large_refused(order, CS_LARGE_NO_SWAP_PAGES);
		return 0;
	}

	local_lock(&cs_pcp.lock);
	pcp = this_cpu_ptr(&cs_pcp);
	val = cs_alloc_locked(pcp, order, stock, why);
	local_unlock(&cs_pcp.lock);

	if (val) {
		cs_count_n(alloc[order], 1);
		cs_full_after_alloc((swp_entry_t){ .val = val });
	} else {
		atomic_long_add(nr, &nr_swap_pages);
		if (order && !*stock)
			cs_large_refused(order, CS_LARGE_NO_ROOM);
	}
	return val;
}

/**
 * cs_folio_alloc_swap() - Replacement for folio_alloc_swap().
 * @folio: the locked folio to be swapped out.
 *
 * An order-0 allocation that finds no room on the devices the module serves
 * frees idle swap cache there and tries once more (6.12/reclaim.c), before
 * it gives up or, where stock code may have room the module does not serve,
 * asks stock code.  Devices the slow path found short get their quick idle
 * swap cache scan on the way out, as stock's cluster_alloc_swap_entry() does.
 * Context: process context (reclaim, shmem writeout); may sleep, as stock's
 * scans of full clusters do (cond_resched()).
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
	if (order > CS_PMD_ORDER)
		goto charge;
	/* Pairs with the smp_store_release() in cs_line_serve_start(). */
	if (!smp_load_acquire(&cs_alloc_ready)) {
		entry.val = cs_alloc_stock(order, CS_STOCK_TAKING_OVER);
		goto charge;
	}
	entry.val = cs_alloc_served(order, &stock, &why);
	if (!entry.val && !order && why == CS_STOCK_NO_ROOM && cs_reclaim_idle_cache())
		entry.val = cs_alloc_served(order, &stock, &why);
	if (!entry.val && stock)
		entry.val = cs_alloc_stock(order, why);
	cs_reclaim_wanted_devices();
charge:
	/*
	 * As folio_alloc_swap(), also without a slot: the memcg counts that as
	 * a swap "fail" event (memory.swap.events; module/README.md, D6).
	 */
	if (cs_charge_swap(folio, entry) && entry.val) {
		cs_put_folio(folio, entry);
		entry.val = 0;
	}
	cs_hook_exit();
	return entry;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Clusters and their lists on 6.12: the list moves (as mm/swapfile.c makes them,
 * with frag_cluster_nr kept exact), and the slot scan.
 */
#include <linux/swap.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "internal.h"
#include <clusterswap/symbols.h>
#include <clusterswap/trace.h>

/* The list a cluster's flags say it is on, for the tracepoint. */
static enum cs_list cs_list_of(u8 flags)
{
	switch (flags) {
	case CLUSTER_FLAG_FREE:
		return CS_LIST_FREE;
	case CLUSTER_FLAG_NONFULL:
		return CS_LIST_NONFULL;
	case CLUSTER_FLAG_FRAG:
		return CS_LIST_FRAG;
	case CLUSTER_FLAG_FULL:
		return CS_LIST_FULL;
	default:
		return CS_LIST_NONE;
	}
}

/*
 * The one place a cluster changes lists (the discard worker aside): the
 * flags follow the list and frag_cluster_nr stays exact, which stock's frag
 * loop relies on (module/README.md, section 7, invariant 5).  @flag is 0
 * only for the discard list.
 * Context: si->lock and ci->lock held.
 */
static void cs_list_move(struct swap_info_struct *si, struct swap_cluster_info *ci,
			 struct list_head *to, u8 flag)
{
	lockdep_assert_held(&si->lock);
	lockdep_assert_held(&ci->lock);
	trace_cluster_move(si->type, cs_cluster_index(si, ci), ci->order,
			   cs_list_of(ci->flags), flag ? cs_list_of(flag) : CS_LIST_DISCARD);
	if (ci->flags & CLUSTER_FLAG_FRAG)
		si->frag_cluster_nr[ci->order]--;
	list_move_tail(&ci->list, to);
	ci->flags = flag;
	if (flag == CLUSTER_FLAG_FRAG)
		si->frag_cluster_nr[ci->order]++;
	cs_count(list_moves);
}

/**
 * cs_move_to_frag() - A nonfull cluster becomes a CPU's, on frag.
 * @si: the device.
 * @ci: the cluster, on nonfull.
 *
 * Context: si->lock and ci->lock held.
 */
void cs_move_to_frag(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	cs_list_move(si, ci, &si->frag_clusters[ci->order], CLUSTER_FLAG_FRAG);
}

/**
 * cs_rotate_frag() - Move a frag cluster to the tail of its list, as stock
 * rotates frag while it scans it.
 * @si: the device.
 * @ci: the cluster, on frag.
 *
 * Context: si->lock held (the list; the cluster itself does not change).
 */
void cs_rotate_frag(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	lockdep_assert_held(&si->lock);
	list_move_tail(&ci->list, &si->frag_clusters[ci->order]);
}

/**
 * cs_rotate_full() - Move a full cluster to the tail of the full list, as
 * stock's swap_reclaim_full_clusters() rotates it while it scans.
 * @si: the device.
 * @ci: the cluster, on full.
 *
 * Context: si->lock held (the list; the cluster itself does not change).
 */
void cs_rotate_full(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	lockdep_assert_held(&si->lock);
	list_move_tail(&ci->list, &si->full_clusters);
}

/* free_cluster(): to the free list, or to the discard list first. */
static void cs_free_cluster(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	unsigned long idx = cs_cluster_index(si, ci);

	if ((si->flags & (SWP_WRITEOK | SWP_PAGE_DISCARD)) ==
	    (SWP_WRITEOK | SWP_PAGE_DISCARD)) {
		/* swap_cluster_schedule_discard(): BAD until discarded. */
		memset(si->swap_map + idx * CS_SWAPFILE_CLUSTER, SWAP_MAP_BAD,
		       CS_SWAPFILE_CLUSTER);
		cs_list_move(si, ci, &si->discard_clusters, 0);
		schedule_work(&si->discard_work);
		return;
	}
	cs_list_move(si, ci, &si->free_clusters, CLUSTER_FLAG_FREE);
	ci->order = 0;
}

/**
 * cs_relist() - Put a cluster on the list its count calls for.
 * @si: the device.
 * @ci: the cluster.
 *
 * Empty: free (or discard); full: full; partly used and on full or frag:
 * nonfull of its order, as dec_cluster_info_page() does.  Clusters without a
 * flag belong to the discard worker and are left alone.
 * Context: si->lock and ci->lock held.
 */
void cs_relist(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	lockdep_assert_held(&si->lock);
	lockdep_assert_held(&ci->lock);

	if (!ci->flags)
		return;
	if (!ci->count) {
		if (!(ci->flags & CLUSTER_FLAG_FREE))
			cs_free_cluster(si, ci);
	} else if (ci->count == CS_SWAPFILE_CLUSTER) {
		if (!(ci->flags & CLUSTER_FLAG_FULL))
			cs_list_move(si, ci, &si->full_clusters, CLUSTER_FLAG_FULL);
	} else if (!(ci->flags & CLUSTER_FLAG_NONFULL)) {
		/* A FREE cluster has count 0: only FULL and FRAG get here. */
		cs_list_move(si, ci, &si->nonfull_clusters[ci->order], CLUSTER_FLAG_NONFULL);
	}
}

/**
 * cs_sweep_full() - Relist full clusters that have room again.
 * @si: the device.
 * @order: relist only clusters of this order; -1 for every order.
 *
 * Puts back on nonfull the full clusters that have had slots freed since
 * they filled (fewer than CS_RELIST_FREE, or they would have moved at the
 * free): when a device has no room on its nonfull, free and frag lists, and
 * when the module hands the device back to stock code, which never allocates
 * from the full list.
 * Context: si->lock held.
 * Return: the number of clusters relisted.
 */
unsigned int cs_sweep_full(struct swap_info_struct *si, int order)
{
	struct swap_cluster_info *ci, *tmp;
	unsigned int n = 0;

	lockdep_assert_held(&si->lock);
	list_for_each_entry_safe(ci, tmp, &si->full_clusters, list) {
		spin_lock(&ci->lock);
		if (ci->count < CS_SWAPFILE_CLUSTER && (order < 0 || ci->order == order)) {
			cs_relist(si, ci);
			n++;
		}
		spin_unlock(&ci->lock);
	}
	return n;
}

/*
 * Clear @word, a CPU's packed position on some device, if it is on @si, and
 * return its cluster.  @slots_per_unit: 1 for a word that holds a cluster
 * index, CS_SWAPFILE_CLUSTER for one that holds a slot (a cursor).
 * Return: the cluster, or NULL if the word is not on @si, another CPU
 * cleared it first, or it lies beyond the device (stale: swapped off and on).
 */
static struct swap_cluster_info *cs_clear_word(struct swap_info_struct *si,
					       unsigned long *word,
					       unsigned int slots_per_unit)
{
	unsigned long v = READ_ONCE(*word), pos;
	unsigned int type;

	lockdep_assert_held(&si->lock);
	if (!cs_unpack(v, &type, &pos) || type != si->type)
		return NULL;
	if (cmpxchg(word, v, 0) != v)
		return NULL;
	pos /= slots_per_unit;
	if (!si->cluster_info || pos >= DIV_ROUND_UP(si->max, CS_SWAPFILE_CLUSTER))
		return NULL;
	return si->cluster_info + pos;
}

/**
 * cs_settle_held() - Relist a cluster a CPU filled or set aside.
 * @si: the device the caller has locked.
 * @held: a cs_pcp.filled[][] or cs_pcp.spare[] word, of any CPU.
 *
 * Only clusters of @si are settled; the word is cleared.  The word may be
 * stale (the device was swapped off, or on again): the cluster is relisted
 * from what its count says now (cs_relist()), which is right whatever
 * happened since.
 * Context: si->lock held.
 */
void cs_settle_held(struct swap_info_struct *si, unsigned long *held)
{
	struct swap_cluster_info *ci = cs_clear_word(si, held, 1);

	if (!ci)
		return;
	spin_lock(&ci->lock);
	if (ci->flags & (CLUSTER_FLAG_NONFULL | CLUSTER_FLAG_FRAG))
		cs_relist(si, ci);
	spin_unlock(&ci->lock);
}

/**
 * cs_settle_cursor() - Clear a CPU's cursor, if it is on @si, and free its
 * cluster if the cluster emptied while the CPU kept it (cs_free_keeps()).
 * @si: the device the caller has locked.
 * @cursor: a cs_pcp.next[] word, of any CPU.
 *
 * The word is cleared before the cluster lock is taken: a free that takes
 * the lock later sees no cursor and frees the cluster itself.
 * Context: si->lock held.
 */
void cs_settle_cursor(struct swap_info_struct *si, unsigned long *cursor)
{
	struct swap_cluster_info *ci = cs_clear_word(si, cursor, CS_SWAPFILE_CLUSTER);

	if (!ci)
		return;
	spin_lock(&ci->lock);
	if (!ci->count && (ci->flags & (CLUSTER_FLAG_NONFULL | CLUSTER_FLAG_FRAG)))
		cs_relist(si, ci);
	spin_unlock(&ci->lock);
}

/**
 * cs_free_keeps() - Whether a cluster that a free just emptied stays where
 * it is, as this CPU's cluster, instead of going to the free list.
 * @si: the device.
 * @ci: the cluster, empty, locked by the caller.
 *
 * A task that swaps a page out and frees its slot again before the next
 * (stress-ng's pageswap: page out, swap in, unmap) empties this CPU's cluster
 * at every free.  Sent to the free list, the cluster would cost one si->lock
 * hold there and one more at the next allocation, which finds this CPU
 * without a cluster.  Kept, both stay on the cluster lock.  Not on devices
 * that discard: their empty clusters are discarded on the way to the free
 * list, as stock does.  Every place that clears a cursor under si->lock frees
 * an empty cluster it leaves (cs_settle_cursor()).
 *
 * This CPU's cursor does not change while the cluster lock is held: the
 * allocation paths that write it run on this CPU under cs_pcp.lock
 * (preemption off), and other CPUs clear it only through cs_settle_cursor(),
 * which takes this lock after the clear.  (On PREEMPT_RT a preempted
 * allocation could drop the cursor after this read: the cluster then waits
 * on frag, empty, where the slow path's frag scan takes it again.)
 * Context: ci->lock held.
 */
bool cs_free_keeps(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	unsigned long v, pos;
	unsigned int type;

	lockdep_assert_held(&ci->lock);
	if ((si->flags & SWP_PAGE_DISCARD) ||
	    !(ci->flags & (CLUSTER_FLAG_NONFULL | CLUSTER_FLAG_FRAG)))
		return false;
	v = READ_ONCE(raw_cpu_ptr(&cs_pcp)->next[ci->order]);
	return cs_unpack(v, &type, &pos) && type == si->type &&
	       pos / CS_SWAPFILE_CLUSTER == cs_cluster_index(si, ci);
}

/**
 * cs_settle_cpu() - Move the clusters a CPU filled at @order to the full list.
 * @si: the device the caller has locked (others' clusters stay).
 * @pcp: the CPU's state.
 * @order: allocation order.
 *
 * Context: si->lock held.
 */
void cs_settle_cpu(struct swap_info_struct *si, struct cs_pcp *pcp, int order)
{
	int i;

	for (i = 0; i < CS_HELD; i++)
		cs_settle_held(si, &pcp->filled[order][i]);
}

/**
 * cs_held_by_a_cpu() - Whether a CPU holds cluster @idx of @si as filled,
 * spare or its cursor's.
 * @si: the device.
 * @idx: cluster index.
 *
 * For the consistency check: a filled cluster may sit on nonfull or frag
 * with a full count, a spare one or a cursor's (cs_free_keeps()) on frag with
 * a count of 0, until that CPU (or a swapoff or switch-off) settles it.
 * Context: si->lock held (settling needs it, so the answer holds).
 */
bool cs_held_by_a_cpu(struct swap_info_struct *si, unsigned long idx)
{
	unsigned long v = cs_pack(si->type, idx), pos;
	unsigned int type;
	int cpu, o, i;

	lockdep_assert_held(&si->lock);
	for_each_possible_cpu(cpu) {
		struct cs_pcp *pcp = per_cpu_ptr(&cs_pcp, cpu);

		for (o = 0; o < SWAP_NR_ORDERS; o++) {
			if (READ_ONCE(pcp->spare[o]) == v)
				return true;
			if (cs_unpack(READ_ONCE(pcp->next[o]), &type, &pos) &&
			    type == si->type && pos / CS_SWAPFILE_CLUSTER == idx)
				return true;
			for (i = 0; i < CS_HELD; i++)
				if (READ_ONCE(pcp->filled[o][i]) == v)
					return true;
		}
	}
	return false;
}

/**
 * cs_cluster_in_use() - Whether a CPU allocates from cluster @idx of @si.
 * @si: the device.
 * @idx: cluster index.
 * @order: the cluster's order.
 *
 * A CPU's cluster (its cursor's or its spare) goes back to nonfull when frees
 * leave three quarters of it empty (cs_relist()).  The slow path leaves it to
 * that CPU rather than have two CPUs share one cluster, each running out of
 * it twice as fast and coming back to si->lock twice as often.  CPUs take
 * clusters only under si->lock, so the snapshot can only miss a cluster that
 * moves from spare to cursor as it is read: then the two share it, as stock
 * CPUs would.
 * Context: si->lock held.
 */
bool cs_cluster_in_use(struct swap_info_struct *si, unsigned long idx, int order)
{
	unsigned long spare = cs_pack(si->type, idx), pos;
	unsigned int type;
	int cpu;

	lockdep_assert_held(&si->lock);
	for_each_possible_cpu(cpu) {
		struct cs_pcp *pcp = per_cpu_ptr(&cs_pcp, cpu);

		if (READ_ONCE(pcp->spare[order]) == spare)
			return true;
		if (cs_unpack(READ_ONCE(pcp->next[order]), &type, &pos) &&
		    type == si->type && pos / CS_SWAPFILE_CLUSTER == idx)
			return true;
	}
	return false;
}

/**
 * cs_take_free_cluster() - A free cluster becomes a CPU's cluster of @order.
 * @si: the device.
 * @ci: the cluster, on the free list.
 * @order: its order from now on.
 *
 * To frag, where upstream keeps clusters that CPUs allocate from (and where
 * 6.12's comment says "moved here due to per-CPU usage"), not to nonfull,
 * where every other CPU's slow path would pick it first.  A whole-cluster
 * (PMD) allocation fills it at once; the caller moves it to full.
 * Context: si->lock and ci->lock held.
 */
void cs_take_free_cluster(struct swap_info_struct *si, struct swap_cluster_info *ci, int order)
{
	lockdep_assert_held(&si->lock);
	lockdep_assert_held(&ci->lock);
	ci->order = order;
	if ((1U << order) < CS_SWAPFILE_CLUSTER)
		cs_list_move(si, ci, &si->frag_clusters[order], CLUSTER_FLAG_FRAG);
}

/**
 * cs_cluster_take() - Hand out 1 << @order free slots of one cluster.
 * @si: the device.
 * @ci: the cluster, on the nonfull, frag or (under si->lock) free list.
 * @offset: where to start looking, inside @ci.
 * @order: allocation order.
 *
 * The swap_map bytes are the truth: the slots are marked SWAP_HAS_CACHE only
 * if they read 0 here.  Slots holding only SWAP_HAS_CACHE are busy; stock
 * code reclaims them (the fallback and the reclaim worker).  SWP_WRITEOK is
 * checked here too, under ci->lock: after swapoff clears it and sweeps every
 * ci->lock once, no allocation on the device can be in flight.
 * Context: ci->lock held; si->lock too if @ci is free (it changes lists).
 * Return: the first slot, or 0 when there is no room from @offset on.
 */
unsigned long cs_cluster_take(struct swap_info_struct *si, struct swap_cluster_info *ci,
			      unsigned long offset, int order)
{
	unsigned int nr = 1U << order;
	unsigned long start = cs_cluster_index(si, ci) * CS_SWAPFILE_CLUSTER;
	unsigned long end = min_t(unsigned long, start + CS_SWAPFILE_CLUSTER, si->max);
	unsigned char *map = si->swap_map;

	lockdep_assert_held(&ci->lock);
	if (!(READ_ONCE(si->flags) & SWP_WRITEOK))
		return 0;
	if (ci->count + nr > CS_SWAPFILE_CLUSTER)
		return 0;

	for (offset = max(ALIGN(offset, nr), start); offset + nr <= end; offset += nr) {
		if (memchr_inv(map + offset, 0, nr))
			continue;
		if (ci->flags & CLUSTER_FLAG_FREE)
			cs_take_free_cluster(si, ci, order);
		memset(map + offset, SWAP_HAS_CACHE, nr);
		ci->count += nr;
		return offset;
	}
	return 0;
}

/**
 * cs_avail_add() - On the avail lists, as add_to_avail_list() does.
 * @si: the device, writable, with room.
 *
 * Context: si->lock held.
 */
void cs_avail_add(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
	cs_sym_call1(CS_SYM_add_to_avail_list, si);
}

/**
 * cs_avail_del() - Off the avail lists, as del_from_avail_list() does.
 * @si: the device.
 *
 * Context: si->lock held.
 */
void cs_avail_del(struct swap_info_struct *si)
{
	spinlock_t *avail_lock = cs_swap_avail_lock();

	lockdep_assert_held(&si->lock);
	spin_lock(avail_lock);
	cs_sym_call1(CS_SYM___del_from_avail_list, si);
	spin_unlock(avail_lock);
}

/**
 * cs_line_device_filled() - What swap_range_alloc() does besides when a
 * device fills: stock's worker frees the idle swap cache of every full
 * cluster.
 * @si: the device, just marked full.
 *
 * Needed even though allocations free idle swap cache too: with
 * nr_swap_pages at 0, vmscan stops trying to swap, so no allocation comes
 * (6.12/reclaim.c).
 * Context: si->lock held.
 */
void cs_line_device_filled(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
	if (cs_vm_swap_full())
		schedule_work(&si->reclaim_work);
}

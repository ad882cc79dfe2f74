// SPDX-License-Identifier: GPL-2.0
/*
 * Clusters on 6.1: the free and discard lists exactly as mm/swapfile.c keeps
 * them (index-linked through ci->data, head removal only, tail append with
 * the tail's lock nested), the bounds lowest_bit/highest_bit, the slot scan,
 * and the avail lists.
 *
 * Two stock facts shape this file (module/README.md, section 10):
 *  - alloc_cluster() removes the free list's *head* whatever cluster it is
 *    asked for, and scan_swap_map_slots() may jump to lowest_bit after its
 *    check that a FREE cluster is the head.  So the module only ever takes
 *    the head, and never narrows the bounds: every free slot stays inside
 *    [lowest_bit, highest_bit] (invariant I-1), and the full width keeps
 *    lowest_bit in cluster 0, which is never FREE.
 *  - A cluster's word is its list link while FREE or on the discard list,
 *    and its count otherwise; FREE is read under si->lock alone.  So the
 *    module changes FREE and the links only with si->lock and ci->lock held,
 *    and the count only under ci->lock of a cluster that is not FREE.
 */
#include <linux/swap.h>
#include <linux/plist.h>
#include <linux/string.h>

#include "internal.h"
#include <clusterswap/symbols.h>
#include <clusterswap/trace.h>

/* Whether @ci is on the free list (its word is a link, not a count). */
bool cs_cluster_free(const struct swap_cluster_info *ci)
{
	return ci->flags & CLUSTER_FLAG_FREE;
}

/* cluster_list_add_tail(), swapfile.c:417.  Context: si->lock held. */
static void cs_list_add_tail(struct swap_cluster_list *list, struct swap_cluster_info *ci0,
			     unsigned int idx)
{
	struct swap_cluster_info *tail;

	if (list->head.flags & CLUSTER_FLAG_NEXT_NULL) {
		list->head.flags = 0;
		list->head.data = idx;
	} else {
		/* The tail's link is its word: its lock, nested as stock does. */
		tail = ci0 + list->tail.data;
		spin_lock_nested(&tail->lock, SINGLE_DEPTH_NESTING);
		tail->data = idx;
		spin_unlock(&tail->lock);
	}
	list->tail.flags = 0;
	list->tail.data = idx;
}

/* cluster_list_del_first(), swapfile.c:440.  Context: si->lock held; not empty. */
static unsigned int cs_list_del_first(struct swap_cluster_list *list,
				      struct swap_cluster_info *ci0)
{
	unsigned int idx = list->head.data;

	if (list->tail.data == idx) {
		list->head.flags = CLUSTER_FLAG_NEXT_NULL;
		list->head.data = 0;
		list->tail.flags = CLUSTER_FLAG_NEXT_NULL;
		list->tail.data = 0;
	} else {
		list->head.flags = 0;
		list->head.data = ci0[idx].data;
	}
	return idx;
}

/**
 * cs_take_free_head() - The free list's head becomes an empty cluster in use.
 * @si: the device.
 * @ci: the cluster, FREE and the head of the free list.
 *
 * alloc_cluster(), without its blind spot: anything but the head is refused.
 * Context: si->lock and ci->lock held.
 */
void cs_take_free_head(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	unsigned long idx = cs_cluster_index(si, ci);

	lockdep_assert_held(&si->lock);
	lockdep_assert_held(&ci->lock);
	if (WARN_ON_ONCE(!cs_cluster_free(ci) ||
			 (si->free_clusters.head.flags & CLUSTER_FLAG_NEXT_NULL) ||
			 si->free_clusters.head.data != idx))
		return;
	cs_list_del_first(&si->free_clusters, si->cluster_info);
	ci->flags = 0;
	ci->data = 0;
	trace_cluster_move(si->type, idx, 0, CS_LIST_FREE, CS_LIST_NONE);
	cs_count(list_moves);
}

/**
 * cs_free_cluster() - An emptied cluster goes to the free list, or to the
 * discard list first, as free_cluster() sends it.
 * @si: the device.
 * @ci: the cluster, count 0, on no list.
 *
 * Context: si->lock and ci->lock held.
 */
void cs_free_cluster(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	unsigned long idx = cs_cluster_index(si, ci);

	lockdep_assert_held(&si->lock);
	lockdep_assert_held(&ci->lock);
	if ((si->flags & (SWP_WRITEOK | SWP_PAGE_DISCARD)) ==
	    (SWP_WRITEOK | SWP_PAGE_DISCARD)) {
		/* swap_cluster_schedule_discard(): BAD until discarded. */
		memset(si->swap_map + idx * CS_SWAPFILE_CLUSTER, SWAP_MAP_BAD,
		       CS_SWAPFILE_CLUSTER);
		cs_list_add_tail(&si->discard_clusters, si->cluster_info, idx);
		schedule_work(&si->discard_work);
		trace_cluster_move(si->type, idx, 0, CS_LIST_NONE, CS_LIST_DISCARD);
	} else {
		ci->flags = CLUSTER_FLAG_FREE;
		cs_list_add_tail(&si->free_clusters, si->cluster_info, idx);
		trace_cluster_move(si->type, idx, 0, CS_LIST_NONE, CS_LIST_FREE);
	}
	cs_count(list_moves);
}

/**
 * cs_settle_empty() - A cluster left empty off the lists goes to free (or discard).
 * @si: the device.
 * @ci: any cluster.
 *
 * A free that empties a cluster while si->lock is busy leaves it at count 0
 * on no list; it is still usable (by the module's scan and stock's), and
 * this puts it where stock's whole-cluster users (THP) find it.  A discard
 * cluster also has no count, but every byte BAD.
 * Context: si->lock and ci->lock held.
 */
void cs_settle_empty(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	unsigned long start = cs_cluster_index(si, ci) * CS_SWAPFILE_CLUSTER;

	lockdep_assert_held(&si->lock);
	lockdep_assert_held(&ci->lock);
	if (!cs_cluster_free(ci) && !ci->data && si->swap_map[start] != SWAP_MAP_BAD)
		cs_free_cluster(si, ci);
}

/**
 * cs_bounds_full_width() - lowest_bit and highest_bit as wide as the device.
 * @si: the device.
 *
 * Undoes any narrowing by stock allocations (swap_range_alloc()), so that
 * frees need no si->lock to widen them, and keeps lowest_bit in cluster 0.
 * A full device (highest_bit 0) stays full: cs_unmark_full() opens it.
 * Context: si->lock held.
 */
void cs_bounds_full_width(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
	if (!si->highest_bit)
		return;
	si->lowest_bit = 1;
	WRITE_ONCE(si->highest_bit, si->max - 1);
}

/**
 * cs_bounds_cover() - Whether [@offset, @offset + @nr) lies inside the bounds.
 * @si: the device.
 * @offset: first slot.
 * @nr: slots.
 *
 * A racy read, and sound: only stock allocations narrow the bounds, and they
 * step only over the slots they allocate, never over a slot held by someone
 * else, such as the caller's; a full device has highest_bit 0 and is not
 * covered.
 * Context: the caller holds the slots (their bytes are not 0).
 */
bool cs_bounds_cover(struct swap_info_struct *si, unsigned long offset, unsigned int nr)
{
	unsigned int highest = READ_ONCE(si->highest_bit);

	return highest && offset >= READ_ONCE(si->lowest_bit) && offset + nr - 1 <= highest;
}

/**
 * cs_cluster_in_use() - Whether some CPU allocates from cluster @idx of @si,
 * or keeps it as its spare.
 * @si: the device.
 * @idx: cluster index.
 *
 * A hint (a CPU may take or drop its cluster just after): used only to spread
 * CPUs over clusters; two CPUs in one cluster are correct, only slower.
 */
bool cs_cluster_in_use(struct swap_info_struct *si, unsigned long idx)
{
	unsigned long pos;
	unsigned int type;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct cs_pcp *pcp = per_cpu_ptr(&cs_pcp, cpu);

		if (cs_unpack(READ_ONCE(pcp->next), &type, &pos) &&
		    type == si->type && pos / CS_SWAPFILE_CLUSTER == idx)
			return true;
		if (cs_unpack(READ_ONCE(pcp->spare), &type, &pos) &&
		    type == si->type && pos == idx)
			return true;
	}
	return false;
}

/**
 * cs_cluster_take() - Hand out one free slot of a cluster in use.
 * @si: the device.
 * @ci: the cluster: not FREE (the free list's head is taken first).
 * @offset: where to start looking, inside @ci.
 *
 * The swap_map bytes are the truth: the slot is marked SWAP_HAS_CACHE only if
 * it reads 0 here.  A discard cluster has no 0 byte, so its word (a link) is
 * never counted into.  SWP_WRITEOK is checked here, under ci->lock: after
 * swapoff clears it and takes every ci->lock once, no allocation on the
 * device can be in flight.
 * Context: ci->lock held.
 * Return: the slot, or 0 when there is none from @offset on.
 */
unsigned long cs_cluster_take(struct swap_info_struct *si, struct swap_cluster_info *ci,
			      unsigned long offset)
{
	unsigned long start = cs_cluster_index(si, ci) * CS_SWAPFILE_CLUSTER;
	unsigned long end = min_t(unsigned long, start + CS_SWAPFILE_CLUSTER, si->max);
	unsigned char *map = si->swap_map;

	lockdep_assert_held(&ci->lock);
	if (!(READ_ONCE(si->flags) & SWP_WRITEOK) || cs_cluster_free(ci) ||
	    ci->data >= CS_SWAPFILE_CLUSTER)
		return 0;
	for (offset = max(offset, start); offset < end; offset++) {
		if (map[offset])
			continue;
		map[offset] = SWAP_HAS_CACHE;
		ci->data++;
		return offset;
	}
	return 0;
}

/**
 * cs_avail_add() - On the avail lists, as add_to_avail_list() does.
 * @si: the device, writable, with room.
 *
 * add_to_avail_list() is static on 6.1 (and warns when the device is listed
 * already): the same with the global plist_add().
 * Context: si->lock held.
 */
void cs_avail_add(struct swap_info_struct *si)
{
	struct plist_head *heads = *(struct plist_head **)cs_sym_data(CS_SYM_swap_avail_heads);
	spinlock_t *avail_lock = cs_swap_avail_lock();
	int nid;

	lockdep_assert_held(&si->lock);
	spin_lock(avail_lock);
	for_each_node(nid)
		if (plist_node_empty(&si->avail_lists[nid]))
			cs_sym_call2(CS_SYM_plist_add, &si->avail_lists[nid], &heads[nid]);
	spin_unlock(avail_lock);
}

/**
 * cs_avail_del() - Off the avail lists, as del_from_avail_list() does.
 * @si: the device.
 *
 * Context: si->lock held.
 */
void cs_avail_del(struct swap_info_struct *si)
{
	struct plist_head *heads = *(struct plist_head **)cs_sym_data(CS_SYM_swap_avail_heads);
	spinlock_t *avail_lock = cs_swap_avail_lock();
	int nid;

	lockdep_assert_held(&si->lock);
	spin_lock(avail_lock);
	for_each_node(nid)
		cs_sym_call2(CS_SYM_plist_del, &si->avail_lists[nid], &heads[nid]);
	spin_unlock(avail_lock);
}

/**
 * cs_line_device_filled() - Nothing more to do when a device fills on 6.1.
 * @si: the device, just marked full.
 *
 * Stock 6.1 has no reclaim worker: its scan frees idle swap cache itself once
 * swap is half full, and the module's fallback to stock allocation gets that.
 * Context: si->lock held.
 */
void cs_line_device_filled(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
}

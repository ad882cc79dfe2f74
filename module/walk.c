// SPDX-License-Identifier: GPL-2.0
/*
 * What allocation does the same way on every line: the walk over the avail
 * lists (the slow path, round robin among default priorities), the
 * nr_swap_pages reservation, the memcg charge, and the "full" test after an
 * allocation.  The per-device step, cs_alloc_on_device(), is the line's
 * (module/<line>/alloc.c).
 */
#include <linux/swap.h>
#include <linux/plist.h>
#include <linux/memcontrol.h>

/* The line's private header (module/<line>/ is on the include path). */
#include "internal.h"
#include <clusterswap/alloc.h>
#include <clusterswap/control.h>
#include <clusterswap/symbols.h>
#include <clusterswap/line.h>

/* Stock code gives up on a walk that keeps changing under it the same way. */
#define CS_WALK_RESTARTS	4

/*
 * Devices swapped on without a priority get -2, -3, ... in swapon order from
 * stock 6.12, so each is used only once those before it are full.  Upstream
 * gives them all priority -1 instead ("mm/swap: select swap device with
 * default priority round robin"), which makes them one tier used round
 * robin.  With cs_round_robin on, the walk does the same without touching the
 * priorities that stock code reads: on reaching the first device of default
 * priority it starts at the one whose turn it is.  The tier is every device of
 * default priority that the allocator serves (a rotational one keeps its stock
 * place in the walk); a device of a set priority (0 or more) still comes first.
 * Context: swap_avail_lock held.
 * Return: the device to try first, or NULL to walk in stock order.
 */
static struct swap_info_struct *cs_rr_turn(struct plist_head *head, int node,
					   struct swap_info_struct *first)
{
	static unsigned int turn;	/* under swap_avail_lock */
	struct swap_info_struct *si = first;
	unsigned int n = 0, k;

	list_for_each_entry_from(si, &head->node_list, avail_lists[node].node_list)
		if (si->prio < 0 && si->cluster_info)
			n++;
	if (n < 2)
		return NULL;
	k = turn++ % n;
	si = first;
	list_for_each_entry_from(si, &head->node_list, avail_lists[node].node_list)
		if (si->prio < 0 && si->cluster_info && !k--)
			return si;
	return NULL;
}

/*
 * Walk the avail list as get_swap_pages() does.  Sets *@stock when the call
 * should go to stock code instead, and *@why to why (left alone when there
 * was simply no room).
 * Context: cs_pcp.lock held.
 * Upstream counterpart: swap_alloc_slow().
 */
unsigned long cs_alloc_slow(struct cs_pcp *pcp, int order, bool *stock,
			    enum cs_stock_why *why)
{
	struct plist_head *heads = *(struct plist_head **)cs_sym_data(CS_SYM_swap_avail_heads);
	spinlock_t *avail_lock = cs_swap_avail_lock();
	struct swap_info_struct *si, *next, *turn;
	bool rr = READ_ONCE(cs_round_robin);
	int restarts = 0, node;
	unsigned long found;

	cs_assert_pcp_locked();
	cs_count(slow);
	spin_lock(avail_lock);
start_over:
	node = numa_node_id();
	plist_for_each_entry_safe(si, next, &heads[node], avail_lists[node]) {
		if (!si->cluster_info) {
			/* A rotational device comes first: stock serves it. */
			*stock = !order;
			*why = CS_STOCK_ROTATIONAL;
			break;
		}
		if (rr && si->prio < 0) {
			rr = false;	/* once: after that, the stock order */
			turn = cs_rr_turn(&heads[node], node, si);
			if (turn) {
				spin_unlock(avail_lock);
				cs_count(round_robin);
				found = cs_alloc_on_device(pcp, turn, order);
				if (found)
					return swp_entry(turn->type, found).val;
				if (order)
					return 0;
				spin_lock(avail_lock);
				goto start_over;
			}
		}
		/* Round robin among devices of equal priority. */
		cs_sym_call2(CS_SYM_plist_requeue, &si->avail_lists[node], &heads[node]);
		spin_unlock(avail_lock);
		found = cs_alloc_on_device(pcp, si, order);
		if (found)
			return swp_entry(si->type, found).val;
		if (order)
			return 0;	/* large folios try one device, as stock */
		spin_lock(avail_lock);
		if (plist_node_empty(&next->avail_lists[node])) {
			if (++restarts > CS_WALK_RESTARTS)
				break;
			goto start_over;
		}
	}
	spin_unlock(avail_lock);
	if (!order)
		*stock = true;
	return 0;
}

/*
 * Reserve @nr slots of nr_swap_pages, as get_swap_pages() does: only when
 * that many are left, so that the count never goes below 0 (SwapFree and
 * vm_swap_full() read it).
 */
bool cs_reserve_swap_pages(long nr)
{
	long avail = atomic_long_read(&nr_swap_pages);

	do {
		if (avail < nr)
			return false;
	} while (!atomic_long_try_cmpxchg(&nr_swap_pages, &avail, avail - nr));
	return true;
}

/* mem_cgroup_try_charge_swap(): the charging function is not exported. */
int cs_charge_swap(struct folio *folio, swp_entry_t entry)
{
	if (mem_cgroup_disabled())
		return 0;
	/* An int callee: the upper half of the return register is undefined. */
	return (int)cs_sym_call2(CS_SYM___mem_cgroup_try_charge_swap, folio, entry.val);
}

/*
 * swap_range_alloc() takes a device out of service at the allocation that
 * fills it.  Here a device is full when inuse_pages reaches pages with no CPU
 * holding credit; the allocating CPU checks that, under si->lock, only when
 * it has just spent its own last credit on a device reserved to the last
 * page.  Context: no swap lock held.
 */
void cs_full_after_alloc(swp_entry_t entry)
{
	struct swap_info_struct *si = cs_swap_device(swp_type(entry));

	if (READ_ONCE(si->inuse_pages) < si->pages ||
	    atomic_read(raw_cpu_ptr(&cs_pcp.credit[si->type])))
		return;
	spin_lock(&si->lock);
	cs_count_lock(CS_LOCK_FULL_CHECK);
	if ((si->flags & SWP_WRITEOK) && si->inuse_pages == si->pages &&
	    !cs_line_credit(si->type))
		cs_mark_full(si);
	spin_unlock(&si->lock);
}

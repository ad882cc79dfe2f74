// SPDX-License-Identifier: GPL-2.0
/*
 * Idle swap cache on 6.12: slots whose swap_map byte is SWAP_HAS_CACHE alone
 * (no page table holds the entry any more), kept only because their folio is
 * still in the swap cache.  Fork and copy-on-write leave many behind: the
 * parent swaps a page in while the child still holds the entry, the child
 * exits, and the slot keeps the parent's page cached.  On a device that runs
 * short they are the only room left.
 *
 * Stock 6.12 frees them in three places, and so does the module:
 *
 * - When swap is half full and a device's free cluster list is drained,
 *   stock's cluster_alloc_swap_entry() scans one full cluster per call.  The
 *   module's slow path marks the device instead (cs_reclaim_want(): it holds
 *   cs_pcp.lock, and the frees that reclaim causes come back to the module
 *   and take that lock), and the entry point scans CS_RECLAIM_QUICK full
 *   clusters of it once no lock is held (cs_reclaim_wanted_devices()).  The
 *   module's slow path runs about once per cluster, stock's per slot cache
 *   refill of 64 slots: hence more clusters per call.
 * - When a device fills, stock schedules its reclaim worker, which scans
 *   every full cluster; cs_mark_full() schedules the same worker.  This one
 *   matters most: once nr_swap_pages is 0, vmscan stops scanning anonymous
 *   pages (can_reclaim_anon_pages()), so no allocation comes to free the
 *   idle swap cache, and a memcg that needs swap goes out of memory.
 * - An order-0 allocation that still finds no room (stock: the slot scan's
 *   reuse of a SWAP_HAS_CACHE slot) makes one turn of each device's full
 *   list, until CS_RECLAIM_ENOUGH slots are free, and tries once more
 *   (cs_reclaim_idle_cache()).
 *
 * Every scan goes through stock's own __try_to_reclaim_swap() with
 * TTRS_ANYWAY | TTRS_DIRECT, as stock's scans do: it only trylocks the folio,
 * frees only a folio that is not under writeback (folio_swapcache_freeable())
 * and whose slots all read SWAP_HAS_CACHE under the cluster lock, deletes it
 * from the swap cache and marks it dirty (a mapped page keeps its data and
 * gets a new slot at its next swap-out), and never sleeps.  Its final free is
 * stock's swap_entry_range_free() under si->lock, which comes to the module's
 * replacement (6.12/free.c): the clean-ups happen before the bytes go to 0,
 * so the fast path cannot hand the slot out too early (module/README.md, D1).
 */
#include <linux/swap.h>
#include <linux/bitmap.h>
#include <linux/sched.h>

#include "internal.h"
#include <clusterswap/symbols.h>

/* __try_to_reclaim_swap()'s flags (mm/swapfile.c of 6.12, not in a header). */
#define CS_TTRS_ANYWAY		0x1
#define CS_TTRS_DIRECT		0x8

/* Full clusters a quick scan takes per device. */
#define CS_RECLAIM_QUICK	4

/* A scan at "no room" stops once this many slots are free (SWAP_BATCH). */
#define CS_RECLAIM_ENOUGH	64

/* Devices whose free cluster list a slow path found drained, swap half full. */
static DECLARE_BITMAP(cs_reclaim_wanted, MAX_SWAPFILES);

/*
 * Devices a "no room" scan is turning the full list of: a second CPU scans
 * only CS_RECLAIM_QUICK clusters, so that CPUs short of swap at once do not
 * all walk a device full of live pages.
 */
static DECLARE_BITMAP(cs_reclaim_busy, MAX_SWAPFILES);

/**
 * cs_vm_swap_full() - vm_swap_full(): swap is more than half used.
 *
 * total_swap_pages is not exported.
 * Context: any.
 */
bool cs_vm_swap_full(void)
{
	long *total = cs_sym_data(CS_SYM_total_swap_pages);

	return atomic_long_read(&nr_swap_pages) * 2 < READ_ONCE(*total);
}

/**
 * cs_reclaim_want() - Have the entry point scan @si's full clusters for idle
 * swap cache once it holds no lock.
 * @si: a device whose free cluster list was found empty.
 *
 * Context: any (the slow path: cs_pcp.lock and si->lock held).
 */
void cs_reclaim_want(struct swap_info_struct *si)
{
	if (cs_vm_swap_full() && !test_bit(si->type, cs_reclaim_wanted))
		set_bit(si->type, cs_reclaim_wanted);
}

/* Free the idle swap cache of one cluster.  Return: the slots freed. */
static unsigned long cs_reclaim_cluster(struct swap_info_struct *si, unsigned long idx)
{
	unsigned long offset = idx * CS_SWAPFILE_CLUSTER, end, freed = 0;
	unsigned char *map = si->swap_map;
	int ret;

	end = min_t(unsigned long, offset + CS_SWAPFILE_CLUSTER, si->max);
	while (offset < end) {
		if (READ_ONCE(map[offset]) != SWAP_HAS_CACHE) {
			offset++;
			continue;
		}
		/* The folio's pages if found (freed if > 0), else 0. */
		ret = (int)cs_sym_call3(CS_SYM___try_to_reclaim_swap, si, offset,
					CS_TTRS_ANYWAY | CS_TTRS_DIRECT);
		if (ret > 0)
			freed += ret;
		offset += ret ? abs(ret) : 1;
	}
	return freed;
}

/*
 * Scan up to @turn clusters from the head of @si's full list, rotating each
 * to the tail as stock does (so that the next scan takes others), until
 * @enough slots are free.
 * Context: no lock held; @si pinned (cs_get_device()); may sleep.
 * Return: the slots freed.
 */
static unsigned long cs_reclaim_device(struct swap_info_struct *si, unsigned long turn,
				       unsigned long enough)
{
	struct swap_cluster_info *ci;
	unsigned long idx, freed = 0;

	while (turn-- && freed < enough) {
		spin_lock(&si->lock);
		ci = NULL;
		if (si->flags & SWP_WRITEOK)
			ci = list_first_entry_or_null(&si->full_clusters,
						      struct swap_cluster_info, list);
		if (ci) {
			cs_rotate_full(si, ci);
			idx = cs_cluster_index(si, ci);
		}
		spin_unlock(&si->lock);
		if (!ci)
			break;
		freed += cs_reclaim_cluster(si, idx);
		cond_resched();
	}
	return freed;
}

/* One turn of the full list: at most as many clusters as slots are in use. */
static unsigned long cs_full_turn(struct swap_info_struct *si)
{
	return DIV_ROUND_UP(READ_ONCE(si->inuse_pages), CS_SWAPFILE_CLUSTER);
}

/**
 * cs_reclaim_wanted_devices() - The quick scans cs_reclaim_want() asked for.
 *
 * Context: process context, no lock held; may sleep.
 */
void cs_reclaim_wanted_devices(void)
{
	struct swap_info_struct *si;
	unsigned long freed = 0;
	unsigned int type;

	if (likely(bitmap_empty(cs_reclaim_wanted, MAX_SWAPFILES)))
		return;
	cs_for_each_swap_device(type, si) {
		if (!test_bit(type, cs_reclaim_wanted) ||
		    !test_and_clear_bit(type, cs_reclaim_wanted))
			continue;
		if (!READ_ONCE(si->cluster_info) || !cs_get_device(si))
			continue;
		if (si->cluster_info)
			freed += cs_reclaim_device(si, CS_RECLAIM_QUICK, ULONG_MAX);
		cs_kcall_put_device(si);
	}
	if (freed)
		cs_count_n(idle_reclaimed, freed);
}

/**
 * cs_reclaim_idle_cache() - Free idle swap cache on the devices the module
 * allocates from, for an allocation that found no room on any of them.
 *
 * One turn of each device's full list, until CS_RECLAIM_ENOUGH slots are
 * free; a device another CPU is turning already gets a quick scan.
 * Context: process context, no lock held (not cs_pcp.lock: the frees it
 * causes come back to the module); may sleep.
 * Return: the slots freed.
 */
unsigned long cs_reclaim_idle_cache(void)
{
	struct swap_info_struct *si;
	unsigned long freed = 0;
	unsigned int type;
	bool busy;

	cs_for_each_swap_device(type, si) {
		if (!READ_ONCE(si->cluster_info) || !cs_get_device(si))
			continue;
		if (si->cluster_info) {
			busy = test_and_set_bit_lock(type, cs_reclaim_busy);
			freed += cs_reclaim_device(si, busy ? CS_RECLAIM_QUICK : cs_full_turn(si),
						   CS_RECLAIM_ENOUGH);
			if (!busy)
				clear_bit_unlock(type, cs_reclaim_busy);
		}
		cs_kcall_put_device(si);
		if (freed >= CS_RECLAIM_ENOUGH)
			break;
	}
	if (freed)
		cs_count_n(idle_reclaimed, freed);
	return freed;
}

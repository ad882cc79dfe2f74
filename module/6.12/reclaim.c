// SPDX-License-Identifier: GPL-2.0
/*
 * Idle swap cache on 6.12: slots whose swap_map byte is SWAP_HAS_CACHE alone
 * (no page table holds the entry any more), kept only because their folio is
 * still in the swap cache.  Fork and copy-on-write leave many behind: the
 * parent swaps a page in while the child still holds the entry, the child
 * exits, and the slot keeps the parent's page cached.  On a device that runs
 * short they are the only room left.
 *
 * The allocator frees them itself, when an allocation found no room on any
 * device it serves, and then tries once more.  It does that through stock's
 * own __try_to_reclaim_swap() with TTRS_ANYWAY | TTRS_DIRECT, as stock 6.12's
 * swap_reclaim_full_clusters() does: it only trylocks the folio, frees only a
 * folio that is not under writeback (folio_swapcache_freeable()) and whose
 * slots all read SWAP_HAS_CACHE under the cluster lock, deletes it from the
 * swap cache and marks it dirty (a mapped page keeps its data and gets a new
 * slot at its next swap-out), and never sleeps.  Its final free is stock's
 * swap_entry_range_free() under si->lock, which comes to the module's
 * replacement (6.12/free.c): the clean-ups happen before the bytes go to 0,
 * so the fast path cannot hand the slot out too early (module/README.md, D1).
 */
#include <linux/swap.h>

#include "internal.h"
#include <clusterswap/symbols.h>

/* __try_to_reclaim_swap()'s flags (mm/swapfile.c of 6.12, not in a header). */
#define CS_TTRS_ANYWAY		0x1
#define CS_TTRS_DIRECT		0x8

/* Full clusters scanned per device and call: stock scans one per call. */
#define CS_RECLAIM_CLUSTERS	4

/*
 * Take up to CS_RECLAIM_CLUSTERS clusters from the head of the full list,
 * rotating each to the tail as stock does, so that the next call scans
 * others.  Context: si->lock held.
 * Return: how many indices were written to @idx.
 */
static unsigned int cs_pick_full(struct swap_info_struct *si, unsigned long *idx)
{
	struct swap_cluster_info *ci;
	unsigned int n = 0;

	lockdep_assert_held(&si->lock);
	while (n < CS_RECLAIM_CLUSTERS &&
	       (ci = list_first_entry_or_null(&si->full_clusters,
					      struct swap_cluster_info, list))) {
		cs_rotate_full(si, ci);
		idx[n] = cs_cluster_index(si, ci);
		/* A list of fewer clusters than that: each once. */
		if (n && idx[n] == idx[0])
			break;
		n++;
	}
	return n;
}

/*
 * Reclaim the idle swap cache of a few full clusters of @si.
 * Context: no lock held; @si pinned (cs_get_device()).
 * Return: the slots freed.
 */
static unsigned long cs_reclaim_device(struct swap_info_struct *si)
{
	unsigned long idx[CS_RECLAIM_CLUSTERS], offset, end, freed = 0;
	unsigned char *map = si->swap_map;
	unsigned int i, n;
	int ret;

	spin_lock(&si->lock);
	n = (si->flags & SWP_WRITEOK) ? cs_pick_full(si, idx) : 0;
	spin_unlock(&si->lock);

	for (i = 0; i < n; i++) {
		offset = idx[i] * CS_SWAPFILE_CLUSTER;
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
	}
	return freed;
}

/**
 * cs_reclaim_idle_cache() - Free idle swap cache on the devices the module
 * allocates from.
 *
 * Called when an allocation found no room on any of them.
 * Context: process context, no lock held (not cs_pcp.lock: the frees it
 * causes come back to the module); never sleeps.
 * Return: the slots freed.
 */
unsigned long cs_reclaim_idle_cache(void)
{
	struct swap_info_struct *si;
	unsigned long freed = 0;
	unsigned int type;

	cs_for_each_swap_device(type, si) {
		if (!READ_ONCE(si->cluster_info) || !cs_get_device(si))
			continue;
		if (si->cluster_info)
			freed += cs_reclaim_device(si);
		cs_kcall_put_device(si);
	}
	if (freed)
		cs_count_n(idle_reclaimed, freed);
	return freed;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 6.1 allocator: state shared by module/credit.c (inuse_pages),
 * 6.1/clusters.c (the free list, bounds, slot scan), 6.1/alloc.c, 6.1/free.c
 * and 6.1/serve.c (switch, swapoff).
 *
 * 6.1 has no per-order cluster lists: a cluster is on the free list (FREE),
 * on the discard list (every byte SWAP_MAP_BAD), or on no list at all, and
 * ci->data is its next-index link while listed and its count otherwise
 * (include/linux/swap.h: data:24, flags:8 in one word).  Every field stock
 * code reads keeps its stock meaning and its stock lock (module/README.md,
 * section 10): swap_map bytes and counts under ci->lock; the free and discard
 * lists, FREE, the bounds and inuse_pages under si->lock (FREE and the links
 * under both); nr_swap_pages atomic.
 *
 * Lock order, as stock 6.1 (mm/swapfile.c) takes them:
 *
 *   cs_pcp.lock (this CPU) -> si->lock -> swap_avail_lock
 *                             si->lock -> ci->lock -> ci(tail)->lock (nested)
 *                                         ci->lock -> zswap tree, zram slot,
 *                                                     i_pages, swap_cgroup
 *
 * As on 6.12, module code never waits for si->lock while it holds a
 * ci->lock: it trylocks (cs_trylock_si_under_ci()) or drops ci->lock first
 * (cs_relock_si_ci()).
 */
#ifndef _CLUSTERSWAP_LINE_INTERNAL_H
#define _CLUSTERSWAP_LINE_INTERNAL_H

#include <linux/swap.h>
#include <linux/swapops.h>
#include <linux/local_lock.h>
#include <linux/percpu.h>

#include <clusterswap/swapdev.h>
#include <clusterswap/credit.h>
#include <clusterswap/cluster_locks.h>
#include <clusterswap/pack.h>
#include <clusterswap/free.h>
#include <clusterswap/stats.h>

/* 6.1 swaps out PMD THP whole (block devices only) and splits anything else. */
#define CS_PMD_ORDER		ilog2(CS_SWAPFILE_CLUSTER)

/* Per-CPU allocator state. */
struct cs_pcp {
	/* Held across one allocation on this CPU (preemption off). */
	local_lock_t lock;
	/* The next slot to try for a single page, in this CPU's cluster. */
	unsigned long next;
	/*
	 * A second cluster, taken empty from the free list by the slow path,
	 * that the fast path goes on in when the first is used up: one
	 * si->lock hold per two clusters.  Off every list, count 0 until used.
	 */
	unsigned long spare;
	/* inuse_pages credit per swap type (include/clusterswap/credit.h). */
	atomic_t credit[MAX_SWAPFILES];
};

DECLARE_PER_CPU(struct cs_pcp, cs_pcp);

/* "Context: cs_pcp.lock held", checked where lockdep runs. */
#define cs_assert_pcp_locked()	lockdep_assert_held(this_cpu_ptr(&cs_pcp.lock))

/* What debugfs "stats" prints; per CPU, summed when read. */
struct cs_stats {
	unsigned long alloc_order0;	/* single pages served */
	unsigned long alloc_pmd;	/* PMD THP served, a whole cluster each */
	unsigned long large_fail_pmd;	/* "no slot" to a PMD THP: it splits */
	unsigned long fast;		/* served from the CPU's cluster, ci->lock only */
	unsigned long slow;		/* went looking for a cluster under si->lock */
	unsigned long stock_fallback;	/* handed to stock get_swap_pages() */
	unsigned long round_robin;	/* walks begun at a default-prio device */
	unsigned long lock_why[CS_LOCK_NR];	/* si->lock taken, by cause */
	unsigned long trylock_fail;	/* si->lock busy under a ci->lock */
	unsigned long list_moves;	/* clusters taken from or put on the free/discard list */
	unsigned long scanned;		/* clusters looked at for room off the free list */
	unsigned long in_use_skipped;	/* partly used clusters left to their CPU */
	unsigned long bounds_widened;	/* frees that had to widen lowest/highest_bit */
	unsigned long credit_take;	/* batches of inuse_pages credit taken */
	unsigned long credit_return;	/* credit handed back to inuse_pages */
	unsigned long freed;		/* slots freed */
	unsigned long frontswap_invalidate; /* __frontswap_invalidate_page() calls */
	unsigned long full;		/* devices found full, taken off the avail list */
};

DECLARE_PER_CPU(struct cs_stats, cs_stats);

#define cs_count(field)		this_cpu_inc(cs_stats.field)
#define cs_count_n(field, n)	this_cpu_add(cs_stats.field, n)
#define cs_count_lock(why)	this_cpu_inc(cs_stats.lock_why[why])

/* 6.1/clusters.c */
bool cs_cluster_free(const struct swap_cluster_info *ci);
void cs_take_free_head(struct swap_info_struct *si, struct swap_cluster_info *ci);
void cs_free_cluster(struct swap_info_struct *si, struct swap_cluster_info *ci);
void cs_settle_empty(struct swap_info_struct *si, struct swap_cluster_info *ci);
void cs_bounds_full_width(struct swap_info_struct *si);
bool cs_bounds_cover(struct swap_info_struct *si, unsigned long offset, unsigned int nr);
bool cs_cluster_in_use(struct swap_info_struct *si, unsigned long idx);
unsigned long cs_cluster_take(struct swap_info_struct *si, struct swap_cluster_info *ci,
			      unsigned long offset);

static inline struct swap_cluster_info *cs_cluster_of(struct swap_info_struct *si,
						      unsigned long offset)
{
	return si->cluster_info + offset / CS_SWAPFILE_CLUSTER;
}

static inline unsigned long cs_cluster_index(struct swap_info_struct *si,
					     struct swap_cluster_info *ci)
{
	return ci - si->cluster_info;
}

/* The replacements (6.1/alloc.c, 6.1/free.c), listed in 6.1/hooks.c. */
swp_entry_t cs_folio_alloc_swap(struct folio *folio);
swp_entry_t cs_get_swap_page_of_type(int type);

#endif /* _CLUSTERSWAP_LINE_INTERNAL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 6.12 allocator: state shared by module/credit.c (inuse_pages), 6.12/clusters.c
 * (cluster lists), 6.12/alloc.c, 6.12/free.c and 6.12/serve.c (switch, swapoff).
 *
 * Every field stock code reads keeps its stock meaning and its stock lock
 * (module/README.md, section 1): swap_map bytes and ci->count under ci->lock; list
 * membership, ci->flags, frag_cluster_nr, inuse_pages and the bounds under
 * si->lock; nr_swap_pages atomic.
 *
 * Lock order, as stock 6.12 (mm/swapfile.c) takes them:
 *
 *   cs_pcp.lock (this CPU) -> si->lock -> swap_avail_lock
 *                             si->lock -> ci->lock -> zswap tree, zram slot,
 *                                                     i_pages, swap_cgroup
 *
 * The rule that keeps module code deadlock-free beside stock code, which
 * takes si->lock then ci->lock: module code never *waits* for si->lock while
 * it holds a ci->lock.  It either trylocks si->lock (cs_trylock_si_under_ci())
 * or drops ci->lock, takes si->lock, retakes ci->lock and revalidates
 * (cs_relock_si_ci()).  A cluster left on a stale list meanwhile costs at most
 * a wasted scan, never a double allocation: a slot is handed out only after
 * its byte is read as 0 under ci->lock.
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

#define CS_PMD_ORDER		ilog2(CS_SWAPFILE_CLUSTER)

/*
 * A full (or frag) cluster goes back to nonfull only once three quarters of
 * its slots are free, or when it is empty (then to free).  Stock moves it at
 * the first free; the allocator takes nonfull clusters first, so that would
 * hand the next CPU a cluster with one free slot and send it back to si->lock
 * at its next allocation (measured at -smp 8: half a cluster still gave 2.0
 * si->lock holds per 1000 allocations, three quarters 1.9).  Stock code is
 * fine with a full cluster that has some free slots: it never allocates from
 * the full list and relists a cluster itself when it frees into one.  When
 * a device has no room left anywhere else, cs_sweep_full() brings such
 * clusters back.
 */
#define CS_RELIST_FREE		(CS_SWAPFILE_CLUSTER * 3 / 4)

/* inuse_pages credit: include/clusterswap/credit.h. */

/* Clusters a CPU may fill between two of its slow paths. */
#define CS_HELD			2

/* Per-CPU allocator state. */
struct cs_pcp {
	/* Held across one allocation on this CPU (preemption off). */
	local_lock_t lock;
	/* Per order: the next slot to try, in the cluster this CPU allocates from. */
	unsigned long next[SWAP_NR_ORDERS];
	/*
	 * Per order: a second cluster the slow path set aside for this CPU, on
	 * frag (possibly empty), so that the fast path can go on in it when the
	 * first is used up: one si->lock hold per two clusters.
	 */
	unsigned long spare[SWAP_NR_ORDERS];
	/*
	 * Per order: clusters this CPU filled on the fast path, where it could
	 * not move them to the full list (that needs si->lock).  They stay on
	 * nonfull or frag with a full count until this CPU's next slow path, or
	 * a swapoff or switch-off, moves them (cs_settle_held()).  Two: the
	 * first cluster and the spare.
	 */
	unsigned long filled[SWAP_NR_ORDERS][CS_HELD];
	/* inuse_pages credit per swap type, see include/clusterswap/credit.h. */
	atomic_t credit[MAX_SWAPFILES];
};

DECLARE_PER_CPU(struct cs_pcp, cs_pcp);

/* "Context: cs_pcp.lock held", checked where lockdep runs. */
#define cs_assert_pcp_locked()	lockdep_assert_held(this_cpu_ptr(&cs_pcp.lock))

/* What debugfs "stats" prints; per CPU, summed when read. */
struct cs_stats {
	unsigned long alloc[SWAP_NR_ORDERS];	/* allocations served, by order */
	unsigned long large_fail[SWAP_NR_ORDERS]; /* "no slot" to a large folio: it splits */
	unsigned long fast;			/* served from the CPU's cluster, ci->lock only */
	unsigned long slow;			/* went looking for a cluster under si->lock */
	unsigned long stock_fallback;		/* handed to stock get_swap_pages() */
	unsigned long round_robin;		/* walks begun at a default-prio device */
	unsigned long lock_why[CS_LOCK_NR];	/* si->lock taken, by cause */
	unsigned long trylock_fail;		/* si->lock busy under a ci->lock */
	unsigned long list_moves;		/* clusters moved between lists */
	unsigned long in_use_skipped;		/* nonfull clusters left to their CPU */
	unsigned long credit_take;		/* batches of inuse_pages credit taken */
	unsigned long credit_return;		/* credit handed back to inuse_pages */
	unsigned long freed;			/* slots freed */
	unsigned long stock_final_free;		/* stock swap_entry_range_free() calls served */
	unsigned long zswap_invalidate;		/* zswap_invalidate() calls, once it was on */
	unsigned long full;			/* devices found full, taken off the avail list */
	unsigned long idle_reclaimed;		/* idle swap cache slots the allocator freed */
};

DECLARE_PER_CPU(struct cs_stats, cs_stats);

#define cs_count(field)		this_cpu_inc(cs_stats.field)
#define cs_count_n(field, n)	this_cpu_add(cs_stats.field, n)
#define cs_count_lock(why)	this_cpu_inc(cs_stats.lock_why[why])

/* 6.12/reclaim.c */
bool cs_vm_swap_full(void);
void cs_reclaim_want(struct swap_info_struct *si);
void cs_reclaim_wanted_devices(void);
unsigned long cs_reclaim_idle_cache(void);

/* 6.12/clusters.c */
void cs_relist(struct swap_info_struct *si, struct swap_cluster_info *ci);
void cs_move_to_frag(struct swap_info_struct *si, struct swap_cluster_info *ci);
void cs_rotate_frag(struct swap_info_struct *si, struct swap_cluster_info *ci);
void cs_rotate_full(struct swap_info_struct *si, struct swap_cluster_info *ci);
unsigned int cs_sweep_full(struct swap_info_struct *si, int order);
void cs_settle_held(struct swap_info_struct *si, unsigned long *held);
void cs_settle_cpu(struct swap_info_struct *si, struct cs_pcp *pcp, int order);
void cs_settle_cursor(struct swap_info_struct *si, unsigned long *cursor);
bool cs_free_keeps(struct swap_info_struct *si, struct swap_cluster_info *ci);
bool cs_held_by_a_cpu(struct swap_info_struct *si, unsigned long idx);
bool cs_cluster_in_use(struct swap_info_struct *si, unsigned long idx, int order);
void cs_take_free_cluster(struct swap_info_struct *si, struct swap_cluster_info *ci, int order);
unsigned long cs_cluster_take(struct swap_info_struct *si, struct swap_cluster_info *ci,
			      unsigned long offset, int order);

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

/* The replacements (6.12/alloc.c, 6.12/free.c), listed in 6.12/hooks.c. */
swp_entry_t cs_folio_alloc_swap(struct folio *folio);
void cs_free_swap_and_cache_nr(swp_entry_t entry, int nr);
swp_entry_t cs_get_swap_page_of_type(int type);
void cs_swap_entry_range_free(struct swap_info_struct *si, swp_entry_t entry,
			      unsigned int nr);

/*
 * 6.12/bench/passthrough.c, in a passthrough bench build only; the others
 * are in include/clusterswap/passthrough.h.
 */
void cs_pass_free_swap_and_cache_nr(swp_entry_t entry, int nr);
void cs_pass_swap_entry_range_free(struct swap_info_struct *si, swp_entry_t entry,
				   unsigned int nr);

#endif /* _CLUSTERSWAP_LINE_INTERNAL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * si->inuse_pages credit (module/credit.c), the same on every line with the
 * allocator.  A CPU takes cs_credit_batch slots of inuse_pages at a time
 * under si->lock and spends them without it; frees give credit back to the
 * freeing CPU, which returns everything above cs_credit_batch once it holds
 * more than cs_credit_high().  inuse_pages is thus the allocated slots plus
 * every CPU's unspent credit: never below the truth, at most
 * cs_credit_high() per CPU above it, and never above si->pages.
 *
 * The batch is set at load: CS_CREDIT_ALL_CPUS shared out among the
 * possible CPUs, within [CS_CREDIT_BATCH_MIN, CS_CREDIT_BATCH_MAX].  Up to
 * 8 CPUs a CPU takes two clusters' worth at a time; on a big machine the
 * credit all CPUs hold, which /proc/swaps counts as used, stays at most
 * 2 * CS_CREDIT_ALL_CPUS slots (64 MiB with 4 KiB pages), or 2 *
 * CS_CREDIT_BATCH_MIN per CPU where that is more: what stock's own per-CPU
 * slot caches hold (SWAP_SLOTS_CACHE_SIZE, for allocation and for frees).
 *
 * The pools live in the line's struct cs_pcp (module/<line>/internal.h, which
 * includes this header): a member "atomic_t credit[MAX_SWAPFILES]".
 */
#ifndef _CLUSTERSWAP_CREDIT_H
#define _CLUSTERSWAP_CREDIT_H

#include <clusterswap/swapdev.h>

#define CS_CREDIT_BATCH_MAX	(2 * CS_SWAPFILE_CLUSTER)
#define CS_CREDIT_BATCH_MIN	64
#define CS_CREDIT_ALL_CPUS	(8 * CS_CREDIT_BATCH_MAX)

/* Set once at load (cs_credit_init()), read everywhere after. */
extern unsigned int cs_credit_batch;

static inline unsigned int cs_credit_high(void)
{
	return 2 * cs_credit_batch;
}

struct cs_pcp;

void cs_credit_init(void);
void cs_credit_exit(void);
bool cs_credit_take(struct cs_pcp *pcp, unsigned int type, unsigned int nr);
bool cs_credit_refill(struct swap_info_struct *si, struct cs_pcp *pcp, unsigned int nr);
void cs_credit_put(struct swap_info_struct *si, unsigned int nr);
void cs_credit_put_locked(struct swap_info_struct *si, struct cs_pcp *pcp, unsigned int nr);
unsigned long cs_credit_reclaim(struct swap_info_struct *si);
void cs_mark_full(struct swap_info_struct *si);
void cs_unmark_full(struct swap_info_struct *si);
void cs_unmark_full_if_room(struct swap_info_struct *si);

/*
 * What each line provides for the above (module/<line>/clusters.c), all
 * with si->lock held: on and off the avail lists as the line's stock code
 * does it, and what the line's stock swap_range_alloc() does besides when a
 * device fills (6.12: wake the reclaim worker; 6.1: nothing).
 */
void cs_avail_add(struct swap_info_struct *si);
void cs_avail_del(struct swap_info_struct *si);
void cs_line_device_filled(struct swap_info_struct *si);

#endif /* _CLUSTERSWAP_CREDIT_H */

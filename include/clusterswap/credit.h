/* SPDX-License-Identifier: GPL-2.0 */
/*
 * si->inuse_pages credit (module/credit.c), the same on every line with the
 * allocator.  A CPU takes CS_CREDIT_BATCH slots of inuse_pages at a time
 * under si->lock and spends them without it; frees give credit back to the
 * freeing CPU, which returns everything above CS_CREDIT_BATCH once it holds
 * more than CS_CREDIT_HIGH.  inuse_pages is thus the allocated slots plus
 * every CPU's unspent credit: never below the truth, at most CS_CREDIT_HIGH
 * per CPU above it, and never above si->pages.
 *
 * The pools live in the line's struct cs_pcp (module/<line>/internal.h, which
 * includes this header): a member "atomic_t credit[MAX_SWAPFILES]".
 */
#ifndef _CLUSTERSWAP_CREDIT_H
#define _CLUSTERSWAP_CREDIT_H

#include <clusterswap/swapdev.h>

#define CS_CREDIT_BATCH		(2 * CS_SWAPFILE_CLUSTER)
#define CS_CREDIT_HIGH		(2 * CS_CREDIT_BATCH)

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

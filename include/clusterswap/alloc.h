/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation steps every line with the allocator shares (module/walk.c,
 * module/stock_alloc.c), and the one step each line provides.
 */
#ifndef _CLUSTERSWAP_ALLOC_H
#define _CLUSTERSWAP_ALLOC_H

#include <linux/swap.h>

#include <clusterswap/trace.h>

struct cs_pcp;

/*
 * Whether the module allocates (module/<line>/serve.c): set once the switch
 * is on and stock's final frees in flight are fenced; cleared first when it
 * goes off, which then waits a grace period before stock's final frees run
 * again (cs_line_alloc_stop()).  Allocation reads it at entry, and again
 * inside the cs_pcp.lock section that takes slots: only that second read is
 * covered by the grace period.
 */
extern bool cs_alloc_ready;

/**
 * cs_alloc_stopped() - Whether switch-off began since this allocation's entry.
 * @stock: set when it did: the caller asks stock code, under si->lock.
 * @why: set to why, when it did.
 *
 * Context: cs_pcp.lock held (an RCU read-side section, which the switch-off's
 * grace period waits out).
 * Return: true if the module must not take slots any more.
 */
static inline bool cs_alloc_stopped(bool *stock, enum cs_stock_why *why)
{
	if (likely(READ_ONCE(cs_alloc_ready)))
		return false;
	*stock = true;
	*why = CS_STOCK_SWITCHING_OFF;
	return true;
}

/* module/walk.c */
unsigned long cs_alloc_slow(struct cs_pcp *pcp, int order, bool *stock,
			    enum cs_stock_why *why);
bool cs_reserve_swap_pages(long nr);
int cs_charge_swap(struct folio *folio, swp_entry_t entry);
void cs_full_after_alloc(swp_entry_t entry);

/* module/stock_alloc.c */
void cs_stock_alloc_prepare(unsigned int nr);
void cs_stock_alloc_done(swp_entry_t entry);

/*
 * The line's step of the walk (module/<line>/alloc.c): a slot of 1 << @order
 * pages on @si, or 0.  Context: cs_pcp.lock held.
 */
unsigned long cs_alloc_on_device(struct cs_pcp *pcp, struct swap_info_struct *si, int order);

#endif /* _CLUSTERSWAP_ALLOC_H */

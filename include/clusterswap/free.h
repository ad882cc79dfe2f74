/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The final free: the entry points every line shares (module/free_entry.c)
 * and the steps each line provides (module/<line>/free.c).
 */
#ifndef _CLUSTERSWAP_FREE_H
#define _CLUSTERSWAP_FREE_H

#include <linux/swap.h>

struct swap_cluster_info;

/* module/free_entry.c */
void cs_kcall_slot_free_notify(struct swap_info_struct *si, unsigned long offset);
bool cs_only_cached(struct swap_info_struct *si, unsigned long offset, unsigned int nr);
void cs_free_slots(struct swap_info_struct *si, unsigned long offset, unsigned int nr);
void cs_free_swap_slot(swp_entry_t entry);
void cs_swapcache_free_entries(swp_entry_t *entries, int n);
void cs_put_swap_folio(struct folio *folio, swp_entry_t entry);

/*
 * The line's steps (module/<line>/free.c): the final free of @nr slots of
 * one cluster, whose lock the caller holds and which it unlocks; the free of
 * a slot on a device without clusters; put_swap_folio() with the module's
 * final free.  Context: no other swap lock held; never sleeps.
 */
void cs_free_slots_locked(struct swap_info_struct *si, struct swap_cluster_info *ci,
			  unsigned long offset, unsigned int nr);
void cs_free_stock(swp_entry_t entry);
void cs_put_folio(struct folio *folio, swp_entry_t entry);

#endif /* _CLUSTERSWAP_FREE_H */

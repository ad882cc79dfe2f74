/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A passthrough bench build's replacements of the functions every line
 * redirects (module/bench/passthrough.c; make CS_BENCH=passthrough only).
 * A line's own are declared in its internal.h.  Each only calls the
 * original: see include/clusterswap/hooks.h, CS_REPLACEMENT().
 */
#ifndef _CLUSTERSWAP_PASSTHROUGH_H
#define _CLUSTERSWAP_PASSTHROUGH_H

#include <linux/swap.h>

swp_entry_t cs_pass_folio_alloc_swap(struct folio *folio);
void cs_pass_free_swap_slot(swp_entry_t entry);
void cs_pass_put_swap_folio(struct folio *folio, swp_entry_t entry);
void cs_pass_swapcache_free_entries(swp_entry_t *entries, int n);
swp_entry_t cs_pass_get_swap_page_of_type(int type);

#endif /* _CLUSTERSWAP_PASSTHROUGH_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the 6.1 line's own non-exported symbols (line_symbols.h),
 * resolved at load with those of every line (module/symbols.c).
 */
#include <clusterswap/symbols.h>

const char * const cs_line_sym_names[CS_NR_SYMS - CS_SYM_LINE_FIRST] = {
	[CS_SYM_free_swap_and_cache - CS_SYM_LINE_FIRST] = "free_swap_and_cache",
	[CS_SYM___frontswap_invalidate_area - CS_SYM_LINE_FIRST] = "__frontswap_invalidate_area",
};

/*
 * From the cluster allocator of 6.10-6.12 (mTHP swap-out, per-order lists,
 * direct zswap calls) and the reworks after it, in upstream's names.  None
 * is in any 6.1.y.
 */
const char * const cs_line_later_syms[] = {
	"cluster_alloc_swap_entry",
	"swap_reclaim_full_clusters",
	"swap_entry_range_free",
	"zswap_invalidate",
	"isolate_lock_cluster",
	"relocate_cluster",
	"swap_alloc_fast",
	NULL,
};

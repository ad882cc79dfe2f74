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

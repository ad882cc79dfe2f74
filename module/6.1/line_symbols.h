/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 6.1 line's non-exported symbols: the enumerators that follow those
 * of every line inside enum cs_sym (include/clusterswap/symbols.h includes
 * this file there).  Their names are in symbols.c here.
 */
	CS_SYM_free_swap_and_cache = CS_SYM_LINE_FIRST,
	CS_SYM___frontswap_invalidate_area,

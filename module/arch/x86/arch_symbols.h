/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86's own non-exported symbols: the enumerators that follow those of
 * every architecture inside enum cs_sym (include/clusterswap/symbols.h
 * includes this file there).  Their names are in symbols.c here.
 */
	/* The kernel's instruction decoder, for the tail-call check (jumps.c). */
	CS_SYM_insn_decode = CS_SYM_ARCH_FIRST,

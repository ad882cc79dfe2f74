/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64's own non-exported symbols, inside enum cs_sym
 * (include/clusterswap/symbols.h): none.  Its instructions are four bytes
 * of fixed fields, decoded here (jumps.c) without the kernel's help.
 */

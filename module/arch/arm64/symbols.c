// SPDX-License-Identifier: GPL-2.0
/*
 * arm64's own non-exported symbols (arch_symbols.h: none), and where a
 * function starts.
 */
#include <clusterswap/arch.h>
#include <clusterswap/symbols.h>

/*
 * Indexed from CS_SYM_ARCH_FIRST: never, with no arm64 symbol (the one
 * element more keeps the array from being empty).
 */
const char * const cs_arch_sym_names[CS_SYM_LINE_FIRST - CS_SYM_ARCH_FIRST + 1];

/*
 * A kprobe on a function's name is placed at its start: arm64 has no
 * arch_adjust_kprobe_addr(), and its start is no ftrace site (that is the
 * next instruction), which a kprobe could not take.
 */
unsigned long cs_arch_kprobe_start(unsigned long addr)
{
	return addr;
}

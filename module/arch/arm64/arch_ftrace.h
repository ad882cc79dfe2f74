/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a redirect sends an arm64 traced call elsewhere (module/hooks.c).
 *
 * 6.12 traces "with args", as x86 does: the callback's struct ftrace_regs
 * holds the argument registers and the address the traced call resumes at,
 * and IPMODIFY needs no SAVE_REGS.  6.1 traces "with regs" only: the
 * resume address is in the full struct pt_regs that SAVE_REGS makes
 * ftrace save, and ftrace_instruction_pointer_set() is an empty stub there
 * (it would compile, and redirect nothing).
 */
#ifndef _CLUSTERSWAP_ARCH_FTRACE_H
#define _CLUSTERSWAP_ARCH_FTRACE_H

#include <linux/ftrace.h>
#include <clusterswap/compat.h>

/*
 * A BTI kernel puts "bti c" before the patchable entry and checks indirect
 * branches' landing pads, which the gate's blr past the site would miss.
 * Debian builds none (ARM64_BTI_KERNEL depends on !CC_IS_GCC).
 */
#ifdef CONFIG_ARM64_BTI_KERNEL
#error "clusterswap: arm64 kernels built with kernel BTI are not supported"
#endif

#ifdef CS_KERNEL_LINE_612

#ifndef CONFIG_DYNAMIC_FTRACE_WITH_ARGS
#error "clusterswap: needs CONFIG_DYNAMIC_FTRACE_WITH_ARGS (Debian's arm64 6.12 has it)"
#endif
#define CS_ARCH_REDIRECT_FLAGS	0
#define cs_ftrace_set_ip(fregs, ip) ftrace_regs_set_instruction_pointer(fregs, ip)

#else /* 6.1 */

#ifndef CONFIG_DYNAMIC_FTRACE_WITH_REGS
#error "clusterswap: needs CONFIG_DYNAMIC_FTRACE_WITH_REGS (Debian's arm64 6.1 has it)"
#endif
#define CS_ARCH_REDIRECT_FLAGS	FTRACE_OPS_FL_SAVE_REGS
/* With SAVE_REGS, ftrace_get_regs() is never NULL. */
#define cs_ftrace_set_ip(fregs, ip) instruction_pointer_set(ftrace_get_regs(fregs), ip)

#endif

#endif /* _CLUSTERSWAP_ARCH_FTRACE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a redirect sends an x86-64 traced call elsewhere (module/hooks.c).
 * Both lines trace "with args": the callback gets the caller's argument
 * registers and the instruction pointer in struct ftrace_regs, and IPMODIFY
 * needs no SAVE_REGS (livepatch registers the same way).
 */
#ifndef _CLUSTERSWAP_ARCH_FTRACE_H
#define _CLUSTERSWAP_ARCH_FTRACE_H

#include <linux/ftrace.h>
#include <clusterswap/compat.h>

#ifndef CONFIG_DYNAMIC_FTRACE_WITH_ARGS
#error "clusterswap: needs CONFIG_DYNAMIC_FTRACE_WITH_ARGS (x86-64 distro kernels have it)"
#endif

/* The ftrace_ops flags a redirect needs besides IPMODIFY: none. */
#define CS_ARCH_REDIRECT_FLAGS	0

/* Redirect a traced function: the ftrace_regs accessor was renamed in 6.5. */
#ifdef CS_KERNEL_LINE_612
#define cs_ftrace_set_ip(fregs, ip) ftrace_regs_set_instruction_pointer(fregs, ip)
#else
#define cs_ftrace_set_ip(fregs, ip) ftrace_instruction_pointer_set(fregs, ip)
#endif

#endif /* _CLUSTERSWAP_ARCH_FTRACE_H */

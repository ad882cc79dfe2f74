/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel lines clusterswap supports, and every difference between them.
 *
 * clusterswap reaches into mm/swapfile.c internals that change between kernel
 * lines, so it is built for an explicit list of lines and refuses all others,
 * at build time (here) and at load time (kernel_gate.c).  Every #if on the
 * kernel version in the module belongs in this file, except where a line
 * changed an architecture's ftrace interface: that is in the architecture's
 * arch_ftrace.h (module/arch/<arch>/), beside the rest of that interface.
 *
 *   6.12.y  Debian 13 (trixie), RHEL 10: the primary target.
 *   6.1.y   Debian 12 (bookworm).
 *
 * 6.14 and later already have the cluster allocator this module brings
 * (upstream "rework of swap allocator locks", "remove swap slot cache"), and
 * their swap internals differ; they are refused like any unknown kernel.
 */
#ifndef _CLUSTERSWAP_COMPAT_H
#define _CLUSTERSWAP_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_MAJOR == 6 && LINUX_VERSION_PATCHLEVEL == 12
#define CS_KERNEL_LINE_612	1
#define CS_KERNEL_LINE_NAME	"6.12"
#define CS_LINE_HAS_ALLOCATOR	1	/* the cluster allocator serves calls */
/*
 * Stock keeps per-CPU allocation hints the module must clear before stock
 * allocates beside it (module/6.12/serve.c: cs_line_before_stock_alloc()).
 */
#define CS_LINE_STOCK_HINTS	1
#elif LINUX_VERSION_MAJOR == 6 && LINUX_VERSION_PATCHLEVEL == 1
#define CS_KERNEL_LINE_61	1
#define CS_KERNEL_LINE_NAME	"6.1"
#define CS_LINE_HAS_ALLOCATOR	1	/* the cluster allocator serves calls */
/*
 * Stock 6.1's per-CPU hints (percpu_cluster, cluster_next_cpu) are only
 * hints: every use checks the bytes under ci->lock and asserts nothing of
 * the cluster's list.  It finds room by scanning bytes between bounds the
 * module never narrows, and the module keeps no full list: nothing to clear
 * before stock allocates (line.h: cs_line_before_stock_alloc() is empty).
 */
#define CS_LINE_STOCK_HINTS	0
#elif LINUX_VERSION_MAJOR > 6 || (LINUX_VERSION_MAJOR == 6 && LINUX_VERSION_PATCHLEVEL >= 14)
#error "clusterswap: 6.14 and later have the cluster swap allocator already: not supported"
#else
#error "clusterswap: unsupported kernel: supported lines are 6.12.y and 6.1.y"
#endif

/*
 * PREEMPT_RT (Debian's rt-amd64 flavour) is refused: its sleeping spinlocks
 * break the switch-on fence of the 6.1 line, and the 6.12 line's binary
 * layout is unverified there (module/README.md, section 11).
 */
#ifdef CONFIG_PREEMPT_RT
#error "clusterswap: PREEMPT_RT kernels are not supported"
#endif

/*
 * The architectures with a folder module/arch/<arch>/ (include/clusterswap/
 * arch.h): x86-64, and arm64 (module/README.md, section 12).
 */
#if !defined(CONFIG_X86_64) && !defined(CONFIG_ARM64)
#error "clusterswap: unsupported architecture: supported are x86-64 and arm64"
#endif

#ifndef __ASSEMBLY__

#include <linux/ftrace.h>

#ifndef CONFIG_KPROBES
#error "clusterswap: needs CONFIG_KPROBES to find kallsyms_lookup_name"
#endif
#ifndef CONFIG_SWAP
#error "clusterswap: needs CONFIG_SWAP"
#endif

#endif /* !__ASSEMBLY__ */
#endif /* _CLUSTERSWAP_COMPAT_H */

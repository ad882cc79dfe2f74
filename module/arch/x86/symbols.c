// SPDX-License-Identifier: GPL-2.0
/*
 * x86's own non-exported symbols (arch_symbols.h), and where a function
 * starts on a kernel built with IBT.
 */
#include <linux/uaccess.h>

#include <clusterswap/arch.h>
#include <clusterswap/symbols.h>

const char * const cs_arch_sym_names[CS_SYM_LINE_FIRST - CS_SYM_ARCH_FIRST] = {
	[CS_SYM_insn_decode - CS_SYM_ARCH_FIRST] = "insn_decode",
};

/* ENDBR64, and the 4-byte NOP the kernel seals unused ENDBRs with. */
#define CS_ENDBR64		0xfa1e0ff3U
#define CS_ENDBR_SEALED		0x001f0f66U

/*
 * On IBT kernels arch_adjust_kprobe_addr() places a probe on a function's
 * name after its ENDBR (or the NOP that sealed it): step back over it.
 */
unsigned long cs_arch_kprobe_start(unsigned long addr)
{
	u32 insn;

	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) &&
	    !copy_from_kernel_nofault(&insn, (void *)(addr - 4), sizeof(insn)) &&
	    (insn == CS_ENDBR64 || insn == CS_ENDBR_SEALED))
		addr -= 4;
	return addr;
}

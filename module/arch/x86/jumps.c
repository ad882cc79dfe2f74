// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 instructions for the tail-call check (module/tail_calls.c),
 * decoded by the kernel's own decoder: which are direct jumps, and where
 * a jump may enter a redirected function.
 */
#include <linux/kernel.h>
#include <asm/insn.h>

#include <clusterswap/arch.h>
#include <clusterswap/symbols.h>

unsigned int cs_arch_decode_jump(const u8 *code, size_t avail, unsigned long at,
				 unsigned long *to)
{
	struct insn insn;
	bool jump;
	u8 op;

	*to = 0;
	if ((int)cs_sym_call4(CS_SYM_insn_decode, &insn, code,
			      min_t(size_t, avail, MAX_INSN_SIZE), INSN_MODE_KERN))
		return 0;
	op = insn.opcode.bytes[0];
	jump = op == 0xe9 || op == 0xeb ||		/* jmp rel32, rel8 */
	       (op & 0xf0) == 0x70 ||			/* jcc rel8 */
	       (op == 0x0f && (insn.opcode.bytes[1] & 0xf0) == 0x80);	/* jcc rel32 */
	if (jump)
		*to = at + insn.length + insn.immediate.value;
	return insn.length;
}

/*
 * The start, the ftrace site, and on IBT kernels the first byte after the
 * ENDBR (the same as the site, today; a build with the site elsewhere
 * would still be covered).
 */
unsigned int cs_arch_entry_points(unsigned long addr, unsigned long ftrace_site,
				  unsigned long *out)
{
	unsigned int n = 0;

	out[n++] = addr;
	out[n++] = ftrace_site;
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT))
		out[n++] = addr + 4;
	return n;
}

/* The __fentry__ call: the first instruction, or the next after an ENDBR. */
bool cs_arch_ftrace_site_ok(unsigned long addr, unsigned long ftrace_site)
{
	return ftrace_site == addr ||
	       (IS_ENABLED(CONFIG_X86_KERNEL_IBT) && ftrace_site == addr + 4);
}

/* Code up to the next symbol: padding there is NOPs or INT3s. */
unsigned long cs_arch_code_size(unsigned long start, unsigned long size)
{
	return size;
}

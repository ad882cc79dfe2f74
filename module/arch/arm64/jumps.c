// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 instructions for the tail-call check (module/tail_calls.c): which
 * are direct branches, and where a branch may enter a redirected function.
 * Every instruction is four bytes; a direct branch holds its target as a
 * signed count of instructions from itself, in a field of fixed place.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include <clusterswap/arch.h>
#include <clusterswap/symbols.h>

#define CS_INSN_SIZE	4

/* A field of @insn: @bits bits from bit @lsb, sign-extended, in bytes. */
static long cs_branch_offset(u32 insn, unsigned int lsb, unsigned int bits)
{
	return (long)sign_extend64((insn >> lsb) & GENMASK(bits - 1, 0), bits - 1) * CS_INSN_SIZE;
}

/*
 * B, B.cond (and BC.cond), CBZ/CBNZ, TBZ/TBNZ: the Arm ARM's encodings of
 * the unconditional and conditional immediate branches.  BL is a call, and
 * BR/BLR/RET branch through a register: no target to follow.
 */
unsigned int cs_arch_decode_jump(const u8 *code, size_t avail, unsigned long at,
				 unsigned long *to)
{
	long offset;
	u32 insn;

	*to = 0;
	if (avail < CS_INSN_SIZE || at % CS_INSN_SIZE)
		return 0;
	memcpy(&insn, code, sizeof(insn));
	insn = le32_to_cpu((__force __le32)insn);
	if ((insn & 0xfc000000) == 0x14000000)		/* B imm26 */
		offset = cs_branch_offset(insn, 0, 26);
	else if ((insn & 0xff000000) == 0x54000000)	/* B.cond, BC.cond imm19 */
		offset = cs_branch_offset(insn, 5, 19);
	else if ((insn & 0x7e000000) == 0x34000000)	/* CBZ, CBNZ imm19 */
		offset = cs_branch_offset(insn, 5, 19);
	else if ((insn & 0x7e000000) == 0x36000000)	/* TBZ, TBNZ imm14 */
		offset = cs_branch_offset(insn, 5, 14);
	else
		return CS_INSN_SIZE;
	*to = at + offset;
	return CS_INSN_SIZE;
}

/*
 * The start ("mov x9, x30", or its NOP while ftrace is off there), the
 * ftrace site after it, and the first instruction of the function's own
 * after that (where the gate enters it: cs_sym_call_past_ftrace()).
 */
unsigned int cs_arch_entry_points(unsigned long addr, unsigned long ftrace_site,
				  unsigned long *out)
{
	out[0] = addr;
	out[1] = ftrace_site;
	out[2] = ftrace_site + CS_INSN_SIZE;
	return 3;
}

/*
 * -fpatchable-function-entry: "mov x9, x30" at the start, the site after
 * it (with CALL_OPS the ops pointer is before the start).  A BTI kernel
 * would put "bti c" first; arch_ftrace.h refuses it at build time.
 */
bool cs_arch_ftrace_site_ok(unsigned long addr, unsigned long ftrace_site)
{
	return ftrace_site == addr + CS_INSN_SIZE;
}

/*
 * With CALL_OPS (Debian's 6.12), a traced function is preceded by two
 * words that ftrace fills with a pointer to its ftrace_ops: kallsyms counts
 * them in the function before, where they would decode as anything (a
 * kernel address's low word is a branch on some boots).  The next function
 * is traced when its ftrace site is its second instruction.
 */
unsigned long cs_arch_code_size(unsigned long start, unsigned long size)
{
	unsigned long next = start + size;

	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS) && size >= 8 &&
	    cs_sym_call1(CS_SYM_ftrace_location, next) == next + CS_INSN_SIZE)
		return size - 8;
	return size;
}

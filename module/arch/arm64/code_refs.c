// SPDX-License-Identifier: GPL-2.0
/*
 * The variables an arm64 kernel function reaches through addresses it forms
 * itself: for a kernel whose kallsyms lists no variable (Debian's arm64
 * 6.1: KALLSYMS_ALL is off), the module finds the few it needs from the
 * code that uses them (module/6.1/symbols.c).
 *
 * gcc forms a variable's address with "adrp xA, page" and "add xB, xA,
 * #lo", often once per function for a section anchor that several
 * variables sit at fixed offsets from, in a register kept across the whole
 * function; a use then adds the variable's offset or loads at it.  So this
 * is a forward data-flow pass over the function's control-flow graph: each
 * general register holds either an address known at that instruction (the
 * same on every path that reaches it) or nothing known.  It is sound in one
 * direction only, which is the one that matters: an instruction it cannot
 * read leaves the registers it may write unknown, so a value it reports is
 * one the code really has there; and what it cannot follow (a branch
 * through a register, a jump out of the function, any branch, exception or
 * system instruction it does not model, such as a kprobe's BRK put in
 * place of the code's own instruction) fails the whole reading.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/brk-imm.h>

#include <clusterswap/arch.h>

#define CS_INSN_SIZE	4
/* x0-x30; register number 31 is SP or XZR, never an address here. */
#define CS_NR_XREGS	31
/* Larger than any function the module reads (get_swap_pages(): 372). */
#define CS_MAX_INSNS	4096

/* What is known of the general registers before an instruction: 0, nothing. */
struct cs_known_regs {
	unsigned long x[CS_NR_XREGS];
};

/* The instruction's register field at bit @lsb. */
static unsigned int cs_reg(u32 insn, unsigned int lsb)
{
	return (insn >> lsb) & 0x1f;
}

static void cs_forget(struct cs_known_regs *r, unsigned int reg)
{
	if (reg < CS_NR_XREGS)
		r->x[reg] = 0;
}

static unsigned long cs_known(const struct cs_known_regs *r, unsigned int reg)
{
	return reg < CS_NR_XREGS ? r->x[reg] : 0;
}

/* A field of @insn: @bits bits from bit @lsb, sign-extended. */
static long cs_field(u32 insn, unsigned int lsb, unsigned int bits)
{
	return (long)sign_extend64((insn >> lsb) & GENMASK(bits - 1, 0), bits - 1);
}

/*
 * Load/store classes (the Arm ARM's encoding index) whose only register
 * write is Rt (and Rt2 for a pair), when a load: no write-back.
 */
static bool cs_ldst_no_writeback(u32 insn)
{
	return (insn & 0x3b000000) == 0x39000000 ||	/* unsigned offset */
	       (insn & 0x3b200c00) == 0x38200800 ||	/* register offset */
	       (insn & 0x3b800000) == 0x29000000;	/* pair, signed offset */
}

/*
 * The registers a load or store may write.  One of the forms above, a
 * store writes none and a load its Rt (Rt2); an FP/SIMD load writes a
 * vector register.  Any other form (write-back, exclusives, atomics,
 * compare-and-swap pairs, literals, LD64B's eight registers) may write
 * Rn, Rt2, Rs and Rs+1, and Rt up to Rt+7: all are forgotten.
 */
static void cs_ldst_forget(struct cs_known_regs *r, u32 insn)
{
	bool vector = insn & BIT(26);
	unsigned int reg;
	bool load;

	if (cs_ldst_no_writeback(insn)) {
		if ((insn & 0x3b800000) == 0x29000000)
			load = insn & BIT(22);
		else
			load = insn & GENMASK(23, 22);
		if (!load || vector)
			return;
		cs_forget(r, cs_reg(insn, 0));
		if ((insn & 0x3b800000) == 0x29000000)
			cs_forget(r, cs_reg(insn, 10));
		return;
	}
	for (reg = cs_reg(insn, 0); reg < cs_reg(insn, 0) + 8; reg++)
		cs_forget(r, reg);
	cs_forget(r, cs_reg(insn, 5));
	cs_forget(r, cs_reg(insn, 10));
	cs_forget(r, cs_reg(insn, 16));
	cs_forget(r, cs_reg(insn, 16) + 1);
}

/* A call: AAPCS64 lets the callee change x0-x18 and the link register. */
static void cs_call_forget(struct cs_known_regs *r)
{
	unsigned int reg;

	for (reg = 0; reg <= 18; reg++)
		cs_forget(r, reg);
	cs_forget(r, 30);
}

/*
 * One instruction at @pc: turn @r from what is known before it into what
 * is known after it, and give the addresses control may go to next.
 * Return: how many in @next (0: it returns), or -ENOEXEC.
 */
static int cs_step(u32 insn, unsigned long pc, struct cs_known_regs *r, unsigned long *next)
{
	unsigned int rd = cs_reg(insn, 0), rn = cs_reg(insn, 5);
	unsigned long base;

	if ((insn & 0x1f000000) == 0x10000000) {		/* ADR, ADRP */
		/* A signed 21-bit immediate: immhi (bits 5-23), immlo (29-30). */
		long imm = cs_field(insn, 5, 19) * 4 + ((insn >> 29) & 3);

		if (rd < CS_NR_XREGS && (insn & BIT(31)))
			r->x[rd] = (pc & ~0xfffUL) + imm * 4096;
		else if (rd < CS_NR_XREGS)
			r->x[rd] = pc + imm;
	} else if ((insn & 0xff800000) == 0x91000000) {	/* ADD Xd, Xn, #imm */
		base = cs_known(r, rn);
		cs_forget(r, rd);
		if (base && rd < CS_NR_XREGS)
			r->x[rd] = base + (((insn >> 10) & 0xfff) << (insn & BIT(22) ? 12 : 0));
	} else if ((insn & 0xffe0ffe0) == 0xaa0003e0) {	/* MOV Xd, Xm */
		base = cs_known(r, cs_reg(insn, 16));
		cs_forget(r, rd);
		if (rd < CS_NR_XREGS)
			r->x[rd] = base;
	} else if ((insn & 0xfc000000) == 0x94000000) {	/* BL */
		cs_call_forget(r);
	} else if ((insn & 0xfe000000) == 0xd6000000) {	/* branch to register */
		/* opc, bits 21-23; bit 24 marks the authenticating forms. */
		switch ((insn >> 21) & 0x7) {
		case 1:			/* BLR and its authenticating forms */
			cs_call_forget(r);
			break;
		case 2:			/* RET, RETAA, RETAB */
			return 0;
		default:		/* BR (a jump table?), ERET: not followed */
			return -ENOEXEC;
		}
	} else if ((insn & 0xfc000000) == 0x14000000) {	/* B */
		next[0] = pc + cs_field(insn, 0, 26) * CS_INSN_SIZE;
		return 1;
	} else if ((insn & 0xff000000) == 0x54000000 ||	/* B.cond, BC.cond */
		   (insn & 0x7e000000) == 0x34000000) {	/* CBZ, CBNZ */
		next[0] = pc + CS_INSN_SIZE;
		next[1] = pc + cs_field(insn, 5, 19) * CS_INSN_SIZE;
		return 2;
	} else if ((insn & 0x7e000000) == 0x36000000) {	/* TBZ, TBNZ */
		next[0] = pc + CS_INSN_SIZE;
		next[1] = pc + cs_field(insn, 5, 14) * CS_INSN_SIZE;
		return 2;
	} else if ((insn & 0xffe0001f) == 0xd4200000 &&	/* BRK #imm */
		   ((insn >> 5) & 0xffff) == BUG_BRK_IMM) {
		/* BUG() and WARN(); a WARN returns to the next instruction. */
	} else if ((insn & 0xfffff01f) == 0xd503201f) {	/* hints */
		/*
		 * Pointer authentication hints sign or authenticate x30
		 * (PACIASP, AUTIASP, ...) or x17 (PACIA1716, ...), and
		 * CHKFEAT writes x16; the others write nothing.
		 */
		cs_forget(r, 16);
		cs_forget(r, 17);
		cs_forget(r, 30);
	} else if ((insn & 0xffc00000) == 0xd5000000) {	/* barriers, MSR, MRS, SYS, SYSL */
		cs_forget(r, rd);
	} else if ((insn & 0x1c000000) == 0x14000000) {
		/*
		 * Any other branch, exception or system instruction: a
		 * kprobe's or a debugger's BRK in place of the code's own
		 * instruction, a system call, a branch of a later
		 * architecture version.  Not modelled: not followed.
		 */
		return -ENOEXEC;
	} else if ((insn & 0x0a000000) == 0x08000000) {	/* loads and stores */
		cs_ldst_forget(r, insn);
	} else {
		/*
		 * Data processing (immediate and register), and FP, SIMD and
		 * SVE instructions: each writes at most its Rd (bits 0-4).
		 */
		cs_forget(r, rd);
	}
	next[0] = pc + CS_INSN_SIZE;
	return 1;
}

static void cs_refs_add(unsigned long *vals, unsigned int *nr, unsigned long val, int *err)
{
	unsigned int i;

	for (i = 0; i < *nr; i++)
		if (vals[i] == val)
			return;
	if (*nr == CS_CODE_REFS_MAX) {
		*err = -E2BIG;
		return;
	}
	vals[(*nr)++] = val;
}

/* What the instruction at @pc does with a known address, into @refs. */
static void cs_note_refs(u32 insn, unsigned long pc, const struct cs_known_regs *r,
			 unsigned long callee, struct cs_code_refs *refs, int *err)
{
	unsigned long base = cs_known(r, cs_reg(insn, 5));

	if ((insn & 0xffc00000) == 0xf9400000 && base)		/* LDR Xt, [Xn, #imm] */
		cs_refs_add(refs->loads, &refs->nr_loads,
			    base + ((insn >> 10) & 0xfff) * 8, err);
	else if ((insn & 0xffe01c00) == 0xf8601800 && base)	/* LDR Xt, [Xn, Rm, ext #3] */
		cs_refs_add(refs->indexed, &refs->nr_indexed, base, err);
	else if ((insn & 0xfc000000) == 0x94000000 &&		/* BL callee */
		 pc + cs_field(insn, 0, 26) * CS_INSN_SIZE == callee && cs_known(r, 0))
		cs_refs_add(refs->args, &refs->nr_args, cs_known(r, 0), err);
}

/*
 * Merge @in into what is known before instruction @i: a register keeps a
 * value only where every path agrees.  Return: whether that changed.
 */
static bool cs_merge(struct cs_known_regs *state, unsigned long *reached, unsigned int i,
		     const struct cs_known_regs *in)
{
	bool changed = false;
	unsigned int reg;

	if (!test_and_set_bit(i, reached)) {
		state[i] = *in;
		return true;
	}
	for (reg = 0; reg < CS_NR_XREGS; reg++) {
		if (state[i].x[reg] && state[i].x[reg] != in->x[reg]) {
			state[i].x[reg] = 0;
			changed = true;
		}
	}
	return changed;
}

/* One aligned word: kernel text may be patched (ftrace) while it is read. */
static u32 cs_insn_at(const u8 *code, unsigned int i)
{
	return le32_to_cpu(READ_ONCE(((const __le32 *)code)[i]));
}

int cs_arch_code_refs(const u8 *code, unsigned long at, size_t size,
		      unsigned long callee, struct cs_code_refs *refs)
{
	unsigned int n = size / CS_INSN_SIZE, i, k;
	unsigned long *reached, *pending;
	struct cs_known_regs *state, r;
	unsigned long next[2];
	int nr, err = 0;

	memset(refs, 0, sizeof(*refs));
	if (!size || size > CS_MAX_INSNS * CS_INSN_SIZE || size % CS_INSN_SIZE ||
	    at % CS_INSN_SIZE || (unsigned long)code % CS_INSN_SIZE)
		return -ENOEXEC;
	state = kvcalloc(n, sizeof(*state), GFP_KERNEL);
	reached = bitmap_zalloc(n, GFP_KERNEL);
	pending = bitmap_zalloc(n, GFP_KERNEL);
	if (!state || !reached || !pending) {
		err = -ENOMEM;
		goto out;
	}

	/* Nothing is known at the start; follow every path to a fixed point. */
	memset(&r, 0, sizeof(r));
	cs_merge(state, reached, 0, &r);
	set_bit(0, pending);
	while ((i = find_first_bit(pending, n)) < n) {
		clear_bit(i, pending);
		r = state[i];
		nr = cs_step(cs_insn_at(code, i), at + i * CS_INSN_SIZE, &r, next);
		if (nr < 0) {
			err = nr;
			goto out;
		}
		for (k = 0; k < nr; k++) {
			unsigned long to = next[k];

			/* Out of the function (a .cold part?), or off the grid. */
			if (to < at || to >= at + size || to % CS_INSN_SIZE) {
				err = -ENOEXEC;
				goto out;
			}
			if (cs_merge(state, reached, (to - at) / CS_INSN_SIZE, &r))
				set_bit((to - at) / CS_INSN_SIZE, pending);
		}
	}

	for_each_set_bit(i, reached, n)
		cs_note_refs(cs_insn_at(code, i), at + i * CS_INSN_SIZE, &state[i],
			     callee, refs, &err);
out:
	bitmap_free(pending);
	bitmap_free(reached);
	kvfree(state);
	return err;
}

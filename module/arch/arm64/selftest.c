// SPDX-License-Identifier: GPL-2.0
/*
 * Self-tests of the arm64 decoder of the tail-call check (jumps.c), on
 * made-up code, and the made-up code of module/selftest.c's walks.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include <clusterswap/arch.h>
#include <clusterswap/selftest.h>

#define CS_NOP		0xd503201fU
#define CS_B		0x14000000U

static void cs_put_insn(u8 *code, u32 insn)
{
	__le32 word = cpu_to_le32(insn);

	memcpy(code, &word, sizeof(word));
}

void cs_arch_fill_nops(u8 *code, size_t len)
{
	size_t off;

	for (off = 0; off + 4 <= len; off += 4)
		cs_put_insn(code + off, CS_NOP);
}

/* A B at @code[@off], for code loaded at @base, to @to. */
void cs_arch_put_jump(u8 *code, unsigned long base, size_t off, unsigned long to)
{
	long words = ((long)to - (long)(base + off)) / 4;

	cs_put_insn(code + off, CS_B | (words & 0x03ffffff));
}

/*
 * Each kind of direct branch is decoded with its target, forwards and
 * back; a call (it returns), a branch through a register and a NOP are
 * not jumps; an instruction cut off by the end of the function, or not on
 * an instruction boundary, cannot be decoded.
 */
void cs_arch_selftest_jumps(struct cs_selftest *t)
{
	const unsigned long at = 0xffff800080010040UL;
	static const struct {
		u32 insn;
		unsigned int avail;
		unsigned int misalign;
		unsigned int len;	/* 0: undecodable */
		long dest;		/* from @at; 0: not a jump */
	} cases[] = {
		{ 0x14000400, 8, 0, 4, 0x1000 },	/* b .+0x1000 */
		{ 0x17fffffb, 8, 0, 4, -20 },		/* b .-20 */
		{ 0x54008001, 8, 0, 4, 0x1000 },	/* b.ne .+0x1000 */
		{ 0xb4008000, 8, 0, 4, 0x1000 },	/* cbz x0, .+0x1000 */
		{ 0x35ffff61, 8, 0, 4, -20 },		/* cbnz w1, .-20 */
		{ 0x37080102, 8, 0, 4, 0x20 },		/* tbnz w2, #1, .+0x20 */
		{ 0x94000400, 8, 0, 4, 0 },		/* bl .+0x1000 */
		{ 0xd61f0200, 8, 0, 4, 0 },		/* br x16 */
		{ CS_NOP, 8, 0, 4, 0 },			/* nop */
		{ 0x14000400, 3, 0, 0, 0 },		/* b, cut off */
		{ 0x14000400, 8, 2, 0, 0 },		/* b, not on a boundary */
	};
	unsigned long to, want;
	unsigned int i, len;
	u8 code[8];

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		cs_put_insn(code, cases[i].insn);
		want = 0;
		if (cases[i].dest)
			want = at + cases[i].dest;
		len = cs_arch_decode_jump(code, cases[i].avail, at + cases[i].misalign, &to);
		cs_expect(t, len == cases[i].len && (!len || to == want),
			  "arm64 jump case %u: length %u, to %#lx", i, len, to);
	}
}

/* Encoders for the made-up code of cs_arch_selftest_code_refs(). */
#define CS_RET		0xd65f03c0U
#define CS_BR_X16	0xd61f0200U

static u32 cs_adrp(unsigned int rd, long pages)
{
	return 0x90000000U | (pages & 3) << 29 | ((pages >> 2) & 0x7ffff) << 5 | rd;
}

static u32 cs_add(unsigned int rd, unsigned int rn, unsigned int imm)
{
	return 0x91000000U | imm << 10 | rn << 5 | rd;
}

/* LDR Xt, [Xn, #imm] */
static u32 cs_ldr(unsigned int rt, unsigned int rn, unsigned int imm)
{
	return 0xf9400000U | (imm / 8) << 10 | rn << 5 | rt;
}

/* A branch of @op's form, at word @from to word @to, with its field at @lsb. */
static u32 cs_branch(u32 op, unsigned int lsb, unsigned int bits, int from, int to)
{
	return op | ((u32)(to - from) & ((1U << bits) - 1)) << lsb;
}

/* The made-up code's address, and the function whose calls' arguments count. */
#define CS_REFS_AT	0xffff800080100000UL
#define CS_REFS_CALLEE	(CS_REFS_AT + 0x800)

static int cs_fixture_refs(const u32 *code, size_t size, struct cs_code_refs *refs)
{
	return cs_arch_code_refs((const u8 *)code, CS_REFS_AT, size, CS_REFS_CALLEE, refs);
}

/*
 * The variable reader (code_refs.c) on made-up code at a page boundary:
 * what it finds, and that a register two paths (or a loop's two ends)
 * disagree on, one a call, a write-back or pointer authentication
 * rewrote, yields nothing; and that code it cannot follow (a branch
 * through a register or out of the function, a kprobe's breakpoint)
 * fails the reading, while WARN()'s breakpoint does not.
 */
void cs_arch_selftest_code_refs(struct cs_selftest *t)
{
	const unsigned long at = CS_REFS_AT, page = at + 0x5000;
	const u32 swp_swap_info[] = {			/* its shape on 6.1 */
		CS_NOP, CS_NOP,
		0xd37afc00,				/* lsr x0, x0, #58 */
		0x7100681f,				/* cmp w0, #26 */
		cs_branch(0x54000008, 5, 19, 4, 9),	/* b.hi 9 */
		cs_adrp(1, 5),
		cs_add(1, 1, 0x1b0),
		0xf8607820,				/* ldr x0, [x1, x0, lsl #3] */
		CS_RET,
		0xd2800000,				/* mov x0, #0 */
		CS_RET,
	};
	const u32 lock_and_heads[] = {		/* get_swap_pages()'s start */
		cs_adrp(20, 5),
		cs_add(20, 20, 0x1b0),
		cs_add(0, 20, 0xe8),
		cs_branch(0x94000000, 0, 26, 3, 0x200),	/* bl callee */
		cs_ldr(1, 20, 0xe0),
		cs_add(0, 20, 0xe8),
		cs_branch(0x94000000, 0, 26, 6, 0x300),	/* bl elsewhere */
		cs_branch(0x94000000, 0, 26, 7, 0x200),	/* bl callee, x0 lost */
		CS_RET,
	};
	const u32 paths_disagree[] = {
		cs_branch(0xb4000002, 5, 19, 0, 3),	/* cbz x2, 3 */
		cs_adrp(3, 5),
		cs_branch(0x14000000, 0, 26, 2, 4),	/* b 4 */
		cs_adrp(3, 6),
		cs_ldr(0, 3, 8),
		CS_RET,
	};
	const u32 write_back[] = {
		cs_adrp(20, 5),
		0xf8408e81,				/* ldr x1, [x20, #8]! */
		cs_ldr(2, 20, 0),
		CS_RET,
	};
	const u32 page_before[] = { cs_adrp(1, -3), cs_ldr(0, 1, 16), CS_RET };
	const u32 loop_disagrees[] = {
		cs_adrp(19, 5),
		cs_ldr(0, 19, 8),
		cs_adrp(19, 6),
		cs_branch(0xb5000000, 5, 19, 3, 1),	/* cbnz x0, 1 */
		CS_RET,
	};
	/* brk #0x800 (BUG_BRK_IMM), brk #0x4 (a kprobe's), paciasp */
	const u32 warn[] = { cs_adrp(1, 5), 0xd4210000, cs_ldr(0, 1, 8), CS_RET };
	const u32 kprobe[] = { cs_adrp(1, 5), 0xd4200080, cs_ldr(0, 1, 8), CS_RET };
	const u32 signed_lr[] = { cs_adrp(30, 5), 0xd503233f, cs_ldr(0, 30, 8), CS_RET };
	const u32 jump_table[] = { cs_adrp(1, 5), CS_BR_X16, cs_ldr(0, 1, 8), CS_RET };
	const u32 jump_out[] = { cs_adrp(1, 5), cs_branch(0x14000000, 0, 26, 1, 100) };
	struct cs_code_refs refs;
	int err;

	err = cs_fixture_refs(swp_swap_info, sizeof(swp_swap_info), &refs);
	cs_expect(t, !err && refs.nr_indexed == 1 && refs.indexed[0] == page + 0x1b0 &&
		  !refs.nr_loads && !refs.nr_args,
		  "swp_swap_info's table: %d, %u at %#lx", err, refs.nr_indexed,
		  refs.indexed[0] - at);

	err = cs_fixture_refs(lock_and_heads, sizeof(lock_and_heads), &refs);
	cs_expect(t, !err && refs.nr_args == 1 && refs.args[0] == page + 0x1b0 + 0xe8 &&
		  refs.nr_loads == 1 && refs.loads[0] == page + 0x1b0 + 0xe0,
		  "a lock taken and a pointer loaded: %d, %u args, %u loads", err,
		  refs.nr_args, refs.nr_loads);

	err = cs_fixture_refs(paths_disagree, sizeof(paths_disagree), &refs);
	cs_expect(t, !err && !refs.nr_loads, "two paths disagree: %d, %u loads", err,
		  refs.nr_loads);

	err = cs_fixture_refs(write_back, sizeof(write_back), &refs);
	cs_expect(t, !err && !refs.nr_loads, "a base written back: %d, %u loads", err,
		  refs.nr_loads);

	err = cs_fixture_refs(page_before, sizeof(page_before), &refs);
	cs_expect(t, !err && refs.nr_loads == 1 && refs.loads[0] == at - 3 * 4096 + 16,
		  "a page before: %d, %u loads", err, refs.nr_loads);

	err = cs_fixture_refs(loop_disagrees, sizeof(loop_disagrees), &refs);
	cs_expect(t, !err && !refs.nr_loads, "a loop's back edge disagrees: %d, %u loads", err,
		  refs.nr_loads);

	err = cs_fixture_refs(warn, sizeof(warn), &refs);
	cs_expect(t, !err && refs.nr_loads == 1 && refs.loads[0] == page + 8,
		  "a WARN's breakpoint goes on: %d, %u loads", err, refs.nr_loads);

	err = cs_fixture_refs(kprobe, sizeof(kprobe), &refs);
	cs_expect(t, err == -ENOEXEC, "a kprobe's breakpoint: %d", err);

	err = cs_fixture_refs(signed_lr, sizeof(signed_lr), &refs);
	cs_expect(t, !err && !refs.nr_loads, "paciasp rewrites x30: %d, %u loads", err,
		  refs.nr_loads);

	err = cs_fixture_refs(jump_table, sizeof(jump_table), &refs);
	cs_expect(t, err == -ENOEXEC, "a branch through a register: %d", err);

	err = cs_fixture_refs(jump_out, sizeof(jump_out), &refs);
	cs_expect(t, err == -ENOEXEC, "a jump out of the function: %d", err);
}

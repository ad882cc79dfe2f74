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

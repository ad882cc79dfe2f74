// SPDX-License-Identifier: GPL-2.0
/*
 * Self-tests of the x86-64 decoder of the tail-call check (jumps.c), on
 * made-up code, and the made-up code of module/selftest.c's walks.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include <clusterswap/arch.h>
#include <clusterswap/selftest.h>

void cs_arch_fill_nops(u8 *code, size_t len)
{
	memset(code, 0x90, len);
}

/* A jmp rel32 at @code[@off], for code loaded at @base, to @to. */
void cs_arch_put_jump(u8 *code, unsigned long base, size_t off, unsigned long to)
{
	s32 rel = to - (base + off + 5);

	code[off] = 0xe9;
	memcpy(code + off + 1, &rel, sizeof(rel));
}

/*
 * Each kind of direct jump is decoded with its target; a call (it returns)
 * and a NOP are not jumps; an instruction cut off by the end of the
 * function cannot be decoded.
 */
void cs_arch_selftest_jumps(struct cs_selftest *t)
{
	const unsigned long at = 0xffffffff81000040UL;
	static const struct {
		u8 bytes[6];
		unsigned int avail;
		unsigned int len;	/* 0: undecodable */
		long dest;		/* from @at; 0: not a jump */
	} cases[] = {
		{ { 0xe9, 0xfb, 0x0f, 0x00, 0x00 }, 6, 5, 0x1000 },	/* jmp rel32 */
		{ { 0x0f, 0x84, 0xfa, 0x0f, 0x00, 0x00 }, 6, 6, 0x1000 },	/* je rel32 */
		{ { 0xeb, 0xea }, 6, 2, -20 },				/* jmp rel8, back */
		{ { 0x75, 0x10 }, 6, 2, 0x12 },				/* jne rel8 */
		{ { 0xe8, 0xfb, 0x0f, 0x00, 0x00 }, 6, 5, 0 },		/* call rel32 */
		{ { 0x90 }, 6, 1, 0 },					/* nop */
		{ { 0xe9, 0xfb, 0x0f, 0x00, 0x00 }, 4, 0, 0 },		/* jmp, cut off */
	};
	unsigned long to, want;
	unsigned int i, len;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		want = 0;
		if (cases[i].dest)
			want = at + cases[i].dest;
		len = cs_arch_decode_jump(cases[i].bytes, cases[i].avail, at, &to);
		cs_expect(t, len == cases[i].len && (!len || to == want),
			  "x86 jump case %u: length %u, to %#lx", i, len, to);
	}
}

/* x86-64 reads no code for variables: kallsyms lists them (code_refs.c). */
void cs_arch_selftest_code_refs(struct cs_selftest *t)
{
	struct cs_code_refs refs;
	static const u8 ret = 0xc3;

	cs_expect(t, cs_arch_code_refs(&ret, 0xffffffff81000000UL, 1, 0, &refs) == -EOPNOTSUPP,
		  "x86-64 has no variable reader");
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Self-tests of the line-independent pure logic, and the runner that adds
 * the kernel line's own (module/<line>/selftest.c).  Built only in test
 * builds (make CS_SELFTEST=y): see include/clusterswap/selftest.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/string.h>

#include <clusterswap/arch.h>
#include <clusterswap/compat.h>
#include <clusterswap/control.h>
#include <clusterswap/selftest.h>
#include <clusterswap/tail_calls.h>

/* The switch accepts exactly "0" or "1", with at most one newline. */
static void cs_selftest_parse_switch(struct cs_selftest *t)
{
	static const struct {
		const char *in;
		int err;
		bool on;
	} cases[] = {
		{ "0", 0, false },	{ "1", 0, true },
		{ "0\n", 0, false },	{ "1\n", 0, true },
		{ "", -EINVAL },	{ "\n", -EINVAL },
		{ "2", -EINVAL },	{ "10", -EINVAL },
		{ "1\n\n", -EINVAL },	{ " 1", -EINVAL },
		{ "on", -EINVAL },	{ "-1", -EINVAL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool on = !cases[i].on;	/* must be left alone on error */
		bool before = on;
		int err = cs_parse_switch(cases[i].in, strlen(cases[i].in), &on);

		cs_expect(t, err == cases[i].err, "switch \"%s\": %d, want %d",
			  cases[i].in, err, cases[i].err);
		if (!cases[i].err)
			cs_expect(t, on == cases[i].on, "switch \"%s\" read as %d",
				  cases[i].in, on);
		else
			cs_expect(t, on == before, "switch \"%s\" changed the value on error",
				  cases[i].in);
	}
}

/* The gate's verdict on release strings, for the line this build is for. */
static void cs_selftest_gate(struct cs_selftest *t)
{
	bool is_612 = !strcmp(CS_KERNEL_LINE_NAME, "6.12");
	const struct {
		const char *release;
		enum cs_gate want;
	} cases[] = {
		{ "6.12.117+deb13-amd64", is_612 ? CS_GATE_OK : CS_GATE_OTHER_LINE },
		{ "6.12.0", is_612 ? CS_GATE_OK : CS_GATE_OTHER_LINE },
		{ "6.1.0-56-amd64", is_612 ? CS_GATE_OTHER_LINE : CS_GATE_OK },
		{ "6.1.192", is_612 ? CS_GATE_OTHER_LINE : CS_GATE_OK },
		{ "6.14.0", CS_GATE_ALREADY },
		{ "6.18.3-1-amd64", CS_GATE_ALREADY },
		{ "7.2.13+deb14-amd64", CS_GATE_ALREADY },
		{ "6.13.12", CS_GATE_UNSUPPORTED },
		{ "6.10.0", CS_GATE_UNSUPPORTED },
		{ "6.6.80", CS_GATE_UNSUPPORTED },
		{ "6.2.0", CS_GATE_UNSUPPORTED },
		{ "5.15.170", CS_GATE_UNSUPPORTED },
		{ "6", CS_GATE_UNPARSABLE },
		{ "", CS_GATE_UNPARSABLE },
		{ "linux", CS_GATE_UNPARSABLE },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		enum cs_gate got = cs_gate_verdict(cases[i].release);

		cs_expect(t, got == cases[i].want, "gate \"%s\": %d, want %d",
			  cases[i].release, got, cases[i].want);
	}
}

/* Walk the made-up code from its first function, as the load would. */
static int cs_fake_walk(const struct cs_fake_code *f, const unsigned long *targets,
			unsigned int nr_targets, unsigned int chain, unsigned int max_seen,
			struct cs_tail_walk *w)
{
	static const int owners[] = { 0, 1 };
	static typeof(*w->seen) seen[4];

	*w = (struct cs_tail_walk) {
		.fake = f,
		.targets = targets,
		.owners = owners,
		.nr_targets = min_t(unsigned int, nr_targets, ARRAY_SIZE(owners)),
		.chain = chain,
		.seen = seen,
		.max_seen = min_t(unsigned int, max_seen, ARRAY_SIZE(seen)),
	};
	/* Read from no jumps on, as the load marks a function it checks. */
	seen[0].start = f->base;
	seen[0].depth = 0;
	w->nr_seen = 1;
	return cs_walk_function(w, f->base, f->len, 0, -1);
}

/*
 * The tail-call check (tail_calls.c) on made-up code at a made-up address:
 * a direct jump into a redirected function is found, where it is and into
 * which; a jump to an address that is no entry point of one is not; an
 * instruction cut off by the end is undecodable.  Which instructions are
 * jumps is the architecture's decoder's test (cs_arch_selftest_jumps()).
 */
static void cs_selftest_tail_calls(struct cs_selftest *t)
{
	const unsigned long base = 0xffffffff81000000UL;
	const unsigned long target = base + 0x1000;
	const size_t off = 40;
	unsigned long targets[] = { base + 0x2000, target };
	static u8 code[64];
	struct cs_fake_code f = { .base = base, .bytes = code, .len = sizeof(code), .nr = 1 };
	struct cs_tail_walk w;
	int found;

	cs_arch_fill_nops(code, sizeof(code));
	cs_arch_put_jump(code, base, off, target);
	found = cs_fake_walk(&f, targets, ARRAY_SIZE(targets), 1, 4, &w);
	cs_expect(t, found == 1 && w.found == 0 && w.path[0] == base + off && w.which == 1,
		  "a tail call: %d, at %#lx after %u jumps (want %#zx), target %u",
		  found, w.path[0] - base, w.found, off, w.which);

	cs_arch_put_jump(code, base, off, target + 0x10);
	found = cs_fake_walk(&f, targets, ARRAY_SIZE(targets), 1, 4, &w);
	cs_expect(t, found == 0, "a jump into the middle of a redirected function: %d", found);

	/* A jump with part of it past the function's end: undecodable. */
	cs_arch_put_jump(code, base, 0, target);
	f.len = 3;
	found = cs_fake_walk(&f, targets, 1, 1, 4, &w);
	cs_expect(t, found == -EILSEQ && w.path[0] == base, "a jump cut off by the end: %d", found);

	cs_arch_selftest_jumps(t);
	cs_arch_selftest_code_refs(t);
}

/*
 * Chains: four made-up functions of 32 bytes, the first jumping to the
 * second's start, the second into the middle of the third (as into a .cold
 * part), the third to a redirected function.  The walk finds the chain in
 * three jumps, not in two; a jump back to a function already read ends; a
 * walk that reaches more functions than it may remember refuses.
 */
static void cs_selftest_tail_chains(struct cs_selftest *t)
{
	const unsigned long base = 0xffffffff81000000UL, len = 32;
	const unsigned long targets[] = { base + 0x1000 };
	static u8 code[4 * 32];
	struct cs_fake_code f = { .base = base, .bytes = code, .len = len, .nr = 4 };
	struct cs_tail_walk w;
	int found;

	cs_arch_fill_nops(code, sizeof(code));
	cs_arch_put_jump(code, base, 8, base + len);
	cs_arch_put_jump(code, base, len + 0, base + 2 * len + 16);
	cs_arch_put_jump(code, base, 2 * len + 20, targets[0]);

	found = cs_fake_walk(&f, targets, 1, 3, 4, &w);
	cs_expect(t, found == 1 && w.found == 2 && w.path[0] == base + 8 &&
		  w.path[1] == base + len && w.path[2] == base + 2 * len + 20,
		  "a chain of three jumps: %d after %u jumps", found, w.found);
	found = cs_fake_walk(&f, targets, 1, 2, 4, &w);
	cs_expect(t, found == 0, "a chain longer than the walk follows: %d", found);
	found = cs_fake_walk(&f, targets, 1, 3, 1, &w);
	cs_expect(t, found == -E2BIG, "a walk past what it remembers: %d", found);

	/* The second jumps back to the first instead: a loop, no chain. */
	cs_arch_put_jump(code, base, len + 0, base);
	found = cs_fake_walk(&f, targets, 1, 4, 4, &w);
	cs_expect(t, found == 0 && w.nr_seen == 2, "a loop of jumps: %d, %u read",
		  found, w.nr_seen);
}

/**
 * cs_selftest() - Run every self-test; refuse to load if one fails.
 *
 * Context: module init, after cs_sym_resolve_all(), before anything is hooked.
 * Return: 0, or -EINVAL when a check failed (each is in the log).
 */
int cs_selftest(void)
{
	struct cs_selftest t = { 0 };

	cs_selftest_parse_switch(&t);
	cs_selftest_gate(&t);
	cs_selftest_tail_calls(&t);
	cs_selftest_tail_chains(&t);
	cs_selftest_alloc(&t);
	pr_info("selftest: %u passed, %u failed\n", t.passed, t.failed);
	return t.failed ? -EINVAL : 0;
}

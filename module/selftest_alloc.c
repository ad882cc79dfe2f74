// SPDX-License-Identifier: GPL-2.0
/*
 * Self-tests of the allocator's pure logic, the same on every line (test
 * builds only): the packed per-CPU words and the credit a CPU spends.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <clusterswap/selftest.h>

/* The line's private header (module/<line>/ is on the include path). */
#include "internal.h"

/* cs_pack() and cs_unpack() round-trip; 0 is "none". */
static void cs_selftest_pack(struct cs_selftest *t)
{
	static const unsigned long positions[] = {
		0, 1, CS_SWAPFILE_CLUSTER - 1, CS_SWAPFILE_CLUSTER,
		(1UL << 32) - 1, (1UL << 40) + 7,
	};
	static const unsigned int types[] = { 0, 1, MAX_SWAPFILES - 1 };
	unsigned long pos;
	unsigned int type, i, j;

	cs_expect(t, !cs_unpack(0, &type, &pos), "0 unpacked as a position");
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		for (j = 0; j < ARRAY_SIZE(positions); j++) {
			unsigned long v = cs_pack(types[i], positions[j]);

			cs_expect(t, v != 0, "pack(%u, %lu) is 0", types[i], positions[j]);
			cs_expect(t, cs_unpack(v, &type, &pos) && type == types[i] &&
				  pos == positions[j], "pack(%u, %lu) came back as (%u, %lu)",
				  types[i], positions[j], type, pos);
		}
	}
}

/* cs_credit_take() spends only what the pool holds, all or nothing. */
static void cs_selftest_credit(struct cs_selftest *t)
{
	static const struct {
		int pool;
		unsigned int take;
		bool ok;
		int left;
	} cases[] = {
		{ 0, 1, false, 0 },	{ 1, 1, true, 0 },
		{ 5, 4, true, 1 },	{ 5, 6, false, 5 },
		{ 512, 512, true, 0 },	{ 511, 512, false, 511 },
		{ 2 * CS_CREDIT_BATCH_MAX, 1, true, 2 * CS_CREDIT_BATCH_MAX - 1 },
	};
	struct cs_pcp *pcp;
	unsigned int i;
	atomic_t saved;

	local_lock(&cs_pcp.lock);
	pcp = this_cpu_ptr(&cs_pcp);
	/* Type 0's pool, put back as it was (no device is counted here). */
	atomic_set(&saved, atomic_read(&pcp->credit[0]));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool ok;

		atomic_set(&pcp->credit[0], cases[i].pool);
		ok = cs_credit_take(pcp, 0, cases[i].take);
		cs_expect(t, ok == cases[i].ok && atomic_read(&pcp->credit[0]) == cases[i].left,
			  "credit %d take %u: %d, %d left", cases[i].pool, cases[i].take,
			  ok, atomic_read(&pcp->credit[0]));
	}
	atomic_set(&pcp->credit[0], atomic_read(&saved));
	local_unlock(&cs_pcp.lock);
}

void cs_selftest_alloc(struct cs_selftest *t)
{
	cs_selftest_pack(t);
	cs_selftest_credit(t);
}

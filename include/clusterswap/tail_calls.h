/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The load's check that no function the module calls through the gate leads
 * by direct jumps into a function it redirects (module/tail_calls.c).
 */
#ifndef _CLUSTERSWAP_TAIL_CALLS_H
#define _CLUSTERSWAP_TAIL_CALLS_H

#include <linux/types.h>

struct cs_hook;

int cs_refuse_tail_calls(const struct cs_hook *redirects, unsigned int nr);

/* The most jumps from a gate-called function to a redirected one followed. */
#define CS_TAIL_CHAIN	4

/*
 * Made-up code for the self-tests, which the walk reads instead of the
 * kernel's: @nr functions of @len bytes each, one after another from
 * @base, their bytes at @bytes.
 */
struct cs_fake_code {
	unsigned long base;
	unsigned long len;
	unsigned int nr;
	const u8 *bytes;
};

/* One check's walk through the kernel's jumps (cs_walk_function()). */
struct cs_tail_walk {
	const struct cs_fake_code *fake;	/* NULL: the kernel's code */
	const unsigned long *targets;	/* every redirected function's entry points */
	const int *owners;		/* whose each is (enum cs_sym) */
	unsigned int nr_targets;
	unsigned int chain;		/* jumps followed, at most */
	/* Each function read, and in how few jumps it was reached. */
	struct {
		unsigned long start;
		unsigned int depth;
	} *seen;
	unsigned int nr_seen;
	unsigned int max_seen;
	bool overflow;
	/* What was found: each function and jump of the chain, its target. */
	unsigned long start[CS_TAIL_CHAIN];
	unsigned long path[CS_TAIL_CHAIN];
	unsigned int found;
	unsigned int which;
};

#ifdef CS_SELFTEST
int cs_walk_function(struct cs_tail_walk *w, unsigned long start,
		     unsigned long size, unsigned int depth, int self);
#endif

#endif /* _CLUSTERSWAP_TAIL_CALLS_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Deliberately wrong: what tests/host/gate_check.py exists to catch.  Never
 * loaded; only compiled so the check can be shown to fail on real object code.
 */
#include <linux/module.h>

struct cs_kaddr {
	unsigned long addr;
};

struct cs_kaddr cs_resolved[2];
unsigned long gate_bad_leaked;

/* Rule 1: a resolved address called through a C function pointer. */
static noinline int gate_bad_indirect_call(void)
{
	int (*fn)(void) = (int (*)(void))cs_resolved[1].addr;

	return fn();
}

/*
 * Rule 1 again, in a function named like a tracepoint iterator but of no
 * event that include/clusterswap/trace.h defines.
 */
static noinline int __traceiter_not_an_event(void)
{
	int (*fn)(void) = (int (*)(void))READ_ONCE(gate_bad_leaked);

	return fn();
}

/* Rule 2: the table read outside cs_sym_*(). */
static noinline void gate_bad_leak(void)
{
	gate_bad_leaked = cs_resolved[0].addr;
}

static int __init gate_bad_init(void)
{
	gate_bad_leak();
	if (gate_bad_leaked == 1)
		return __traceiter_not_an_event();
	return cs_resolved[1].addr ? gate_bad_indirect_call() : 0;
}
module_init(gate_bad_init);
MODULE_LICENSE("GPL");

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace redirection of the swap-slot allocator's entry points.
 *
 * One ftrace_ops with IPMODIFY sends the hot entry points (the "redirects")
 * to replacement functions in this module; a second, plain ftrace_ops counts
 * the events the module must react to (the "observers": swapoff start,
 * swapon end, swapoff teardown) and runs the check a swapon needs before its
 * device enters service.  A replacement may call the original through
 * cs_sym_call(): the ftrace callback lets calls whose return address is in
 * this module through untouched.
 *
 * Each kernel line lists its hooks and replacements in module/<line>/hooks.c
 * (include/clusterswap/line.h).
 */
#ifndef _CLUSTERSWAP_HOOKS_H
#define _CLUSTERSWAP_HOOKS_H

#include <linux/percpu.h>
#include <clusterswap/symbols.h>

struct cs_hook {
	enum cs_sym target;
	/* Module function that replaces @target; NULL for an observer. */
	void *replacement;
	/* The ftrace call site inside @target, found at load. */
	unsigned long fentry;
};

/* Calls seen per hooked symbol, summed over CPUs by cs_hook_calls(). */
DECLARE_PER_CPU(unsigned long, cs_hook_calls_pcp[CS_NR_SYMS]);
/* Replacements entered and not yet returned; per CPU, summed at unload. */
DECLARE_PER_CPU(long, cs_hooks_inflight);

struct work_struct;
int cs_hooks_register(struct work_struct *devices_changed);
void cs_hooks_unregister(void);
void cs_hooks_serve(bool on);
bool cs_hooks_serving(void);
unsigned long cs_hook_calls(enum cs_sym sym);
unsigned long cs_hooks_activity(void);
long cs_hooks_inflight_sum(void);

/*
 * The function a redirect of @target sends calls to, in a line's hooks.c:
 * cs_<target>, or in a passthrough bench build (make CS_BENCH=passthrough,
 * CS_PASSTHROUGH 1) cs_pass_<target>, which only calls the original
 * (module/<line>/bench/), and the switch takes nothing over (control.c).
 */
#ifdef CS_BENCH_PASSTHROUGH
#define CS_PASSTHROUGH 1
#define CS_REPLACEMENT(target) cs_pass_##target
#else
#define CS_PASSTHROUGH 0
#define CS_REPLACEMENT(target) cs_##target
#endif

/*
 * Every replacement starts with cs_hook_enter() and ends with cs_hook_exit().
 *
 * check's proof that no replacement ran while it read (cs_check_reading())
 * needs the counters published in this order against the replacement's
 * stores.  They pair with the reader's smp_rmb() and two smp_mb() there; on
 * x86 they are compiler barriers only.
 */
static inline void cs_hook_enter(enum cs_sym sym)
{
	/* The in-flight count (the ftrace callback) before the call count. */
	smp_wmb();
	this_cpu_inc(cs_hook_calls_pcp[sym]);
	/* The call count before the replacement's first store. */
	smp_wmb();
}

static inline void cs_hook_exit(void)
{
	/* The replacement's last store before its in-flight count drops. */
	smp_wmb();
	/* Pairs with this_cpu_inc(cs_hooks_inflight) in the ftrace callback. */
	this_cpu_dec(cs_hooks_inflight);
}

#endif /* _CLUSTERSWAP_HOOKS_H */

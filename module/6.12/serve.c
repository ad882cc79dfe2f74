// SPDX-License-Identifier: GPL-2.0
/*
 * When the 6.12 allocator serves, and what it hands back: the switch (on:
 * drain the slot cache; off: return per-CPU state) and swapoff (fence the
 * device, return its credit).
 */
#include <linux/swap.h>
#include <linux/workqueue.h>

#include "internal.h"
#include <clusterswap/alloc.h>
#include <clusterswap/handback.h>
#include <clusterswap/hooks.h>
#include <clusterswap/symbols.h>
#include <clusterswap/line.h>
#include <clusterswap/trace.h>

/*
 * Hand back everything CPUs hold on @si: filled clusters to the full list,
 * spare clusters to their lists, cluster cursors, credit.
 * Context: si->lock held; no module allocation in flight on @si (the switch
 * is off, or the device is fenced).
 * Return: the inuse_pages credit given back.
 */
unsigned long cs_release_device(struct swap_info_struct *si)
{
	unsigned long credit = 0;
	int cpu, o;

	lockdep_assert_held(&si->lock);
	for_each_possible_cpu(cpu) {
		struct cs_pcp *pcp = per_cpu_ptr(&cs_pcp, cpu);

		for (o = 0; o < SWAP_NR_ORDERS; o++) {
			cs_settle_cpu(si, pcp, o);
			cs_settle_held(si, &pcp->spare[o]);
			cs_settle_cursor(si, &pcp->next[o]);
		}
	}
	if (cs_swap_device_attached(si)) {
		credit = cs_credit_reclaim(si);
		/*
		 * Stock never allocates from the full list, and the module
		 * leaves up to CS_RELIST_FREE - 1 free slots on it: without
		 * this, stock would call swap full with room left
		 * (module/README.md, D3).
		 */
		if (si->cluster_info)
			cs_sweep_full(si, -1);
		/* Stock marked it full while CPUs held credit (switch-off)? */
		cs_unmark_full_if_room(si);
	} else {
		/* Detached: inuse_pages is gone with it; drop stale credit. */
		for_each_possible_cpu(cpu)
			atomic_set(&per_cpu(cs_pcp, cpu).credit[si->type], 0);
	}
	return credit;
}

/*
 * Stock's per-CPU allocation hints (si->percpu_cluster) point where each
 * CPU's last stock allocation left off, and stock allocates there without
 * looking at the cluster's list.  Left from before the switch went on, or
 * from a fallback since, a hint can point into a cluster the module has
 * filled and keeps on the full list with room: stock would fill it and,
 * finding it on no list it allocates from, hit VM_BUG_ON on DEBUG_VM
 * kernels (cluster_alloc_range()).  So they are cleared before stock
 * allocates beside the module; SWAP_NEXT_INVALID sends it to its lists.
 */
void cs_line_before_stock_alloc(struct swap_info_struct *si)
{
	int cpu, o;

	lockdep_assert_held(&si->lock);
	if (!si->percpu_cluster)
		return;
	for_each_possible_cpu(cpu) {
		struct percpu_cluster *hint = per_cpu_ptr(si->percpu_cluster, cpu);

		for (o = 0; o < SWAP_NR_ORDERS; o++)
			WRITE_ONCE(hint->next[o], SWAP_NEXT_INVALID);
	}
}

/*
 * Stock never allocates from the full list, where the module leaves up to
 * CS_RELIST_FREE - 1 free slots per cluster: relist them.
 */
bool cs_line_open_for_stock(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
	return cs_sweep_full(si, -1) > 0;
}

/*
 * Take over from the slot cache: after one RCU-tasks grace period no stock
 * free_swap_slot() that started before the switch is still running (it never
 * sleeps), so nothing is parked after the drain; the kernel's own drain then
 * returns every slot the cache holds through swapcache_free_entries(), ours
 * now (or stock's again, if the switch went off meanwhile: right either way).
 * A work item, so that the switch does not wait for the grace period, nor for
 * the drain's mutex, which swapoff holds through try_to_unuse().
 */
static void cs_takeover(struct work_struct *work)
{
	synchronize_rcu_tasks();
	cs_sym_call1(CS_SYM_disable_swap_slots_cache_lock, 0);
	cs_sym_call1(CS_SYM_reenable_swap_slots_cache_unlock, 0);
}

static DECLARE_WORK(cs_takeover_work, cs_takeover);

/*
 * Whether the allocator hands out slots itself; until then, while the switch
 * is on, cs_folio_alloc_swap() passes allocations to stock get_swap_pages().
 * Set once no stock final free that began before the switch went on (or the
 * table of devices was proven) can still be running: see
 * cs_line_serve_start(); cleared first at switch-off:
 * cs_line_alloc_stop().
 */
bool cs_alloc_ready;

/*
 * Every stock final free (swap_entry_range_free()) runs with its device's
 * si->lock held from before it is called until after it returns.  So once
 * the serving flag is set and every si->lock has been taken and released, any
 * such call either finished or saw the flag and came to the module's
 * replacement.  Before that, the fast path could hand out a slot whose
 * stock clean-ups are still to come (module/README.md, D1, at switch-on).
 */
static void cs_fence_stock_frees(void)
{
	struct swap_info_struct *si;
	unsigned int type;

	cs_for_each_swap_device(type, si) {
		spin_lock(&si->lock);
		spin_unlock(&si->lock);
	}
}

/**
 * cs_line_serve_start() - The switch went on: take over, then allocate.
 *
 * The hooks serve, so new calls of the entry points come here.  The module
 * allocates once stock final frees in flight are fenced; then it takes over
 * from the slot cache, which is not refilled while the module serves, since
 * folio_alloc_swap() is the module's too.
 * Context: process context; the switch lock held.
 */
void cs_line_serve_start(void)
{
	cs_fence_stock_frees();
	/* Pairs with the smp_load_acquire() in cs_folio_alloc_swap(). */
	smp_store_release(&cs_alloc_ready, true);
	schedule_work(&cs_takeover_work);
}

/**
 * cs_line_alloc_stop() - The switch is going off: stop allocating first.
 *
 * The mirror of the fence at switch-on.  Once the redirects stop, stock's
 * final free (bytes first, clean-ups after, under si->lock) runs again, and
 * must not meet an allocation under the cluster lock alone.  Allocation
 * reads the flag again inside its cs_pcp.lock section (cs_alloc_stopped()),
 * an RCU read-side section: after the grace period, every allocation that
 * read it set has returned, and every later one asks stock, under si->lock.
 * The redirected frees keep their safe order meanwhile.  Stock's hints are
 * cleared once the module no longer fills clusters: stock allocates from
 * here on, through its hints too (cs_line_before_stock_alloc()).
 * Context: process context, may sleep; the switch lock held, still serving.
 */
void cs_line_alloc_stop(void)
{
	struct swap_info_struct *si;
	unsigned int type;

	WRITE_ONCE(cs_alloc_ready, false);
	synchronize_rcu();
	cs_for_each_swap_device(type, si) {
		spin_lock(&si->lock);
		if (cs_swap_device_attached(si) && si->cluster_info)
			cs_line_before_stock_alloc(si);
		spin_unlock(&si->lock);
	}
}

/**
 * cs_line_serve_stop() - The switch went off: hand back per-CPU state.
 *
 * No replacement is running any more (the caller waited); stock code finds
 * every cluster on the list its count calls for and inuse_pages exact.
 * Context: process context, may sleep; the switch lock held.
 */
void cs_line_serve_stop(void)
{
	cs_release_devices(false);
}

/**
 * cs_line_exit() - Module unload, after the hooks are gone.
 *
 * Context: process context, may sleep.
 */
void cs_line_exit(void)
{
	flush_work(&cs_takeover_work);
	cs_line_alloc_stop();
	cs_line_serve_stop();
}

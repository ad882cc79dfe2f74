// SPDX-License-Identifier: GPL-2.0
/*
 * When the 6.1 allocator serves, and what it hands back: the switch (on:
 * fence stock's final frees, drain the slot cache, then allocate; off: hand
 * back per-CPU state and settle what stock reads) and swapoff (fence the
 * device, return its credit).
 */
#include <linux/swap.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>

#include "internal.h"
#include <clusterswap/alloc.h>
#include <clusterswap/handback.h>
#include <clusterswap/hooks.h>
#include <clusterswap/symbols.h>
#include <clusterswap/line.h>
#include <clusterswap/trace.h>

/*
 * Whether the allocator hands out slots itself; until then, while the switch
 * is on, cs_folio_alloc_swap() passes allocations to stock get_swap_pages(),
 * and frees account inuse_pages exactly (6.1/free.c).
 */
bool cs_alloc_ready;

/*
 * Generation of the switch: a take-over that finds it changed (the switch
 * went off, and maybe on again, meanwhile) leaves allocation to the newer
 * one.  cs_ready_lock makes "the generation is still mine, allocate" one step
 * against the switch-off's "new generation, do not allocate".
 */
static unsigned long cs_switch_gen;
static DEFINE_MUTEX(cs_ready_lock);

/*
 * Drop every CPU's cursor and spare on @si (an unused spare is an empty
 * cluster off the lists: cs_settle_empties() puts it back).
 * Context: si->lock held.
 */
static void cs_drop_cursors(struct swap_info_struct *si)
{
	unsigned long pos;
	unsigned int type;
	int cpu;

	lockdep_assert_held(&si->lock);
	for_each_possible_cpu(cpu) {
		struct cs_pcp *pcp = per_cpu_ptr(&cs_pcp, cpu);
		unsigned long v = READ_ONCE(pcp->next);

		if (cs_unpack(v, &type, &pos) && type == si->type)
			cmpxchg(&pcp->next, v, 0);
		v = READ_ONCE(pcp->spare);
		if (cs_unpack(v, &type, &pos) && type == si->type)
			cmpxchg(&pcp->spare, v, 0);
	}
}

/* Every cluster left empty off the lists goes to the free (or discard) list. */
static void cs_settle_empties(struct swap_info_struct *si)
{
	unsigned long idx, nr = DIV_ROUND_UP(si->max, CS_SWAPFILE_CLUSTER);

	lockdep_assert_held(&si->lock);
	for (idx = 0; idx < nr; idx++) {
		struct swap_cluster_info *ci = si->cluster_info + idx;

		/* A racy filter: cs_settle_empty() decides under ci->lock. */
		if (data_race(ci->data || (ci->flags & CLUSTER_FLAG_FREE)))
			continue;
		spin_lock(&ci->lock);
		cs_settle_empty(si, ci);
		spin_unlock(&ci->lock);
	}
}

/*
 * Hand back everything CPUs hold on @si, and leave what stock reads as stock
 * keeps it: inuse_pages exact, emptied clusters on the free list, the bounds
 * covering every free slot, "full" exactly when no slot is free.
 * Context: si->lock held; no module allocation in flight on @si (the switch
 * is off, or the device is fenced).
 * Return: the inuse_pages credit given back.
 */
unsigned long cs_release_device(struct swap_info_struct *si)
{
	unsigned long credit = 0;
	int cpu;

	lockdep_assert_held(&si->lock);
	cs_drop_cursors(si);
	if (!cs_swap_device_attached(si)) {
		/* Detached: inuse_pages is gone with it; drop stale credit. */
		for_each_possible_cpu(cpu)
			atomic_set(&per_cpu(cs_pcp, cpu).credit[si->type], 0);
		return 0;
	}
	credit = cs_credit_reclaim(si);
	if (!si->cluster_info)
		return credit;
	cs_settle_empties(si);
	if (si->highest_bit)
		cs_bounds_full_width(si);
	else if ((si->flags & SWP_WRITEOK) && si->inuse_pages < si->pages)
		cs_unmark_full(si);
	return credit;
}

bool cs_line_open_for_stock(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
	return false;
}

/*
 * Take over from stock, then allocate.  Stock 6.1 checks nothing under a lock
 * before its final free (the redirect of swapcache_free_entries() and
 * put_swap_folio() is decided at their entry, before si->lock), and it sets a
 * slot's byte to 0 before dropping the slot's frontswap copy and zram data:
 * the fast path must not hand out slots while such a free may still run.
 * Stock final frees never sleep, so after one RCU-tasks grace period none
 * that began before the switch is still running.  Then the slot cache is
 * drained through the module's swapcache_free_entries(), and allocation
 * starts.  A work item, so that the switch does not wait for the grace
 * period, nor for the drain's mutex, which swapoff holds through
 * try_to_unuse().
 */
static void cs_takeover(struct work_struct *work)
{
	unsigned long gen;

	mutex_lock(&cs_ready_lock);
	gen = cs_switch_gen;
	mutex_unlock(&cs_ready_lock);

	synchronize_rcu_tasks();
	cs_sym_call1(CS_SYM_disable_swap_slots_cache_lock, 0);
	cs_sym_call1(CS_SYM_reenable_swap_slots_cache_unlock, 0);

	mutex_lock(&cs_ready_lock);
	if (cs_switch_gen == gen && cs_hooks_serving())
		/* Pairs with the smp_load_acquire()s in 6.1/alloc.c and free.c. */
		smp_store_release(&cs_alloc_ready, true);
	mutex_unlock(&cs_ready_lock);
}

static DECLARE_WORK(cs_takeover_work, cs_takeover);

/**
 * cs_line_serve_start() - The switch went on: take over, then allocate.
 *
 * Context: process context; the switch lock held.
 */
void cs_line_serve_start(void)
{
	mutex_lock(&cs_ready_lock);
	cs_switch_gen++;
	mutex_unlock(&cs_ready_lock);
	schedule_work(&cs_takeover_work);
}

/**
 * cs_line_alloc_stop() - The switch is going off: stop allocating first.
 *
 * The mirror of the take-over.  Once the redirects stop, stock's final free
 * (swap_entry_free(): the byte to 0 first, the frontswap copy, zram data and
 * memcg charge after) runs again, and must not meet an allocation under the
 * cluster lock alone.  Allocation reads the flag again inside its
 * cs_pcp.lock section (cs_alloc_stopped()), an RCU read-side section: after
 * the grace period, every allocation that read it set has returned, and
 * every later one asks stock, under si->lock.  A take-over still waiting
 * finds the generation changed and leaves the flag clear.  Frees account
 * exactly from here on (cs_account_freed()); credit held stays counted
 * until the hand-back.
 * Context: process context, may sleep; the switch lock held, still serving.
 */
void cs_line_alloc_stop(void)
{
	mutex_lock(&cs_ready_lock);
	cs_switch_gen++;
	WRITE_ONCE(cs_alloc_ready, false);
	mutex_unlock(&cs_ready_lock);
	synchronize_rcu();
}

/**
 * cs_line_serve_stop() - The switch went off: hand back per-CPU state.
 *
 * No replacement is running any more (the caller waited); stock code finds
 * inuse_pages exact and every emptied cluster on the free list.
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

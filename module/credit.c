// SPDX-License-Identifier: GPL-2.0
/*
 * si->inuse_pages without si->lock on the fast paths: per-CPU credit.
 *
 * Stock code reads inuse_pages locklessly (try_to_unuse() spins until it is
 * 0; /proc/swaps) and writes it under si->lock.  The module keeps that: it
 * adds a batch of credit to inuse_pages under si->lock, spends it slot by slot
 * from the CPU's pool, and gives freed slots back to the pool.  So
 *
 *	inuse_pages == slots allocated + every CPU's credit on the device
 *
 * which is never below the truth.  Fullness stays exact: a CPU that cannot
 * get credit reclaims all CPUs' credit before deciding the device is full.
 *
 * swapoff: once SWP_WRITEOK is clear no CPU keeps credit on the device, so
 * try_to_unuse() can reach 0.  Refill checks WRITEOK under si->lock; a CPU
 * that gives credit back sees WRITEOK clear and returns it at once; and the
 * swapoff work reclaims what CPUs held before (module/<line>/serve.c).  The pool write
 * and the flags read on the put side, and the WRITEOK clear and the pool read
 * on the reclaim side, are each separated by a full barrier, so at least one
 * side sees the other.
 */
#include <linux/swap.h>
#include <linux/atomic.h>
#include <linux/workqueue.h>

/* The line's private header (module/<line>/ is on the include path). */
#include "internal.h"
#include <clusterswap/credit.h>
#include <clusterswap/line.h>
#include <clusterswap/warn.h>

/**
 * cs_credit_take() - Spend @nr slots of this CPU's credit on swap type @type.
 * @pcp: this CPU's state.
 * @type: swap type.
 * @nr: slots.
 *
 * Context: cs_pcp.lock held.
 * Return: false if the pool holds less than @nr (the caller refills it).
 */
bool cs_credit_take(struct cs_pcp *pcp, unsigned int type, unsigned int nr)
{
	atomic_t *pool = &pcp->credit[type];
	int old = atomic_read(pool);

	cs_assert_pcp_locked();
	do {
		if (old < (int)nr)
			return false;
	} while (!atomic_try_cmpxchg(pool, &old, old - nr));
	return true;
}

/**
 * cs_credit_reclaim() - Take back every CPU's credit on @si into inuse_pages.
 * @si: the device.
 *
 * Context: si->lock held.
 * Return: the slots of credit taken back.
 */
unsigned long cs_credit_reclaim(struct swap_info_struct *si)
{
	unsigned long sum = 0;
	int cpu;

	lockdep_assert_held(&si->lock);
	for_each_possible_cpu(cpu)
		sum += atomic_xchg(&per_cpu(cs_pcp, cpu).credit[si->type], 0);
	if (sum) {
		if (cs_warn_once(sum > si->inuse_pages,
				 "credit %lu above inuse_pages %u on swap type %u\n",
				 sum, si->inuse_pages, si->type))
			sum = si->inuse_pages;	/* never below the truth */
		WRITE_ONCE(si->inuse_pages, si->inuse_pages - sum);
		cs_count(credit_return);
	}
	return sum;
}

/**
 * cs_credit_refill() - Make sure this CPU holds at least @nr slots of credit.
 * @si: the device.
 * @pcp: this CPU's state.
 * @nr: slots the caller is about to allocate.
 *
 * Takes cs_credit_batch (@nr if more) from what is left of the device, or
 * what is left if less; when that is below @nr, first reclaims all CPUs'
 * credit.
 * Context: cs_pcp.lock and si->lock held.
 * Return: false when the device is leaving service or has fewer than @nr
 * unallocated slots.
 */
bool cs_credit_refill(struct swap_info_struct *si, struct cs_pcp *pcp, unsigned int nr)
{
	atomic_t *pool = &pcp->credit[si->type];
	unsigned int room, add;

	cs_assert_pcp_locked();
	lockdep_assert_held(&si->lock);
	if (!(si->flags & SWP_WRITEOK))
		return false;
	if (atomic_read(pool) >= (int)nr)
		return true;
	room = si->pages > si->inuse_pages ? si->pages - si->inuse_pages : 0;
	if (room < nr) {
		cs_credit_reclaim(si);
		room = si->pages > si->inuse_pages ? si->pages - si->inuse_pages : 0;
		if (room < nr)
			return false;
	}
	/* room >= nr: a large folio gets its credit in one go even on a small batch. */
	add = min(room, max(cs_credit_batch, nr));
	WRITE_ONCE(si->inuse_pages, si->inuse_pages + add);
	atomic_add(add, pool);
	cs_count(credit_take);
	return true;
}

/**
 * cs_credit_put_locked() - Give @nr slots of unspent credit back to the pool.
 * @si: the device, writable.
 * @pcp: this CPU's state.
 * @nr: slots.
 *
 * Context: si->lock held, SWP_WRITEOK checked under it.
 */
void cs_credit_put_locked(struct swap_info_struct *si, struct cs_pcp *pcp, unsigned int nr)
{
	lockdep_assert_held(&si->lock);
	atomic_add(nr, &pcp->credit[si->type]);
}

/* Bounds as wide as the device, as swap_range_free() leaves a full one. */
static void cs_open_bounds(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
	si->lowest_bit = 1;
	WRITE_ONCE(si->highest_bit, si->max - 1);
}

/**
 * cs_unmark_full() - Back on the avail lists after cs_mark_full().
 * @si: the device, writable, with highest_bit 0.
 *
 * As swap_range_free() does when a free finds the device full.
 * Context: si->lock held.
 */
void cs_unmark_full(struct swap_info_struct *si)
{
	cs_open_bounds(si);
	cs_avail_add(si);
}

/**
 * cs_unmark_full_if_room() - Back on the avail lists if marked full with room.
 * @si: the device.
 *
 * Stock marks a device full when inuse_pages reaches pages, which here also
 * counts CPUs' credit; once credit or slots come back it has room again, and
 * stock looks only at devices on the avail lists.
 * Context: si->lock held.
 */
void cs_unmark_full_if_room(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
	if (!si->highest_bit && (si->flags & SWP_WRITEOK) && si->inuse_pages < si->pages)
		cs_unmark_full(si);
}

/*
 * Return @pool (one CPU's credit on @si) to inuse_pages, keeping a batch
 * while the device is in service and not full.  The pool is the one the
 * caller added to, not "this CPU's" read again: on a preemptible kernel the
 * caller may have moved CPU since, and credit left behind on the first CPU's
 * pool would keep try_to_unuse() waiting for ever (module/README.md, D4).
 */
static void cs_credit_settle(struct swap_info_struct *si, atomic_t *pool)
{
	unsigned int n, keep = 0;

	spin_lock(&si->lock);
	cs_count_lock(CS_LOCK_CREDIT_BACK);
	n = atomic_xchg(pool, 0);
	if ((si->flags & SWP_WRITEOK) && si->highest_bit)
		keep = min(n, cs_credit_batch);
	atomic_add(keep, pool);
	if (n > keep) {
		WRITE_ONCE(si->inuse_pages, si->inuse_pages - min(n - keep, si->inuse_pages));
		cs_count(credit_return);
	}
	cs_unmark_full_if_room(si);
	spin_unlock(&si->lock);
}

/*
 * A device leaving service (swapoff has cleared SWP_WRITEOK) must see the
 * slots try_to_unuse() frees leave inuse_pages, or try_to_unuse() never
 * ends.  Stock takes si->lock for each of them (its slot cache is off by
 * then); settling each free under si->lock did the same here (measured by
 * make bench-locks: 283 si->lock holds per 1000 allocations while one of two
 * devices went off and on under load).  Instead a free leaves the slots in
 * the freeing CPU's pool and queues the device's work, which takes every
 * CPU's pool back at once, a tick later (run at once, it ran after nearly
 * every free: measured 134,882 holds instead of 194,645).  The put writes
 * its pool before it queues, and a work is run at least once after any
 * queue_delayed_work() on it begins, so the last free's credit is always
 * taken back, about a tick after the free.
 */
#define CS_LEAVING_DELAY	1	/* jiffies */

static struct delayed_work cs_leaving_work[MAX_SWAPFILES];

static void cs_leaving_settle(struct work_struct *work)
{
	struct delayed_work *dwork = to_delayed_work(work);
	struct swap_info_struct *si = cs_swap_device(dwork - cs_leaving_work);

	if (!si)
		return;
	spin_lock(&si->lock);
	cs_count_lock(CS_LOCK_CREDIT_BACK);
	if (!cs_swap_device_attached(si)) {
		/* swapoff finished: nothing of the device is left to settle. */
	} else if (!(si->flags & SWP_WRITEOK)) {
		cs_credit_reclaim(si);
		/*
		 * swap_range_free() widens the bounds of a device marked full
		 * while swapoff runs too: should try_to_unuse() fail (a signal,
		 * no memory), reinsert_swap_info() lists the device again only
		 * if its highest_bit is not 0.
		 */
		if (!si->highest_bit && si->inuse_pages < si->pages)
			cs_open_bounds(si);
	} else {
		/* swapoff failed after the free that queued this: back in service. */
		cs_unmark_full_if_room(si);
	}
	spin_unlock(&si->lock);
}

unsigned int cs_credit_batch __read_mostly = CS_CREDIT_BATCH_MAX;

/**
 * cs_credit_init() - Size the batch, ready the leaving-device works.
 *
 * Context: module load, before any allocation.
 */
void cs_credit_init(void)
{
	int type;

	cs_credit_batch = clamp_t(unsigned int, CS_CREDIT_ALL_CPUS / num_possible_cpus(),
				  CS_CREDIT_BATCH_MIN, CS_CREDIT_BATCH_MAX);

	for (type = 0; type < MAX_SWAPFILES; type++)
		INIT_DELAYED_WORK(&cs_leaving_work[type], cs_leaving_settle);
}

/**
 * cs_credit_exit() - Wait for the leaving-device works.
 *
 * Context: module unload, after the hooks are gone (no cs_credit_put() can
 * queue one again); may sleep.
 */
void cs_credit_exit(void)
{
	int type;

	for (type = 0; type < MAX_SWAPFILES; type++)
		flush_delayed_work(&cs_leaving_work[type]);
}

/**
 * cs_credit_put() - Credit this CPU with @nr slots just freed (or not spent).
 * @si: the device.
 * @nr: slots.
 *
 * Settles with inuse_pages under si->lock when the pool is over
 * cs_credit_high(), or when the device is marked full (so that it is back in
 * service); when the device is leaving service, the device's work settles
 * every CPU's pool soon after (cs_leaving_work, so that swapoff can finish).
 * Context: no swap lock held; may run with IRQs off or preemption on (the
 * pool is read once: see cs_credit_settle()); never sleeps.
 */
void cs_credit_put(struct swap_info_struct *si, unsigned int nr)
{
	atomic_t *pool = raw_cpu_ptr(&cs_pcp.credit[si->type]);
	/* A value-returning atomic: a full barrier before the reads below. */
	int held = atomic_add_return(nr, pool);

	if (!(READ_ONCE(si->flags) & SWP_WRITEOK)) {
		queue_delayed_work(system_wq, &cs_leaving_work[si->type], CS_LEAVING_DELAY);
		return;
	}
	if (held > (int)cs_credit_high() || !READ_ONCE(si->highest_bit))
		cs_credit_settle(si, pool);
}

/**
 * cs_mark_full() - Take a device with no unallocated slot out of service.
 * @si: the device, found without room for one slot after cs_credit_reclaim().
 *
 * What swap_range_alloc() does when inuse_pages reaches pages.  A CPU may
 * have given credit back between the reclaim and the highest_bit write; it
 * reads highest_bit after its pool write (cs_credit_put()), and this reads
 * the pools after the highest_bit write, so one of the two puts the device
 * back.
 * Context: si->lock held.
 */
void cs_mark_full(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
	if (!si->highest_bit)
		return;
	si->lowest_bit = si->max;
	WRITE_ONCE(si->highest_bit, 0);
	cs_avail_del(si);
	cs_count(full);

	/* Write highest_bit, then read the pools: pairs with cs_credit_put(). */
	smp_mb();
	if (cs_credit_reclaim(si) && si->inuse_pages < si->pages) {
		cs_unmark_full(si);
		return;
	}
	cs_line_device_filled(si);
}

/**
 * cs_line_credit() - inuse_pages credit all CPUs hold on swap type @type.
 * @type: swap type.
 *
 * Context: si->lock held, for a count that agrees with inuse_pages.
 */
long cs_line_credit(unsigned int type)
{
	long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += atomic_read(&per_cpu(cs_pcp, cpu).credit[type]);
	return sum;
}

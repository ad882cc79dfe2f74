// SPDX-License-Identifier: GPL-2.0
/*
 * The two ways module code may hold si->lock and a ci->lock together, on
 * every line: stock code takes si->lock first, then ci->lock, so module code
 * never waits for si->lock while it holds a ci->lock.
 */
#include <linux/swap.h>
#include <linux/spinlock.h>

/* The line's private header (module/<line>/ is on the include path). */
#include "internal.h"
#include <clusterswap/cluster_locks.h>

/**
 * cs_trylock_si_under_ci() - Take si->lock without waiting, holding ci->lock.
 * @si: the device.
 * @ci: the cluster whose lock the caller holds.
 *
 * The only way module code may take si->lock while holding a ci->lock: stock
 * takes them the other way round, so waiting here could deadlock.
 * Context: ci->lock held.
 * Return: true with si->lock held.
 */
bool cs_trylock_si_under_ci(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	lockdep_assert_held(&ci->lock);
	if (spin_trylock(&si->lock))
		return true;
	cs_count(trylock_fail);
	return false;
}

/**
 * cs_relock_si_ci() - Turn "ci->lock held" into "si->lock, then ci->lock held".
 * @si: the device.
 * @ci: the cluster whose lock the caller holds.
 *
 * Drops ci->lock to take the locks in stock order.  Anything the caller read
 * under ci->lock alone must be read again.
 * Context: ci->lock held, si->lock not held; both held on return.
 */
void cs_relock_si_ci(struct swap_info_struct *si, struct swap_cluster_info *ci)
{
	lockdep_assert_held(&ci->lock);
	if (cs_trylock_si_under_ci(si, ci))
		return;
	spin_unlock(&ci->lock);
	spin_lock(&si->lock);
	spin_lock(&ci->lock);
}

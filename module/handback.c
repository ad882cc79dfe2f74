// SPDX-License-Identifier: GPL-2.0
/*
 * Handing back what CPUs hold, on every line: on every device when the
 * switch goes off, and on a device that swapoff takes out of service, which
 * is fenced first.  What one device's hand-back is belongs to the line
 * (cs_release_device(), module/<line>/serve.c).
 */
#include <linux/swap.h>

/* The line's private header (module/<line>/ is on the include path). */
#include "internal.h"
#include <clusterswap/handback.h>
#include <clusterswap/line.h>
#include <clusterswap/trace.h>

/*
 * Wait out every allocation that saw the device writable: each takes a
 * cluster lock and checks SWP_WRITEOK under it (cs_cluster_take(); 6.1's
 * PMD path under si->lock, held here).
 */
static void cs_fence_device(struct swap_info_struct *si)
{
	unsigned long idx, nr = DIV_ROUND_UP(si->max, CS_SWAPFILE_CLUSTER);

	lockdep_assert_held(&si->lock);
	for (idx = 0; idx < nr; idx++) {
		spin_lock(&si->cluster_info[idx].lock);
		spin_unlock(&si->cluster_info[idx].lock);
	}
}

/*
 * Hand back what CPUs hold on every device, or (@leaving) only on devices
 * whose SWP_WRITEOK is clear, which are fenced first.
 */
void cs_release_devices(bool leaving)
{
	struct swap_info_struct *si;
	unsigned int type;

	cs_for_each_swap_device(type, si) {
		spin_lock(&si->lock);
		if (!leaving) {
			cs_release_device(si);
		} else if (!(si->flags & SWP_WRITEOK)) {
			bool fence = cs_swap_device_attached(si) && si->cluster_info;
			unsigned long credit;

			if (fence)
				cs_fence_device(si);
			credit = cs_release_device(si);
			if (fence)
				trace_swapoff_fence(si->type, credit);
		}
		spin_unlock(&si->lock);
	}
}

/**
 * cs_line_devices_changed() - A swapon or swapoff step happened.
 *
 * Swapoff has started (SWP_WRITEOK is clear) or finished on some device: for
 * each such device, fence it and hand everything back, so that
 * try_to_unuse() can see inuse_pages reach 0.
 * Context: main.c's work item (the observer that notices runs inside an
 * ftrace callback); may sleep.
 */
void cs_line_devices_changed(void)
{
	cs_release_devices(true);
}

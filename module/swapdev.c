// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the kernel's swap devices: swap_info[] and swap_avail_lock are
 * private to mm/swapfile.c and resolved at load (symbols.c).
 */
#include <linux/moduleparam.h>
#include <linux/swap.h>
#include <linux/percpu-refcount.h>
#include <linux/uaccess.h>

#include <clusterswap/swapdev.h>
#include <clusterswap/symbols.h>

/* mm/swapfile.c's swap_info[], resolved at load: see cs_swap_device(). */
struct swap_info_struct **cs_swap_info_table __ro_after_init;

/**
 * cs_swapdev_init() - Find the kernel's table of swap devices.
 *
 * Context: module init, after cs_sym_resolve_all().
 */
void __init cs_swapdev_init(void)
{
	cs_swap_info_table = cs_sym_data(CS_SYM_swap_info);
}

/*
 * For tests only: check the table one entry on from where it was found, as
 * if it had been found a word off, to prove that a wrong table trips the
 * module.  Only the check reads it so; not visible in sysfs.
 */
static bool assume_swap_info_skew;
module_param(assume_swap_info_skew, bool, 0);
MODULE_PARM_DESC(assume_swap_info_skew, "test only: check swap_info one entry off");

/**
 * cs_swapdev_check_table() - Why the table found for swap_info[] is not it.
 *
 * A swapon or swapoff step runs after alloc_swap_info(), so from the first
 * one on the kernel's table holds devices 0 to n - 1 and NULL after them
 * (alloc_swap_info() reuses a free device before it adds one, and no entry
 * goes back to NULL), each device's ->type its index (set before the
 * device is published), and where the line can ask the kernel
 * (cs_line_swap_info_agrees()), each entry what the kernel returns for its
 * type.  A table found from code (cs_line_find_data()) was checked at load
 * while it may have been all NULL, which proves little: this checks it
 * again once it holds a device.
 * Context: process context, after an observed swapon or swapoff step.
 * Return: NULL, or why the table cannot be swap_info[].
 */
const char *cs_swapdev_check_table(void)
{
	unsigned int skew = assume_swap_info_skew ? 1 : 0;
	struct swap_info_struct **table = cs_swap_info_table + skew;
	struct swap_info_struct *si;
	typeof(si->type) si_type;
	unsigned int type, nr = 0;

	for (type = 0; type < MAX_SWAPFILES - skew; type++) {
		si = READ_ONCE(table[type]);
		if (!si)
			continue;
		if (nr != type)
			return "a device after an empty entry";
		if (copy_from_kernel_nofault(&si_type, &si->type, sizeof(si_type)))
			return "an entry points at no device";
		if (si_type != type)
			return "an entry's device is of another type";
		nr++;
	}
	if (!nr)
		return "no device in it after a swapon";
	if (!cs_line_swap_info_agrees((unsigned long)table))
		return "an entry is not the device the kernel gives for its type";
	return NULL;
}

/**
 * cs_next_swap_device() - The first device of type *@type or above.
 * @type: where to start; set to the device's type.
 *
 * Return: the device, or NULL when there is none (cs_for_each_swap_device()).
 */
struct swap_info_struct *cs_next_swap_device(unsigned int *type)
{
	struct swap_info_struct *si;

	for (; *type < MAX_SWAPFILES; (*type)++) {
		si = cs_swap_device(*type);
		if (si)
			return si;
	}
	return NULL;
}

/**
 * cs_swap_device_attached() - Whether @si has its maps attached.
 * @si: the device.
 *
 * Context: si->lock held; the answer holds until it is released.
 */
bool cs_swap_device_attached(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
	return (si->flags & SWP_USED) && si->swap_map && si->max;
}

spinlock_t *cs_swap_avail_lock(void)
{
	return cs_sym_data(CS_SYM_swap_avail_lock);
}

/**
 * cs_get_device() - Pin a device against swapoff, as get_swap_device() does.
 * @si: the device.
 *
 * While pinned, swapoff cannot free swap_map or cluster_info (it waits for
 * the reference after try_to_unuse()).
 * Context: any; never sleeps.
 * Return: false if the device is not in service.
 */
bool cs_get_device(struct swap_info_struct *si)
{
	if (!percpu_ref_tryget_live(&si->users))
		return false;
	/* Pairs with the smp_wmb() in enable_swap_info(), as get_swap_device(). */
	smp_rmb();
	return true;
}

/*
 * percpu_ref_put() may call the ref's release function through its pointer
 * (swap_users_ref_free, which the kernel calls the same way and which keeps
 * its ENDBR): one of the two indirect calls the IBT check allows.
 */
noinline void cs_kcall_put_device(struct swap_info_struct *si)
{
	percpu_ref_put(&si->users);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * clusterswap: the cluster-based swap-slot allocator of Linux 6.14/6.15 for
 * stock 6.12.y and 6.1.y kernels, installed at run time through ftrace.
 *
 * Load order: the kernel gate, the symbols, the control files, then the hooks
 * (which pass everything to stock code until "enabled" is set).  Unload runs
 * it backwards; once cs_hooks_unregister() returns no task is in module text
 * and no new device-change work is queued.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/workqueue.h>

#include <clusterswap/compat.h>
#include <clusterswap/control.h>
#include <clusterswap/credit.h>
#include <clusterswap/hooks.h>
#include <clusterswap/symbols.h>
#include <clusterswap/selftest.h>
#include <clusterswap/line.h>
#include <clusterswap/swapdev.h>
#include <clusterswap/trip.h>

/*
 * A swap device came or went: the hooks observe swapon and swapoff steps and
 * queue this.  The kernel line hands back what CPUs hold on devices leaving
 * service (swapoff waits for it through inuse_pages), and debugfs follows the
 * devices in use.  (The table of devices is checked earlier, synchronously,
 * before a swapon puts its device in service: cs_swapdev_before_swapon().)
 */
static void cs_devices_changed(struct work_struct *work)
{
	cs_line_devices_changed();
	cs_debugfs_sync_devices();
}

static DECLARE_WORK(cs_devices_work, cs_devices_changed);

static int __init clusterswap_init(void)
{
	int err;

	err = cs_kernel_gate();
	if (err)
		goto out_trip;
	err = cs_sym_resolve_all();
	if (err)
		goto out_trip;
	/* Test builds: some self-tests call the kernel (its decoder). */
	err = cs_selftest();
	if (err)
		goto out_trip;
	cs_swapdev_init();
	cs_credit_init();
	err = cs_sym_refuse_later_code();
	if (err)
		goto out_trip;

	cs_debugfs_init();
	err = cs_sysfs_init();
	if (err)
		goto out_debugfs;
	err = cs_hooks_register(&cs_devices_work);
	if (err)
		goto out_sysfs;
	err = cs_swapdev_check_at_load();
	if (err)
		goto out_hooks;
	/* The devices in use at load, now that the table is read (if proven). */
	cs_debugfs_sync_devices();

	pr_info("loaded on %s (%s line)\n", cs_kernel_release(), CS_KERNEL_LINE_NAME);
	cs_apply_load_options();
	return 0;

out_hooks:
	cs_hooks_unregister();
	flush_work(&cs_devices_work);
	cs_switch_flush();
out_sysfs:
	cs_sysfs_exit();
out_debugfs:
	cs_debugfs_exit();
out_trip:
	/* A self-test's or check's trip may have queued the switch-off. */
	cs_trip_exit();
	return err;
}

static void __exit clusterswap_exit(void)
{
	cs_sysfs_exit();
	cs_hooks_unregister();
	flush_work(&cs_devices_work);
	cs_switch_flush();
	cs_line_exit();
	cs_credit_exit();
	cs_debugfs_exit();
	cs_trip_exit();
	pr_info("unloaded; the stock swap allocator is in charge\n");
}

module_init(clusterswap_init);
module_exit(clusterswap_exit);

MODULE_DESCRIPTION("Cluster-based swap-slot allocator for 6.12.y and 6.1.y kernels");
MODULE_AUTHOR("clusterswap developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(CS_VERSION);

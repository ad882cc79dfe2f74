// SPDX-License-Identifier: GPL-2.0
/*
 * Test fixture: off by one in the count of cluster 0 of swap device `type`,
 * so that clusterswap's debugfs check can be shown to catch it.  Use it only
 * on a swap device nothing allocates from.
 *
 *   insmod cs_corrupter.ko type=N
 *   cat /proc/swaps                  (lets the fixture find the device)
 *   echo 1 > /sys/module/cs_corrupter/parameters/corrupt    break it
 *   echo 0 > /sys/module/cs_corrupter/parameters/corrupt    repair it
 *
 * The device is found through a kprobe on swap_show(), which /proc/swaps
 * calls with each swap_info_struct; unloading repairs what is still broken.
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/seq_file.h>
#include <linux/swap.h>
#include <linux/version.h>

static int type;
module_param(type, int, 0444);

static struct swap_info_struct *target;
static bool corrupted;
static DEFINE_MUTEX(corrupt_lock);

static int cs_corrupter_swap_show(struct kprobe *p, struct pt_regs *regs)
{
	struct swap_info_struct *si = (void *)regs->si;

	if ((void *)si != SEQ_START_TOKEN && si->type == type)
		WRITE_ONCE(target, si);
	return 0;
}

static struct kprobe cs_corrupter_probe = {
	.symbol_name = "swap_show",
	.pre_handler = cs_corrupter_swap_show,
};

/* Add @delta to the count of cluster 0, under the locks stock code uses. */
static int cs_corrupter_bump(int delta)
{
	struct swap_info_struct *si = READ_ONCE(target);
	struct swap_cluster_info *ci;
	int err = 0;

	if (!si)
		return -ENODEV;
	spin_lock(&si->lock);
	ci = si->cluster_info;
	if (!ci) {
		err = -ENODEV;
	} else {
		spin_lock(&ci->lock);
#if LINUX_VERSION_MAJOR == 6 && LINUX_VERSION_PATCHLEVEL >= 12
		ci->count += delta;
#else
		ci->data += delta;
#endif
		spin_unlock(&ci->lock);
	}
	spin_unlock(&si->lock);
	return err;
}

static int cs_corrupter_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int err = kstrtobool(val, &on);

	if (err)
		return err;
	mutex_lock(&corrupt_lock);
	if (on != corrupted) {
		err = cs_corrupter_bump(on ? 1 : -1);
		if (!err)
			corrupted = on;
	}
	mutex_unlock(&corrupt_lock);
	return err;
}

static int cs_corrupter_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", corrupted);
}

static const struct kernel_param_ops cs_corrupter_ops = {
	.set = cs_corrupter_set,
	.get = cs_corrupter_get,
};
module_param_cb(corrupt, &cs_corrupter_ops, NULL, 0644);

static int __init cs_corrupter_init(void)
{
	return register_kprobe(&cs_corrupter_probe);
}

static void __exit cs_corrupter_exit(void)
{
	unregister_kprobe(&cs_corrupter_probe);
	mutex_lock(&corrupt_lock);
	if (corrupted)
		cs_corrupter_bump(-1);
	mutex_unlock(&corrupt_lock);
}

module_init(cs_corrupter_init);
module_exit(cs_corrupter_exit);
MODULE_DESCRIPTION("clusterswap test fixture: corrupts a cluster count on request");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * Test fixture: widen the window in stock 6.12's final free of swap slots.
 *
 * swap_entry_range_free() sets the slots' swap_map bytes to 0 under the
 * cluster lock, drops it, and only then, under si->lock alone, uncharges the
 * memcg and clears the zeromap bit and zram's data (swap_range_free()).  An
 * allocator that hands out slots under the cluster lock alone can give the
 * slot to a new owner inside that window, whose data the late clean-up then
 * destroys (module/README.md, D1).  This fixture puts a kprobe on
 * __mem_cgroup_uncharge_swap(), the first call in the window, and when it is
 * called from swap_entry_range_free() waits delay_us there, so that the
 * window is wide enough to be hit by chance, and counts it in "hits".
 * clusterswap redirects swap_entry_range_free() while it serves: then the
 * stock body, and so this window, must never run on a device it serves.
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/delay.h>
#include <linux/string.h>
#include <linux/atomic.h>

static unsigned int delay_us = 500;
module_param(delay_us, uint, 0644);
MODULE_PARM_DESC(delay_us, "microseconds to wait inside the window");

static atomic_long_t cs_widener_hits = ATOMIC_LONG_INIT(0);

static int hits_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&cs_widener_hits));
}

static const struct kernel_param_ops hits_ops = {
	.get = hits_get,
};
module_param_cb(hits, &hits_ops, NULL, 0444);
MODULE_PARM_DESC(hits, "times stock's final free reached the widened window");

static int cs_widener_pre(struct kprobe *p, struct pt_regs *regs)
{
	char sym[KSYM_SYMBOL_LEN];
	unsigned long ret = *(unsigned long *)regs->sp;

	sprint_symbol_no_offset(sym, ret);
	if (strcmp(sym, "swap_entry_range_free"))
		return 0;
	atomic_long_inc(&cs_widener_hits);
	udelay(delay_us);
	return 0;
}

static struct kprobe cs_widener_kp = {
	.symbol_name = "__mem_cgroup_uncharge_swap",
	.pre_handler = cs_widener_pre,
};

static int __init cs_widener_init(void)
{
	return register_kprobe(&cs_widener_kp);
}

static void __exit cs_widener_exit(void)
{
	unregister_kprobe(&cs_widener_kp);
}

module_init(cs_widener_init);
module_exit(cs_widener_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("clusterswap test fixture: widen stock's final-free window");

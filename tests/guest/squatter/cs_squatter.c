// SPDX-License-Identifier: GPL-2.0
/*
 * Test fixture: take free_swap_slot with an IPMODIFY ftrace_ops, as a
 * livepatch of that function would, so clusterswap's refusal to load beside
 * another owner can be tested.  The callback changes nothing.
 */
#include <linux/module.h>
#include <linux/ftrace.h>
#include <linux/string.h>

static char target[] = "free_swap_slot";

static void notrace cs_squatter_cb(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *ops,
				   struct ftrace_regs *fregs)
{
}

static struct ftrace_ops cs_squatter_ops = {
	.func = cs_squatter_cb,
	.flags = FTRACE_OPS_FL_IPMODIFY,
};

static int __init cs_squatter_init(void)
{
	int err = ftrace_set_filter(&cs_squatter_ops, target, strlen(target), 0);

	if (err)
		return err;
	err = register_ftrace_function(&cs_squatter_ops);
	if (err)
		ftrace_free_filter(&cs_squatter_ops);
	return err;
}

static void __exit cs_squatter_exit(void)
{
	unregister_ftrace_function(&cs_squatter_ops);
	ftrace_free_filter(&cs_squatter_ops);
}

module_init(cs_squatter_init);
module_exit(cs_squatter_exit);
MODULE_DESCRIPTION("clusterswap test fixture: an IPMODIFY owner of free_swap_slot");
MODULE_LICENSE("GPL");

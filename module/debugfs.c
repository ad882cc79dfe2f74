// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/clusterswap: read-only views (mode 0444, no ioctl), so
 * they stay readable under kernel lockdown.
 *
 *   stats  "calls.<function> <count>" for every redirected and observed
 *          function, and "enabled <0|1>".
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include <clusterswap/hooks.h>
#include <clusterswap/control.h>

static struct dentry *cs_debugfs_root;

static void cs_show_calls(struct seq_file *m, const struct cs_hook *hooks,
			  unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		seq_printf(m, "calls.%s %lu\n", cs_sym_name(hooks[i].target),
			   cs_hook_calls(hooks[i].target));
}

static int stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "enabled %d\n", READ_ONCE(cs_enabled));
	cs_show_calls(m, cs_redirects, cs_nr_redirects);
	cs_show_calls(m, cs_observers, cs_nr_observers);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

void cs_debugfs_init(void)
{
	/* debugfs is optional: failures leave the module working without it. */
	cs_debugfs_root = debugfs_create_dir("clusterswap", NULL);
	debugfs_create_file("stats", 0444, cs_debugfs_root, NULL, &stats_fops);
}

void cs_debugfs_exit(void)
{
	debugfs_remove(cs_debugfs_root);
}

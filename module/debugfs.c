// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/clusterswap: read-only views (mode 0444, no ioctl), so
 * they stay readable under kernel lockdown.
 *
 *   stats                     "enabled <0|1>", "swap_table <unproven|proven|
 *                             rejected>" (swapdev.c), the allocator's counters
 *                             (6.12/stats.c), then "calls.<function> <count>"
 *                             for every redirected and observed function
 *   percpu                    each CPU's clusters, filled clusters, credit
 *   check                     reading it checks every swap device (inspect.c):
 *                             "ok", or one line per inconsistency
 *   symbols                   each kernel symbol the module resolved: its
 *                             offset from _stext, and how it was found
 *                             ("kallsyms", or "code": symbols.c)
 *   devices/<type>/summary    size, use, cluster lists by kind and order
 *   devices/<type>/clusters   each cluster list by name and order: length and
 *                             member cluster indices
 *
 * devices/ follows swapon and swapoff: the observer hooks queue
 * main.c's work item, which adds and removes the per-device directories.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/mutex.h>

#include <clusterswap/credit.h>
#include <clusterswap/hooks.h>
#include <clusterswap/control.h>
#include <clusterswap/swapdev.h>
#include <clusterswap/line.h>
#include <clusterswap/symbols.h>

static struct dentry *cs_debugfs_root;
static struct dentry *cs_devices_dir;

/* The devices/<type> directories; changed only by cs_devices_sync(). */
static struct dentry *cs_device_dirs[MAX_SWAPFILES];
static DEFINE_MUTEX(cs_device_dirs_lock);

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
	seq_printf(m, "enabled %d\n", cs_hooks_serving());
	seq_printf(m, "credit_batch %u\n", cs_credit_batch);
	seq_printf(m, "swap_table %s\n", cs_swapdev_table_state());
	cs_line_show_stats(m);
	cs_show_calls(m, cs_redirects, cs_nr_redirects);
	cs_show_calls(m, cs_observers, cs_nr_observers);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int percpu_show(struct seq_file *m, void *v)
{
	cs_line_show_percpu(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(percpu);

/*
 * What the module's state costs in memory.  It allocates nothing per device:
 * the allocator keeps its state in the kernel's own swap structures (lists,
 * counts, swap_map), and only a CPU's position, credit and counters are its
 * own.  The code and static data are /sys/module/clusterswap/coresize.
 */
static int memory_show(struct seq_file *m, void *v)
{
	size_t hooks = sizeof(cs_hook_calls_pcp) + sizeof(cs_hooks_inflight);
	size_t line = cs_line_percpu_bytes();

	seq_printf(m, "per_cpu_bytes %zu\n", line + hooks);
	seq_printf(m, "per_cpu.allocator %zu\n", line);
	seq_printf(m, "per_cpu.hook_counters %zu\n", hooks);
	seq_printf(m, "all_cpus_bytes %zu\n", (line + hooks) * num_possible_cpus());
	seq_puts(m, "per_device_bytes 0\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(memory);

static int symbols_show(struct seq_file *m, void *v)
{
	cs_sym_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(symbols);

static int check_show(struct seq_file *m, void *v)
{
	unsigned int type, problems = 0;
	struct swap_info_struct *si;

	cs_for_each_swap_device(type, si)
		problems += cs_check_device(m, si);
	if (!problems)
		seq_puts(m, "ok\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(check);

static struct swap_info_struct *cs_file_device(struct seq_file *m)
{
	return cs_swap_device((unsigned long)m->private);
}

static int summary_show(struct seq_file *m, void *v)
{
	cs_show_summary(m, cs_file_device(m));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(summary);

static int clusters_show(struct seq_file *m, void *v)
{
	cs_show_clusters(m, cs_file_device(m));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(clusters);

static bool cs_device_in_use(unsigned int type)
{
	struct swap_info_struct *si = cs_swap_device(type);
	bool attached;

	if (!si)
		return false;
	spin_lock(&si->lock);
	attached = cs_swap_device_attached(si);
	spin_unlock(&si->lock);
	return attached;
}

/**
 * cs_debugfs_sync_devices() - Give each swap device in use a devices/<type>
 * directory, and only those.
 *
 * Context: process context, may sleep; at init once the table of devices is
 * checked, and from main.c's work item when a swap device came or went.
 */
void cs_debugfs_sync_devices(void)
{
	unsigned long type;
	char name[8];

	mutex_lock(&cs_device_dirs_lock);
	for (type = 0; type < MAX_SWAPFILES; type++) {
		bool used = cs_device_in_use(type);

		if (used && !cs_device_dirs[type]) {
			struct dentry *dir;

			snprintf(name, sizeof(name), "%lu", type);
			dir = debugfs_create_dir(name, cs_devices_dir);
			debugfs_create_file("summary", 0444, dir, (void *)type, &summary_fops);
			debugfs_create_file("clusters", 0444, dir, (void *)type, &clusters_fops);
			cs_device_dirs[type] = dir;
		} else if (!used && cs_device_dirs[type]) {
			debugfs_remove(cs_device_dirs[type]);
			cs_device_dirs[type] = NULL;
		}
	}
	mutex_unlock(&cs_device_dirs_lock);
}

void cs_debugfs_init(void)
{
	/* debugfs is optional: failures leave the module working without it. */
	cs_debugfs_root = debugfs_create_dir("clusterswap", NULL);
	debugfs_create_file("stats", 0444, cs_debugfs_root, NULL, &stats_fops);
	debugfs_create_file("check", 0444, cs_debugfs_root, NULL, &check_fops);
	debugfs_create_file("percpu", 0444, cs_debugfs_root, NULL, &percpu_fops);
	debugfs_create_file("memory", 0444, cs_debugfs_root, NULL, &memory_fops);
	debugfs_create_file("symbols", 0444, cs_debugfs_root, NULL, &symbols_fops);
	cs_devices_dir = debugfs_create_dir("devices", cs_debugfs_root);
}

/* Context: after the hooks are gone and main.c's work item is flushed. */
void cs_debugfs_exit(void)
{
	debugfs_remove(cs_debugfs_root);
}

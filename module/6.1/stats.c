// SPDX-License-Identifier: GPL-2.0
/*
 * What the 6.1 allocator shows: debugfs "stats" counters and "percpu"
 * state, the credit the consistency check adds to the truth, and the
 * counters anyone may read in /sys/kernel/clusterswap/stats/.  The names are
 * those of the 6.12 line where the meaning is the same; 6.1 has two
 * allocation orders (0 and the PMD THP's), no mTHP, no list of partly used
 * clusters and no reclaim worker, and says so instead of printing zeros.
 */
#include <linux/kobject.h>
#include <linux/seq_file.h>
#include <linux/swap.h>
#include <linux/sysfs.h>

#include "internal.h"
#include <clusterswap/line.h>
#include <clusterswap/stats.h>

/**
 * cs_line_show_stats() - The allocator's counters, summed over CPUs.
 * @m: output.
 */
void cs_line_show_stats(struct seq_file *m)
{
	unsigned long order0 = cs_sum(alloc_order0), pmd = cs_sum(alloc_pmd);
	/* Summed once, so that the rates below agree with the totals. */
	unsigned long lock_alloc = cs_sum_lock_alloc(), lock_free = cs_sum_lock_free();

	seq_printf(m, "alloc.order0 %lu\n", order0);
	seq_printf(m, "alloc.order%d %lu\n", CS_PMD_ORDER, pmd);
	seq_printf(m, "large_fallback.order%d %lu\n", CS_PMD_ORDER, cs_sum(large_fail_pmd));
	seq_printf(m, "alloc.total %lu\n", order0 + pmd);
	seq_printf(m, "alloc.fast %lu\n", cs_sum(fast));
	seq_printf(m, "alloc.slow %lu\n", cs_sum(slow));
	seq_printf(m, "alloc.stock_fallback %lu\n", cs_sum(stock_fallback));
	seq_printf(m, "alloc.round_robin %lu\n", cs_sum(round_robin));
	seq_printf(m, "alloc.clusters_scanned %lu\n", cs_sum(scanned));
	seq_printf(m, "alloc.in_use_skipped %lu\n", cs_sum(in_use_skipped));
	seq_printf(m, "freed %lu\n", cs_sum(freed));
	seq_puts(m, "freed.stock_final_free none (6.1: no stock final free runs while serving)\n");
	seq_printf(m, "zswap_invalidate %lu\n", cs_sum(frontswap_invalidate));
	seq_printf(m, "bounds_widened %lu\n", cs_sum(bounds_widened));
	seq_printf(m, "list_moves %lu\n", cs_sum(list_moves));
	seq_printf(m, "si_lock.alloc %lu\n", lock_alloc);
	seq_printf(m, "si_lock.free %lu\n", lock_free);
	seq_printf(m, "si_lock.trylock_fail %lu\n", cs_sum(trylock_fail));
	cs_show_lock_why(m);
	cs_show_per_mille(m, "si_lock.alloc_per_1000_order0", lock_alloc, order0);
	cs_show_per_mille(m, "si_lock.all_per_1000_order0", lock_alloc + lock_free, order0);
	seq_printf(m, "credit.take %lu\n", cs_sum(credit_take));
	seq_printf(m, "credit.return %lu\n", cs_sum(credit_return));
	seq_printf(m, "device_full %lu\n", cs_sum(full));
	seq_puts(m, "reclaim.idle_cache none (6.1: stock's scan reclaims idle swap cache)\n");
}

/**
 * cs_line_show_percpu() - Each CPU's cluster and credit.
 * @m: output.
 *
 * One line per CPU: "cpu N", then "o0=<type>:<cluster>+<slot>" for the
 * cluster it allocates single pages from, "spare.o0=<type>:<cluster>" for the
 * empty cluster set aside to go on in, "credit.<type>=<slots>", and its
 * fast-path and slow-path counts.  A racy snapshot.
 */
void cs_line_show_percpu(struct seq_file *m)
{
	unsigned long pos;
	unsigned int type;
	int cpu, t;

	for_each_possible_cpu(cpu) {
		struct cs_pcp *pcp = per_cpu_ptr(&cs_pcp, cpu);

		seq_printf(m, "cpu %d", cpu);
		if (cs_unpack(READ_ONCE(pcp->next), &type, &pos))
			seq_printf(m, " o0=%u:%lu+%lu", type, pos / CS_SWAPFILE_CLUSTER,
				   pos % CS_SWAPFILE_CLUSTER);
		if (cs_unpack(READ_ONCE(pcp->spare), &type, &pos))
			seq_printf(m, " spare.o0=%u:%lu", type, pos);
		for (t = 0; t < MAX_SWAPFILES; t++)
			if (atomic_read(&pcp->credit[t]))
				seq_printf(m, " credit.%d=%d", t, atomic_read(&pcp->credit[t]));
		seq_printf(m, " fast %lu slow %lu\n", per_cpu(cs_stats, cpu).fast,
			   per_cpu(cs_stats, cpu).slow);
	}
}

size_t cs_line_percpu_bytes(void)
{
	return sizeof(struct cs_pcp) + sizeof(struct cs_stats);
}

/**
 * cs_line_cluster_held() - Whether a CPU allocates from cluster @idx.
 * @si: the device.
 * @idx: cluster index.
 */
bool cs_line_cluster_held(struct swap_info_struct *si, unsigned long idx)
{
	return cs_cluster_in_use(si, idx);
}

/*
 * /sys/kernel/clusterswap/stats/: the main counters, one value per file and
 * mode 0444, as on 6.12.  Each is the debugfs "stats" line named beside it.
 */
CS_SYSFS_STAT(alloc, cs_sum(alloc_order0) + cs_sum(alloc_pmd));	/* alloc.total */
CS_SYSFS_STAT(alloc_fast, cs_sum(fast));			/* alloc.fast */
CS_SYSFS_STAT(alloc_slow, cs_sum(slow));			/* alloc.slow */
CS_SYSFS_STAT(stock_fallback, cs_sum(stock_fallback));		/* alloc.stock_fallback */
CS_SYSFS_STAT(large_fallback, cs_sum(large_fail_pmd));		/* large_fallback.order9 */
CS_SYSFS_STAT(freed, cs_sum(freed));				/* freed */
CS_SYSFS_STAT(zswap_invalidate, cs_sum(frontswap_invalidate));	/* zswap_invalidate */
CS_SYSFS_STAT(si_lock_alloc, cs_sum_lock_alloc());		/* si_lock.alloc */
CS_SYSFS_STAT(si_lock_free, cs_sum_lock_free());			/* si_lock.free */
CS_SYSFS_STAT(list_moves, cs_sum(list_moves));			/* list_moves */

static struct attribute *cs_stat_attrs[] = {
	&cs_stat_attr_alloc.attr,
	&cs_stat_attr_alloc_fast.attr,
	&cs_stat_attr_alloc_slow.attr,
	&cs_stat_attr_stock_fallback.attr,
	&cs_stat_attr_large_fallback.attr,
	&cs_stat_attr_freed.attr,
	&cs_stat_attr_zswap_invalidate.attr,
	&cs_stat_attr_si_lock_alloc.attr,
	&cs_stat_attr_si_lock_free.attr,
	&cs_stat_attr_list_moves.attr,
	NULL,
};

static const struct attribute_group cs_stat_group = {
	.name = "stats",
	.attrs = cs_stat_attrs,
};

/**
 * cs_line_sysfs_stats() - The counters' sysfs group.
 *
 * Return: the "stats" group under /sys/kernel/clusterswap.
 */
const struct attribute_group *cs_line_sysfs_stats(void)
{
	return &cs_stat_group;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the lines' stats.c show their counters (struct cs_stats, per CPU, in
 * module/<line>/internal.h): summed over CPUs, per 1000 allocations, and as
 * read-only sysfs files.
 */
#ifndef _CLUSTERSWAP_STATS_H
#define _CLUSTERSWAP_STATS_H

#include <linux/kobject.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/sysfs.h>

/*
 * Why the module took si->lock, counted by cause (struct cs_stats
 * lock_why[]), so that a workload's rate reads back to what drives it.
 * Causes below CS_LOCK_FIRST_FREE are allocations' (si_lock.alloc), the rest
 * frees' (si_lock.free).
 */
enum cs_lock_why {
	CS_LOCK_SLOW,		/* the slow path looks for a cluster */
	CS_LOCK_LAST,		/* the fast path took a cluster's last slots: to full */
	CS_LOCK_CREDIT,		/* a CPU's inuse_pages credit refilled */
	CS_LOCK_FILLED,		/* a filled cluster settled on a device not walked */
	CS_LOCK_FULL_CHECK,	/* the last credit spent: is the device full? */
	CS_LOCK_STOCK,		/* around a hand-off to stock get_swap_pages() */
	CS_LOCK_FIRST_FREE,
	CS_LOCK_RELIST = CS_LOCK_FIRST_FREE, /* a freed cluster changes list */
	CS_LOCK_CREDIT_BACK,	/* credit returned to inuse_pages */
	CS_LOCK_BOUNDS,		/* a freed slot outside lowest/highest_bit (6.1) */
	CS_LOCK_EXACT,		/* counted exactly: the switch has just gone on (6.1) */
	CS_LOCK_NR
};

/* The debugfs name of a cause: "si_lock.why.<name>". */
static inline const char *cs_lock_why_name(int why)
{
	static const char * const names[CS_LOCK_NR] = {
		[CS_LOCK_SLOW] = "slow",
		[CS_LOCK_LAST] = "last",
		[CS_LOCK_CREDIT] = "credit",
		[CS_LOCK_FILLED] = "filled",
		[CS_LOCK_FULL_CHECK] = "full_check",
		[CS_LOCK_STOCK] = "stock",
		[CS_LOCK_RELIST] = "relist",
		[CS_LOCK_CREDIT_BACK] = "credit_back",
		[CS_LOCK_BOUNDS] = "bounds",
		[CS_LOCK_EXACT] = "exact",
	};

	return names[why];
}

/* A counter of struct cs_stats, summed over CPUs. */
#define cs_sum(field) ({					\
	unsigned long __sum = 0;				\
	int __cpu;						\
	for_each_possible_cpu(__cpu)				\
		__sum += per_cpu(cs_stats, __cpu).field;	\
	__sum;							\
})

/* si->lock acquisitions of causes [@first, @end), summed over CPUs. */
#define cs_sum_locks(first, end) ({				\
	unsigned long __locks = 0;				\
	int __why;						\
	for (__why = (first); __why < (end); __why++)		\
		__locks += cs_sum(lock_why[__why]);		\
	__locks;						\
})
#define cs_sum_lock_alloc()	cs_sum_locks(0, CS_LOCK_FIRST_FREE)
#define cs_sum_lock_free()	cs_sum_locks(CS_LOCK_FIRST_FREE, CS_LOCK_NR)

/* One "si_lock.why.<name> N" line per cause. */
#define cs_show_lock_why(m) do {					\
	int __w;							\
	for (__w = 0; __w < CS_LOCK_NR; __w++)				\
		seq_printf(m, "si_lock.why.%s %lu\n",			\
			   cs_lock_why_name(__w), cs_sum(lock_why[__w])); \
} while (0)

/* Per 1000 allocations, with one decimal: "1.9". */
static inline void cs_show_per_mille(struct seq_file *m, const char *name,
				     unsigned long n, unsigned long allocs)
{
	unsigned long tenths = allocs ? n * 10000 / allocs : 0;

	seq_printf(m, "%s %lu.%lu\n", name, tenths / 10, tenths % 10);
}

/*
 * /sys/kernel/clusterswap/stats/<name>: one value, mode 0444, as
 * /sys/kernel/mm/transparent_hugepage/hugepages-<size>/stats/, so that
 * monitoring can read it without root.
 */
#define CS_SYSFS_STAT(name, sum)					\
static ssize_t name##_show(struct kobject *kobj,			\
			   struct kobj_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%lu\n", (unsigned long)(sum));		\
}									\
static struct kobj_attribute cs_stat_attr_##name = __ATTR_RO(name)

#endif /* _CLUSTERSWAP_STATS_H */

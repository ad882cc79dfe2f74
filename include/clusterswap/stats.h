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

/* A counter of struct cs_stats, summed over CPUs. */
#define cs_sum(field) ({					\
	unsigned long __sum = 0;				\
	int __cpu;						\
	for_each_possible_cpu(__cpu)				\
		__sum += per_cpu(cs_stats, __cpu).field;	\
	__sum;							\
})

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

// SPDX-License-Identifier: GPL-2.0
/*
 * The 6.1 cluster lists (include/linux/swap.h, mm/swapfile.c of 6.1): only
 * free and discard lists, linked by cluster index through ci->data (which
 * holds the next index while a cluster is listed, and its count otherwise).
 * Checked beyond inspect.c's invariants (module/README.md, section 10):
 *  - the free list holds FREE clusters whose bytes are all 0, and nothing
 *    else carries FREE (I-2);
 *  - discard-list clusters have every byte SWAP_MAP_BAD until the discard is
 *    done (a cluster may be off the list while the discard worker holds it);
 *  - every other cluster's count is its used slots (I-3), and a HUGE one is
 *    full (I-4);
 *  - while the device is not full, every free slot lies inside
 *    [lowest_bit, highest_bit], and lowest_bit is not in a FREE cluster other
 *    than the free list's head (I-1): stock's scan jumps there unchecked.
 */
#include <linux/swap.h>
#include <linux/string.h>

#include <clusterswap/inspect.h>
#include <clusterswap/line.h>

/* Walk an index-linked list, marking members; returns its length. */
static unsigned long cs_walk_list(struct cs_check *c, struct swap_cluster_list *list,
				  const char *name, unsigned long *seen, unsigned long nr,
				  struct seq_file *members)
{
	struct swap_info_struct *si = c->si;
	unsigned long idx, len = 0;

	if (list->head.flags & CLUSTER_FLAG_NEXT_NULL)
		return 0;
	idx = list->head.data;
	for (;;) {
		if (idx >= nr || ++len > nr) {
			if (c->m)
				cs_problem(c, "%s list is corrupt at cluster %lu", name, idx);
			return len;
		}
		if (seen && __test_and_set_bit(idx, seen))
			cs_problem(c, "cluster %lu is on two lists (again on %s)", idx, name);
		if (members)
			seq_printf(members, " %lu", idx);
		if (idx == list->tail.data)
			return len;
		idx = si->cluster_info[idx].data;
	}
}

void cs_show_cluster_lists(struct seq_file *m, struct swap_info_struct *si)
{
	struct cs_check c = { .si = si };
	unsigned long nr = cs_nr_clusters(si);

	seq_printf(m, "free %lu:", cs_walk_list(&c, &si->free_clusters, "free", NULL, nr, NULL));
	cs_walk_list(&c, &si->free_clusters, "free", NULL, nr, m);
	seq_printf(m, "\ndiscard %lu:",
		   cs_walk_list(&c, &si->discard_clusters, "discard", NULL, nr, NULL));
	cs_walk_list(&c, &si->discard_clusters, "discard", NULL, nr, m);
	seq_putc(m, '\n');
}

void cs_show_cluster_summary(struct seq_file *m, struct swap_info_struct *si)
{
	struct cs_check c = { .si = si };
	unsigned long nr = cs_nr_clusters(si);

	seq_printf(m, "free_clusters %lu\ndiscard_clusters %lu\n",
		   cs_walk_list(&c, &si->free_clusters, "free", NULL, nr, NULL),
		   cs_walk_list(&c, &si->discard_clusters, "discard", NULL, nr, NULL));
}

/* The first and last 0 byte of cluster @idx, if any.  Context: ci->lock held. */
static void cs_free_span(struct swap_info_struct *si, unsigned long idx,
			 unsigned long *lo, unsigned long *hi)
{
	unsigned long start = idx * CS_SWAPFILE_CLUSTER, i;
	unsigned long end = min_t(unsigned long, start + CS_SWAPFILE_CLUSTER, si->max);

	for (i = start; i < end; i++) {
		if (si->swap_map[i])
			continue;
		*lo = min(*lo, i);
		*hi = i;
	}
}

/* I-1: the bounds cover every free slot of a device in service and not full. */
static void cs_check_bounds(struct cs_check *c, unsigned long lo, unsigned long hi)
{
	struct swap_info_struct *si = c->si;
	unsigned long first = si->lowest_bit / CS_SWAPFILE_CLUSTER;
	struct swap_cluster_list *fl = &si->free_clusters;

	if (!si->highest_bit || !(si->flags & SWP_WRITEOK))
		return;
	if (lo <= hi && (lo < si->lowest_bit || hi > si->highest_bit))
		cs_problem(c, "free slots %lu..%lu lie outside lowest_bit %u, highest_bit %u",
			   lo, hi, si->lowest_bit, si->highest_bit);
	if (first < cs_nr_clusters(si) &&
	    (si->cluster_info[first].flags & CLUSTER_FLAG_FREE) &&
	    ((fl->head.flags & CLUSTER_FLAG_NEXT_NULL) || fl->head.data != first))
		cs_problem(c, "lowest_bit %u is in FREE cluster %lu, not the free list's head",
			   si->lowest_bit, first);
}

unsigned long cs_check_clusters(struct cs_check *c, unsigned long *seen, unsigned long nr)
{
	struct swap_info_struct *si = c->si;
	unsigned long idx, allocated = 0, lo = ULONG_MAX, hi = 0;

	cs_walk_list(c, &si->free_clusters, "free", seen, nr, NULL);
	for (idx = 0; idx < nr; idx++) {
		struct swap_cluster_info *ci = si->cluster_info + idx;
		bool on_free = test_bit(idx, seen);
		struct cs_cluster_bytes b;
		unsigned int data, flags;

		spin_lock(&ci->lock);
		cs_count_cluster_bytes(si, idx, &b);
		cs_free_span(si, idx, &lo, &hi);
		data = ci->data;
		flags = ci->flags;
		spin_unlock(&ci->lock);

		allocated += b.allocated;
		if (on_free != !!(flags & CLUSTER_FLAG_FREE))
			cs_problem(c, "cluster %lu has flags %#x and is %son the free list",
				   idx, flags, on_free ? "" : "not ");
		if (on_free) {
			if (b.used != CS_SWAPFILE_CLUSTER - b.slots)
				cs_problem(c, "free cluster %lu has %lu used slots", idx, b.used);
			continue;
		}
		/* Discard list, or held by the discard worker: all BAD, no count. */
		if (b.bad == b.slots && b.slots)
			continue;
		if (data != b.used)
			cs_problem(c, "cluster %lu has count %u, its bytes say %lu",
				   idx, data, b.used);
		if ((flags & CLUSTER_FLAG_HUGE) && data != CS_SWAPFILE_CLUSTER)
			cs_problem(c, "cluster %lu is HUGE with count %u", idx, data);
	}
	cs_check_bounds(c, lo, hi);
	return allocated;
}

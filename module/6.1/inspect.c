// SPDX-License-Identifier: GPL-2.0
/*
 * The 6.1 cluster lists (include/linux/swap.h, mm/swapfile.c of 6.1): only
 * free and discard lists, linked by cluster index through ci->data (which
 * holds the next index while a cluster is listed, and its count otherwise).
 * Checked beyond inspect.c's invariants:
 *  - the free list holds FREE clusters whose bytes are all 0, and nothing
 *    else carries FREE;
 *  - discard-list clusters have every byte SWAP_MAP_BAD until the discard is
 *    done (a cluster may be off the list while the discard worker holds it);
 *  - every other cluster's count is its used slots.
 */
#include <linux/swap.h>

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

unsigned long cs_check_clusters(struct cs_check *c, unsigned long *seen, unsigned long nr)
{
	struct swap_info_struct *si = c->si;
	unsigned long idx, allocated = 0;
	unsigned long *free_seen = seen;

	cs_walk_list(c, &si->free_clusters, "free", free_seen, nr, NULL);
	for (idx = 0; idx < nr; idx++) {
		struct swap_cluster_info *ci = si->cluster_info + idx;
		bool on_free = test_bit(idx, seen);
		struct cs_cluster_bytes b;
		unsigned int data, flags;

		spin_lock(&ci->lock);
		cs_count_cluster_bytes(si, idx, &b);
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
	}
	return allocated;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The 6.12 cluster lists (include/linux/swap.h, mm/swapfile.c): what the
 * device views print and what the check verifies beyond inspect.c's
 * invariants:
 *  - every cluster is on exactly one list, with that list's flag: free (FREE,
 *    count 0), nonfull[o] and frag[o] (NONFULL / FRAG, order o,
 *    0 < count < cluster size), full (FULL, fewer than CS_RELIST_FREE slots
 *    free: internal.h), discard
 *    (no flag; count 0 and every byte SWAP_MAP_BAD until the discard is
 *    done).  A cluster without a flag may be off every list while the
 *    discard worker holds it.  An order-0 cluster a CPU filled on the fast
 *    path may sit on nonfull or frag, full (one of a higher order never:
 *    it goes to full as it fills), and a CPU's spare cluster or its cursor's cluster
 *    on frag, empty, until that CPU moves them (internal.h,
 *    cs_free_keeps());
 *  - frag_cluster_nr[o] is the length of frag[o].
 */
#include <linux/swap.h>

#include <clusterswap/inspect.h>
#include <clusterswap/line.h>
#include "internal.h"

struct cs_cluster_list {
	const char *name;
	int order;		/* -1: a list that is not per order */
	struct list_head *head;
	u8 flag;
};

#define CS_NR_LISTS (3 + 2 * SWAP_NR_ORDERS)

/* Every list of @si, in the order the views print them. */
static void cs_cluster_lists(struct swap_info_struct *si, struct cs_cluster_list *l)
{
	int o;

	*l++ = (struct cs_cluster_list){ "free", -1, &si->free_clusters, CLUSTER_FLAG_FREE };
	for (o = 0; o < SWAP_NR_ORDERS; o++) {
		*l++ = (struct cs_cluster_list){ "nonfull", o, &si->nonfull_clusters[o],
						 CLUSTER_FLAG_NONFULL };
		*l++ = (struct cs_cluster_list){ "frag", o, &si->frag_clusters[o],
						 CLUSTER_FLAG_FRAG };
	}
	*l++ = (struct cs_cluster_list){ "full", -1, &si->full_clusters, CLUSTER_FLAG_FULL };
	*l = (struct cs_cluster_list){ "discard", -1, &si->discard_clusters, 0 };
}

/* The length of a list, stopping past @limit (a corrupt list may loop). */
static unsigned long cs_list_length(struct list_head *head, unsigned long limit)
{
	struct list_head *pos;
	unsigned long n = 0;

	list_for_each(pos, head)
		if (++n > limit)
			break;
	return n;
}

static void cs_show_range(struct seq_file *m, long first, long last, bool *comma)
{
	seq_printf(m, *comma ? ",%ld" : " %ld", first);
	if (last != first)
		seq_printf(m, "-%ld", last);
	*comma = true;
}

/* The members of a list as ranges of cluster indices: " 0-5,9,12-20". */
static void cs_show_members(struct seq_file *m, struct swap_info_struct *si,
			    struct list_head *head, unsigned long limit)
{
	struct swap_cluster_info *ci;
	long first = -1, last = -1;
	unsigned long seen = 0;
	bool comma = false;

	list_for_each_entry(ci, head, list) {
		long idx = ci - si->cluster_info;

		if (++seen > limit)
			break;
		if (first >= 0 && idx == last + 1) {
			last = idx;
			continue;
		}
		if (first >= 0)
			cs_show_range(m, first, last, &comma);
		first = idx;
		last = idx;
	}
	if (first >= 0)
		cs_show_range(m, first, last, &comma);
}

void cs_show_cluster_lists(struct seq_file *m, struct swap_info_struct *si)
{
	struct cs_cluster_list lists[CS_NR_LISTS];
	unsigned long nr = cs_nr_clusters(si);
	unsigned int i;

	cs_cluster_lists(si, lists);
	for (i = 0; i < CS_NR_LISTS; i++) {
		unsigned long len = cs_list_length(lists[i].head, nr);

		if (lists[i].order >= 0 && !len)
			continue;
		if (lists[i].order >= 0)
			seq_printf(m, "%s[%d] %lu:", lists[i].name, lists[i].order, len);
		else
			seq_printf(m, "%s %lu:", lists[i].name, len);
		cs_show_members(m, si, lists[i].head, nr);
		seq_putc(m, '\n');
	}
}

void cs_show_cluster_summary(struct seq_file *m, struct swap_info_struct *si)
{
	unsigned long nr = cs_nr_clusters(si);
	int o;

	seq_printf(m, "free_clusters %lu\nfull_clusters %lu\ndiscard_clusters %lu\n",
		   cs_list_length(&si->free_clusters, nr),
		   cs_list_length(&si->full_clusters, nr),
		   cs_list_length(&si->discard_clusters, nr));
	/* Fragmentation: partly used clusters of each order. */
	for (o = 0; o < SWAP_NR_ORDERS; o++) {
		unsigned long nonfull = cs_list_length(&si->nonfull_clusters[o], nr);
		unsigned long frag = cs_list_length(&si->frag_clusters[o], nr);

		if (nonfull || frag)
			seq_printf(m, "order%d nonfull %lu frag %lu\n", o, nonfull, frag);
	}
}

/* List membership, flags and orders; marks each listed cluster in @seen. */
static void cs_check_lists(struct cs_check *c, unsigned long *seen, unsigned long nr)
{
	struct swap_info_struct *si = c->si;
	struct cs_cluster_list lists[CS_NR_LISTS];
	struct swap_cluster_info *ci;
	unsigned int i;

	cs_cluster_lists(si, lists);
	for (i = 0; i < CS_NR_LISTS; i++) {
		const struct cs_cluster_list *l = &lists[i];
		unsigned long len = 0;

		list_for_each_entry(ci, l->head, list) {
			unsigned long idx = ci - si->cluster_info;

			if (++len > nr) {
				cs_problem(c, "%s[%d] is longer than the device (a loop?)",
					   l->name, l->order);
				break;
			}
			if (idx >= nr) {
				cs_problem(c, "%s[%d] holds a foreign cluster", l->name, l->order);
				break;
			}
			if (__test_and_set_bit(idx, seen))
				cs_problem(c, "cluster %lu is on two lists (again on %s[%d])",
					   idx, l->name, l->order);
			if (ci->flags != l->flag)
				cs_problem(c, "cluster %lu on %s[%d] has flags %#x",
					   idx, l->name, l->order, ci->flags);
			if (l->order >= 0 && ci->order != l->order)
				cs_problem(c, "cluster %lu on %s[%d] has order %u",
					   idx, l->name, l->order, ci->order);
		}
		if (l->flag == CLUSTER_FLAG_FRAG && len != si->frag_cluster_nr[l->order])
			cs_problem(c, "frag[%d] has %lu clusters, frag_cluster_nr says %u",
				   l->order, len, si->frag_cluster_nr[l->order]);
	}
}

/* One cluster's count and flags against its bytes; returns its allocated slots. */
static unsigned long cs_check_cluster(struct cs_check *c, unsigned long idx, bool listed)
{
	struct swap_cluster_info *ci = c->si->cluster_info + idx;
	struct cs_cluster_bytes b;
	unsigned int count, order;
	u8 flags;

	spin_lock(&ci->lock);
	cs_count_cluster_bytes(c->si, idx, &b);
	count = ci->count;
	flags = ci->flags;
	order = ci->order;
	spin_unlock(&ci->lock);

	if (!flags) {
		/* On the discard list, or off every list while being discarded. */
		if (count || b.bad != b.slots)
			cs_problem(c, "cluster %lu (discard) has count %u and %lu of %lu bytes BAD",
				   idx, count, b.bad, b.slots);
		return 0;
	}
	if (!listed)
		cs_problem(c, "cluster %lu has flags %#x but is on no list", idx, flags);
	if (count != b.used)
		cs_problem(c, "cluster %lu has count %u, its bytes say %lu", idx, count, b.used);
	/* A CPU's filled cluster waits on nonfull or frag, full; a spare on frag, empty. */
	if ((flags == CLUSTER_FLAG_FREE && count) ||
	    (flags == CLUSTER_FLAG_FULL &&
	     (count > CS_SWAPFILE_CLUSTER || CS_SWAPFILE_CLUSTER - count >= CS_RELIST_FREE)) ||
	    ((flags == CLUSTER_FLAG_NONFULL || flags == CLUSTER_FLAG_FRAG) &&
	     (count > CS_SWAPFILE_CLUSTER ||
	      ((!count || count == CS_SWAPFILE_CLUSTER) && !cs_line_cluster_held(c->si, idx)))))
		cs_problem_racy(c, "cluster %lu has flags %#x and count %u", idx, flags, count);
	/*
	 * Invariant 4 (module/README.md, section 7; D2): whatever fills a
	 * cluster of an order above 0 moves it to full under the same ci->lock
	 * hold, so none is ever seen full on nonfull or frag, held or not.
	 */
	if ((flags == CLUSTER_FLAG_NONFULL || flags == CLUSTER_FLAG_FRAG) && order &&
	    count == CS_SWAPFILE_CLUSTER)
		cs_problem(c, "cluster %lu of order %u is full on %s", idx, order,
			   flags == CLUSTER_FLAG_FRAG ? "frag" : "nonfull");
	return b.allocated;
}

unsigned long cs_check_clusters(struct cs_check *c, unsigned long *seen, unsigned long nr)
{
	unsigned long idx, allocated = 0;

	cs_check_lists(c, seen, nr);
	for (idx = 0; idx < nr; idx++)
		allocated += cs_check_cluster(c, idx, test_bit(idx, seen));
	return allocated;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the read-only device views (inspect.c and inspect_<line>.c).
 * The per-line halves know each kernel line's cluster lists; the common half
 * knows swap_map bytes, accounting and the avail lists.
 */
#ifndef _CLUSTERSWAP_INSPECT_H
#define _CLUSTERSWAP_INSPECT_H

#include <clusterswap/swapdev.h>

struct cs_check {
	struct seq_file *m;
	struct swap_info_struct *si;
	unsigned int problems;
	unsigned int racy;	/* of them, found in what moves without si->lock */
	bool quiet;		/* count problems, print none (a reading to confirm) */
	char first[96];		/* the first problem found, for the trip's reason */
};

/*
 * A problem in what the check reads under the locks that change it (lists,
 * flags, a cluster's count against its bytes): exact, under load too.
 */
__printf(2, 3) void cs_problem(struct cs_check *c, const char *fmt, ...);
/*
 * A problem in what also moves without si->lock (the module's fast path and
 * frees: credit, the CPUs' clusters, a relist that waits for si->lock): a
 * reading beside them may show one that is not there (inspect.c).
 */
__printf(2, 3) void cs_problem_racy(struct cs_check *c, const char *fmt, ...);

/* A cluster's swap_map bytes, by kind. */
struct cs_cluster_bytes {
	unsigned long slots;		/* slots of the device in the cluster */
	unsigned long used;		/* non-zero bytes, plus slots past the end */
	unsigned long bad;		/* SWAP_MAP_BAD bytes */
	unsigned long allocated;	/* neither 0 nor BAD: counted in inuse_pages */
};

void cs_count_cluster_bytes(struct swap_info_struct *si, unsigned long idx,
			    struct cs_cluster_bytes *b);

static inline unsigned long cs_nr_clusters(struct swap_info_struct *si)
{
	return DIV_ROUND_UP(si->max, CS_SWAPFILE_CLUSTER);
}

#endif /* _CLUSTERSWAP_INSPECT_H */

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
};

__printf(2, 3) void cs_problem(struct cs_check *c, const char *fmt, ...);

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

/* SPDX-License-Identifier: GPL-2.0 */
/* module/cluster_locks.c: si->lock while a ci->lock is held, without deadlock. */
#ifndef _CLUSTERSWAP_CLUSTER_LOCKS_H
#define _CLUSTERSWAP_CLUSTER_LOCKS_H

struct swap_info_struct;
struct swap_cluster_info;

bool cs_trylock_si_under_ci(struct swap_info_struct *si, struct swap_cluster_info *ci);
void cs_relock_si_ci(struct swap_info_struct *si, struct swap_cluster_info *ci);

#endif /* _CLUSTERSWAP_CLUSTER_LOCKS_H */

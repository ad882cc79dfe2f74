/* SPDX-License-Identifier: GPL-2.0 */
/* Handing back per-CPU state: module/handback.c, and the line's one step. */
#ifndef _CLUSTERSWAP_HANDBACK_H
#define _CLUSTERSWAP_HANDBACK_H

#include <linux/types.h>

struct swap_info_struct;

/* Every device (@leaving false), or those swapoff takes out of service. */
void cs_release_devices(bool leaving);

/*
 * The line's (module/<line>/serve.c): hand back what CPUs hold on @si and
 * leave what stock reads as stock keeps it.  Context: si->lock held; no
 * module allocation in flight on @si.  Return: the credit given back.
 */
unsigned long cs_release_device(struct swap_info_struct *si);

#endif /* _CLUSTERSWAP_HANDBACK_H */

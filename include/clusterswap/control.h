/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the administrator sees and sets: /sys/kernel/clusterswap and
 * /sys/kernel/debug/clusterswap, and the load-time kernel check.
 */
#ifndef _CLUSTERSWAP_CONTROL_H
#define _CLUSTERSWAP_CONTROL_H

#include <linux/types.h>

#define CS_VERSION "0.2.0"

/*
 * Whether swap devices of default priority (swapon without a priority) are
 * used round robin (1, the default) or one after another as stock 6.12 does
 * (0).  Read by the allocator, which only the 6.12 line has.
 */
extern bool cs_round_robin;

/* kernel_gate.c: the load-time gate and its verdict on a release string. */
enum cs_gate {
	CS_GATE_OK,
	CS_GATE_UNPARSABLE,
	CS_GATE_ALREADY,	/* 6.14 and later: the allocator is there already */
	CS_GATE_UNSUPPORTED,
	CS_GATE_OTHER_LINE,	/* supported, but this build is for the other line */
};

enum cs_gate cs_gate_verdict(const char *release);
int cs_kernel_gate(void);
const char *cs_kernel_release(void);

int cs_sysfs_init(void);
void cs_apply_load_options(void);
/* The trip's switch-off (module/trip.c).  Context: process context, may sleep. */
void cs_switch_off_tripped(void);
/* The table of devices was proven (module/swapdev.c).  Context: any. */
void cs_switch_table_proven(void);
/* Once no hook can prove the table any more.  Context: process context. */
void cs_switch_flush(void);
void cs_sysfs_exit(void);
void cs_debugfs_init(void);
void cs_debugfs_exit(void);
void cs_debugfs_sync_devices(void);

#endif /* _CLUSTERSWAP_CONTROL_H */

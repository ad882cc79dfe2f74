/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's swap devices as clusterswap sees them, and the read-only views
 * of their state (inspect_<line>.c).
 *
 * Lock rule for every reader here: a swap_info_struct is never freed, but its
 * swap_map and cluster_info are, by swapoff, after it detaches them under
 * si->lock.  So they may be used only under si->lock, after checking that they
 * are still attached.  Cluster bytes and counts additionally need ci->lock,
 * taken inside si->lock (the stock order: si->lock, then ci->lock).
 */
#ifndef _CLUSTERSWAP_SWAPDEV_H
#define _CLUSTERSWAP_SWAPDEV_H

#include <linux/swap.h>
#include <linux/huge_mm.h>
#include <linux/seq_file.h>
#include <linux/percpu-refcount.h>
#include <linux/rcupdate.h>

/* mm/swapfile.c's SWAPFILE_CLUSTER, identical in 6.1 and 6.12. */
#ifdef CONFIG_THP_SWAP
#define CS_SWAPFILE_CLUSTER	HPAGE_PMD_NR
#else
#define CS_SWAPFILE_CLUSTER	256
#endif

extern struct swap_info_struct **cs_swap_info_table;
void cs_swapdev_init(void);
int cs_swapdev_check_at_load(void);
void cs_swapdev_before_swapon(void);
bool cs_swapdev_rejected(void);
const char *cs_swapdev_table_state(void);

/* Where the table found for swap_info[] stands (module/swapdev.c). */
enum cs_table_state {
	CS_TABLE_UNPROVEN,	/* no device in it yet: read as empty, no call served */
	CS_TABLE_PROVEN,	/* checked while it held a device: read and served */
	CS_TABLE_REJECTED,	/* not the kernel's: never read, never served */
};

extern int cs_table_state;

/**
 * cs_swapdev_proven() - Whether the module may serve calls: the table of
 * devices it reads is the kernel's.
 *
 * Context: any.
 */
static inline bool cs_swapdev_proven(void)
{
	/* Pairs with cs_swapdev_prove(): a call let through reads its table. */
	return smp_load_acquire(&cs_table_state) == CS_TABLE_PROVEN;
}

/**
 * cs_swap_device() - The swap_info_struct of a swap type, if ever allocated.
 * @type: swap type.
 *
 * The struct lives as long as the kernel; whether it is in use is another
 * matter: see cs_swap_device_attached().  Inline: the fast path and every
 * free look a device up.
 */
static inline struct swap_info_struct *cs_swap_device(unsigned int type)
{
	if (type >= MAX_SWAPFILES)
		return NULL;
	/* As swap_type_to_swap_info(): the entry is published with a barrier. */
	return READ_ONCE(READ_ONCE(cs_swap_info_table)[type]);
}

struct swap_info_struct *cs_next_swap_device(unsigned int *type);
bool cs_swap_device_attached(struct swap_info_struct *si);

/*
 * Each swap_info_struct the kernel has set up, by type; attached or not
 * (see the lock rule above).  @type: unsigned int; @si: the device.
 */
#define cs_for_each_swap_device(type, si)				\
	for ((type) = 0; ((si) = cs_next_swap_device(&(type))); (type)++)
/* Device references: get_swap_device()'s protocol, without its offset check. */
bool cs_get_device(struct swap_info_struct *si);
void cs_kcall_put_device(struct swap_info_struct *si);

/**
 * cs_device_live_rcu() - Whether @si is in service, for the rest of the
 * caller's RCU read-side critical section.
 * @si: the device.
 *
 * swapoff kills si->users, then waits in synchronize_rcu() before it detaches
 * and frees swap_map and cluster_info, on 6.1 and 6.12 alike (6.12's
 * mm/swapfile.c says so: "RCU reader side lock (including any spinlock) is
 * sufficient to prevent swapoff"; 6.1's comments name only the reference,
 * but its swapoff makes the same two steps in the same order).  A section
 * that began before that grace period ends before the maps are freed; one
 * that began after it sees the ref dead here.  So a
 * device found live stays attached until the section ends: what
 * cs_get_device() holds until cs_kcall_put_device(), without the
 * reference's two rcu_read_lock() pairs and per-CPU counter updates on every
 * allocation.  The allocation paths hold cs_pcp.lock, which is such a
 * section: local_lock() disables preemption, or on PREEMPT_RT takes
 * rcu_read_lock() with its spinlock.
 * Context: an RCU read-side critical section covering every use of the
 * device's maps.
 * Return: false if the device is not in service (swapoff has killed the
 * ref, or swapon has not yet brought it back).
 */
static inline bool cs_device_live_rcu(struct swap_info_struct *si)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_any_held(),
			 "clusterswap: swap device used outside an RCU read-side section");
	if (percpu_ref_is_dying(&si->users))
		return false;
	/*
	 * As get_swap_device(): the ref before the other fields; pairs with
	 * the spin_unlock() after setup_swap_info() in enable_swap_info().
	 */
	smp_rmb();
	return true;
}

/* mm/swapfile.c's swap_avail_lock: guards the swap_avail_heads plists. */
spinlock_t *cs_swap_avail_lock(void);

/* inspect.c: the debugfs views of one device; each takes si->lock. */
void cs_show_summary(struct seq_file *m, struct swap_info_struct *si);
void cs_show_clusters(struct seq_file *m, struct swap_info_struct *si);
/* Prints each inconsistency found on @si; returns how many. */
unsigned int cs_check_device(struct seq_file *m, struct swap_info_struct *si);

#endif /* _CLUSTERSWAP_SWAPDEV_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every kernel line provides: the one contract between the
 * line-independent code in module/ and a line's folder (module/6.12,
 * module/6.1), which defines each of these.  Shared code sees a line only
 * through this header; a line's own private header is its internal.h.
 */
#ifndef _CLUSTERSWAP_LINE_H
#define _CLUSTERSWAP_LINE_H

#include <linux/lockdep.h>
#include <linux/swap.h>

#include <clusterswap/compat.h>
#include <clusterswap/hooks.h>
#include <clusterswap/inspect.h>

struct attribute_group;
struct seq_file;
struct swap_info_struct;

/* hooks.c: the functions redirected to replacements, and those observed. */
extern struct cs_hook cs_redirects[];
extern const unsigned int cs_nr_redirects;
extern struct cs_hook cs_observers[];
extern const unsigned int cs_nr_observers;

/*
 * When the switch flips, when a swap device came or went (main.c's work
 * item), and at unload (after the hooks are gone).  On: cs_hooks_serve(),
 * then cs_line_serve_start(), once the table of devices is proven (else at
 * the proof: control.c).  Off: cs_line_alloc_stop() (no module
 * allocation in flight when it returns), cs_hooks_serve(), then
 * cs_line_serve_stop() (the hand-back).
 * Context: process context, may sleep; switching is serialised by control.c.
 */
void cs_line_serve_start(void);
void cs_line_alloc_stop(void);
void cs_line_serve_stop(void);
void cs_line_devices_changed(void);
void cs_line_exit(void);

/*
 * Stock allocation on @si while the module serves (its fallback,
 * hibernation: module/stock_alloc.c).  Before it: clear what stock would
 * read stale.  After it found no slot: open to stock the room the module
 * keeps where stock never looks; true if there was some.
 * Context: si->lock held, @si attached with cluster_info.
 */
#if CS_LINE_STOCK_HINTS
void cs_line_before_stock_alloc(struct swap_info_struct *si);
#else
static inline void cs_line_before_stock_alloc(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
}
#endif
bool cs_line_open_for_stock(struct swap_info_struct *si);

/* The allocator's part of debugfs "stats" and "percpu". */
void cs_line_show_stats(struct seq_file *m);
void cs_line_show_percpu(struct seq_file *m);

/* Bytes of the line's per-CPU data (allocator state and counters). */
size_t cs_line_percpu_bytes(void);

/* The counters' group for /sys/kernel/clusterswap/stats/, or NULL. */
const struct attribute_group *cs_line_sysfs_stats(void);

/*
 * What the line's allocator holds that the check must add to the truth:
 * inuse_pages credit held by CPUs, and clusters a CPU holds (filled ones
 * that wait, on nonfull or frag, for the full list; spare ones, on frag,
 * possibly empty).  Nothing on a line without the allocator.
 */
long cs_line_credit(unsigned int type);
bool cs_line_cluster_held(struct swap_info_struct *si, unsigned long idx);

/* inspect.c: all called with si->lock held on an attached device. */
void cs_show_cluster_lists(struct seq_file *m, struct swap_info_struct *si);
void cs_show_cluster_summary(struct seq_file *m, struct swap_info_struct *si);
/* Checks lists, flags and counts; returns the allocated slots it counted. */
unsigned long cs_check_clusters(struct cs_check *c, unsigned long *seen, unsigned long nr);

#endif /* _CLUSTERSWAP_LINE_H */

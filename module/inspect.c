// SPDX-License-Identifier: GPL-2.0
/*
 * Read-only views of a swap device and its consistency check: the parts
 * common to both kernel lines.  The cluster lists are per line
 * (6.12/inspect.c, 6.1/inspect.c).
 *
 * Invariants checked on both lines:
 *  - a cluster's count (where the line keeps one) is the number of its
 *    non-zero swap_map bytes plus its slots past the end of the device;
 *  - inuse_pages is the number of allocated slots (bytes neither 0 nor BAD);
 *  - a writable device is on the swap_avail lists exactly when highest_bit is
 *    not 0, and highest_bit is 0 only when every page is in use.
 *
 * Everything is read under si->lock (each ci->lock nested inside, the stock
 * order), so a check stalls swapping on that device for one scan of its map.
 */
#include <linux/swap.h>
#include <linux/slab.h>
#include <linux/plist.h>

#include <clusterswap/hooks.h>
#include <clusterswap/inspect.h>
#include <clusterswap/line.h>
#include <clusterswap/trip.h>

#define CS_CHECK_MAX_REPORTS 20

static void cs_problem_va(struct cs_check *c, const char *fmt, va_list args)
{
	va_list again;

	if (!c->problems) {
		va_copy(again, args);
		vsnprintf(c->first, sizeof(c->first), fmt, again);
		va_end(again);
	}
	if (c->problems++ >= CS_CHECK_MAX_REPORTS || c->quiet)
		return;
	seq_printf(c->m, "type %u: ", c->si->type);
	seq_vprintf(c->m, fmt, args);
	seq_putc(c->m, '\n');
}

void cs_problem(struct cs_check *c, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	cs_problem_va(c, fmt, args);
	va_end(args);
}

void cs_problem_racy(struct cs_check *c, const char *fmt, ...)
{
	va_list args;

	c->racy++;
	va_start(args, fmt);
	cs_problem_va(c, fmt, args);
	va_end(args);
}

/**
 * cs_count_cluster_bytes() - Classify the swap_map bytes of one cluster.
 * @si: the device.
 * @idx: the cluster.
 * @b: the counts.
 *
 * Context: the cluster's ci->lock held.
 */
void cs_count_cluster_bytes(struct swap_info_struct *si, unsigned long idx,
			    struct cs_cluster_bytes *b)
{
	unsigned long start = idx * CS_SWAPFILE_CLUSTER;
	unsigned long end = min_t(unsigned long, start + CS_SWAPFILE_CLUSTER, si->max);
	unsigned long off;

	lockdep_assert_held(&si->cluster_info[idx].lock);
	b->slots = end - start;
	b->used = CS_SWAPFILE_CLUSTER - b->slots;
	b->bad = 0;
	b->allocated = 0;
	for (off = start; off < end; off++) {
		unsigned char byte = READ_ONCE(si->swap_map[off]);

		b->used += !!byte;
		b->bad += byte == SWAP_MAP_BAD;
		b->allocated += byte && byte != SWAP_MAP_BAD;
	}
}

/* Allocated slots of a device without clusters (a rotational one). */
static unsigned long cs_count_map(struct swap_info_struct *si)
{
	unsigned long off, allocated = 0;

	for (off = 0; off < si->max; off++) {
		unsigned char byte = READ_ONCE(si->swap_map[off]);

		allocated += byte && byte != SWAP_MAP_BAD;
	}
	return allocated;
}

static void cs_check_avail(struct cs_check *c)
{
	struct swap_info_struct *si = c->si;
	spinlock_t *avail_lock = cs_swap_avail_lock();
	bool listed, usable = si->highest_bit != 0;

	if (!(si->flags & SWP_WRITEOK))
		return;
	/*
	 * Racy: a free's credit can be taken by a reclaim under si->lock
	 * before that free's own settle un-marks the device.
	 */
	if (!usable && si->inuse_pages != si->pages)
		cs_problem_racy(c, "marked full (highest_bit 0) with %u of %u pages in use",
				si->inuse_pages, si->pages);
	spin_lock(avail_lock);
	listed = !plist_node_empty(&si->avail_lists[first_online_node]);
	spin_unlock(avail_lock);
	if (listed != usable)
		cs_problem(c, "highest_bit %u but %s the swap_avail lists",
			   si->highest_bit, listed ? "on" : "off");
}

/**
 * cs_check_device() - Verify the clusters and accounting of @si.
 * @m: where to print each inconsistency.
 * @si: the device.
 *
 * Context: process context; takes si->lock, each ci->lock, swap_avail_lock.
 * Return: the number of inconsistencies found (0: consistent).
 */
/* What one reading found of the device. */
enum cs_reading {
	CS_READ_GONE,		/* not in use (any more) */
	CS_READ_CHANGED,	/* resized since the check sized its bitmap */
	CS_READ_DONE,
};

/*
 * One reading of @si's invariants, under si->lock.
 * Return: what it found of the device.
 */
static enum cs_reading cs_check_pass(struct cs_check *c, unsigned long *seen, unsigned long nr)
{
	struct swap_info_struct *si = c->si;
	enum cs_reading read = CS_READ_DONE;
	unsigned long allocated;
	long credit;

	bitmap_zero(seen, max(nr, 1UL));
	c->problems = 0;
	c->racy = 0;
	spin_lock(&si->lock);
	if (!cs_swap_device_attached(si)) {
		read = CS_READ_GONE;
		goto out;
	}
	if (cs_nr_clusters(si) != nr) {
		read = CS_READ_CHANGED;
		goto out;
	}
	if (si->cluster_info)
		allocated = cs_check_clusters(c, seen, nr);
	else
		allocated = cs_count_map(si);
	credit = cs_line_credit(si->type);
	if (credit < 0 || allocated + credit != si->inuse_pages)
		cs_problem_racy(c,
				"inuse_pages is %u, swap_map holds %lu allocated slots, CPUs %ld credit",
				si->inuse_pages, allocated, credit);
	/*
	 * Stock allocates against inuse_pages, which counts credit too: in
	 * the switch-off's window it can pass pages by a THP's worth until
	 * the hand-back.  What may never pass pages is what is allocated.
	 */
	if (allocated > si->pages)
		cs_problem(c, "%lu slots allocated, above the device's %u pages",
			   allocated, si->pages);
	cs_check_avail(c);
out:
	spin_unlock(&si->lock);
	return read;
}

/* Readings of a device before check says "busy". */
#define CS_CHECK_READINGS 3

/*
 * One reading, and whether it stands: it does if it found an exact
 * problem, or if no replacement began or was in flight while it ran (then
 * its racy problems are real too).  Sets *@stands.
 */
static enum cs_reading cs_check_reading(struct cs_check *c, unsigned long *seen,
					unsigned long nr, bool *stands)
{
	unsigned long before;
	enum cs_reading read;
	bool idle;

	before = cs_hooks_activity();
	/*
	 * A call counted in @before is in flight or done: pairs with the
	 * smp_wmb() before the call count in cs_hook_enter().
	 */
	smp_rmb();
	idle = !cs_hooks_inflight_sum();
	/*
	 * The reading's loads after those counters: a replacement seen done
	 * in @idle has its stores seen (the smp_wmb() in cs_hook_exit()).
	 */
	smp_mb();
	read = cs_check_pass(c, seen, nr);
	/*
	 * The counters' loads after the reading's: a store the reading saw
	 * has its call counted below (the smp_wmb() after the call count in
	 * cs_hook_enter()).
	 */
	smp_mb();
	*stands = c->problems > c->racy ||
		  (idle && !cs_hooks_inflight_sum() && cs_hooks_activity() == before);
	return read;
}

/*
 * si->lock holds stock code off, but not the module's fast path and frees,
 * which move slots and credit under cluster locks and cs_pcp.lock: a reading
 * taken while they run can add a slot twice (freed after its cluster was
 * read, its credit back before the credit was read) or miss one.  So a
 * reading whose problems are all racy ones stands only if no replacement
 * ran during it; otherwise it is read again, quietly, up to
 * CS_CHECK_READINGS times.  A reading with no problem is the answer.
 * Problems in a reading that stands are read once more, printed, and trip
 * the module to stock if that reading stands too.
 */
unsigned int cs_check_device(struct seq_file *m, struct swap_info_struct *si)
{
	struct cs_check c = { .m = m, .si = si, .quiet = true };
	enum cs_reading read = CS_READ_DONE;
	unsigned long nr, *seen;
	unsigned int reading;
	bool stands = false;

	/* Sized before taking the lock; a device that changes meanwhile is reported. */
	nr = DIV_ROUND_UP(READ_ONCE(si->max), CS_SWAPFILE_CLUSTER);
	seen = bitmap_zalloc(max(nr, 1UL), GFP_KERNEL);
	if (!seen) {
		seq_printf(m, "type %u: out of memory for the check\n", si->type);
		return 1;
	}
	for (reading = 0; reading < CS_CHECK_READINGS && !stands; reading++) {
		read = cs_check_reading(&c, seen, nr, &stands);
		if (read != CS_READ_DONE || !c.problems)
			goto out;
	}
	if (!stands) {
		seq_printf(m, "type %u: busy: swapping went on through %u readings, each inconsistent; read again\n",
			   si->type, CS_CHECK_READINGS);
		c.problems = 1;
		goto out;
	}
	c.quiet = false;
	read = cs_check_reading(&c, seen, nr, &stands);
	if (read == CS_READ_DONE && c.problems && stands)
		cs_trip("check: type %u: %s", si->type, c.first);
	if (c.problems > CS_CHECK_MAX_REPORTS)
		seq_printf(m, "type %u: ... and %u more\n", si->type,
			   c.problems - CS_CHECK_MAX_REPORTS);
out:
	if (read == CS_READ_CHANGED) {
		seq_printf(m, "type %u: device changed during the check; read again\n", si->type);
		c.problems = 1;
	} else if (read == CS_READ_GONE) {
		c.problems = 0;
	}
	bitmap_free(seen);
	return c.problems;
}

void cs_show_summary(struct seq_file *m, struct swap_info_struct *si)
{
	spin_lock(&si->lock);
	if (!cs_swap_device_attached(si)) {
		seq_puts(m, "not in use\n");
		goto out;
	}
	seq_printf(m, "type %u\n", si->type);
	/* As /proc/swaps names it (swap_show()); set with swap_map, under si->lock. */
	seq_puts(m, "device ");
	if (si->swap_file)
		seq_file_path(m, si->swap_file, " \t\n\\");
	seq_printf(m, "\npages %u\ninuse %u\nfree %u\n",
		   si->pages, si->inuse_pages, si->pages - si->inuse_pages);
	/* Counted in inuse (and /proc/swaps' Used): include/clusterswap/credit.h. */
	seq_printf(m, "credit %ld\n", cs_line_credit(si->type));
	seq_printf(m, "writeok %d\nsolidstate %d\nhighest_bit %u\n",
		   !!(si->flags & SWP_WRITEOK), !!(si->flags & SWP_SOLIDSTATE),
		   si->highest_bit);
	if (si->cluster_info) {
		seq_printf(m, "clusters %lu\ncluster_size %lu\n", cs_nr_clusters(si),
			   (unsigned long)CS_SWAPFILE_CLUSTER);
		cs_show_cluster_summary(m, si);
	} else {
		seq_puts(m, "clusters none (rotational): the stock allocator serves it\n");
	}
out:
	spin_unlock(&si->lock);
}

/**
 * cs_show_clusters() - Each cluster list of @si, with its members.
 * @m: output.
 * @si: the device.
 *
 * Context: takes si->lock.
 */
void cs_show_clusters(struct seq_file *m, struct swap_info_struct *si)
{
	spin_lock(&si->lock);
	if (!cs_swap_device_attached(si))
		seq_puts(m, "not in use\n");
	else if (!si->cluster_info)
		seq_puts(m, "none (rotational): the stock allocator serves it\n");
	else
		cs_show_cluster_lists(m, si);
	spin_unlock(&si->lock);
}

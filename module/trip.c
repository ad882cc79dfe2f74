// SPDX-License-Identifier: GPL-2.0
/*
 * The trip to stock (include/clusterswap/trip.h): the reason and its time,
 * and the work item that switches the module off.  A check that fires may
 * hold a cluster lock, si->lock or cs_pcp.lock, or run with interrupts off;
 * the switch-off waits for grace periods and calls in flight.  So the trip
 * only records and queues, and a work item switches off.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include <clusterswap/control.h>
#include <clusterswap/trace.h>
#include <clusterswap/trip.h>
#include <clusterswap/warn.h>

#define CS_TRIP_REASON_LEN 160

/*
 * Protects the three below.  Raw, with interrupts off: a trip may come from
 * any context, under any lock, on PREEMPT_RT too.
 */
static DEFINE_RAW_SPINLOCK(cs_trip_lock);
static bool cs_trip_set;
static bool cs_trip_dying;	/* module exit: record, but queue nothing */
static time64_t cs_trip_time;
static char cs_trip_reason[CS_TRIP_REASON_LEN];

static void cs_trip_switch_off(struct work_struct *work)
{
	cs_switch_off_tripped();
}

static DECLARE_WORK(cs_trip_work, cs_trip_switch_off);

/* Return: true if this call tripped the module, false if it had already. */
static bool cs_trip_vaf(struct va_format *vaf)
{
	char reason[CS_TRIP_REASON_LEN];
	unsigned long flags;
	size_t len;

	snprintf(reason, sizeof(reason), "%pV", vaf);
	len = strlen(reason);
	if (len && reason[len - 1] == '\n')
		reason[len - 1] = '\0';

	raw_spin_lock_irqsave(&cs_trip_lock, flags);
	if (cs_trip_set) {
		raw_spin_unlock_irqrestore(&cs_trip_lock, flags);
		return false;
	}
	strscpy(cs_trip_reason, reason, sizeof(cs_trip_reason));
	cs_trip_time = ktime_get_real_seconds();
	WRITE_ONCE(cs_trip_set, true);
	raw_spin_unlock_irqrestore(&cs_trip_lock, flags);

	pr_err("tripped to the stock allocator: %s\n", reason);
	trace_tripped(reason);
	/* Under the lock: cs_trip_exit() must not miss a work queued now. */
	raw_spin_lock_irqsave(&cs_trip_lock, flags);
	if (!cs_trip_dying)
		schedule_work(&cs_trip_work);
	raw_spin_unlock_irqrestore(&cs_trip_lock, flags);
	return true;
}

void cs_trip(const char *fmt, ...)
{
	struct va_format vaf = { .fmt = fmt };
	va_list args;

	va_start(args, fmt);
	vaf.va = &args;
	cs_trip_vaf(&vaf);
	va_end(args);
}

/*
 * A "cannot happen" check fired (include/clusterswap/warn.h).  On users'
 * machines one line for the first (a box may run with panic_on_warn, and
 * the module survives what it finds: it leaks a slot rather than free one in
 * use); in test builds a WARN for each.  Either way the module trips.
 */
void cs_inconsistent(const char *fmt, ...)
{
	struct va_format vaf = { .fmt = fmt };
	va_list args;

	va_start(args, fmt);
	vaf.va = &args;
#ifdef CS_SELFTEST
	WARN(1, "clusterswap: %pV", &vaf);
	cs_trip_vaf(&vaf);
#else
	if (!cs_tripped())
		pr_err("internal inconsistency: %pV", &vaf);
	cs_trip_vaf(&vaf);
#endif
	va_end(args);
}

bool cs_tripped(void)
{
	return READ_ONCE(cs_trip_set);
}

ssize_t cs_trip_show(char *buf)
{
	char reason[CS_TRIP_REASON_LEN];
	unsigned long flags;
	time64_t when;
	bool set;

	raw_spin_lock_irqsave(&cs_trip_lock, flags);
	set = cs_trip_set;
	when = cs_trip_time;
	strscpy(reason, cs_trip_reason, sizeof(reason));
	raw_spin_unlock_irqrestore(&cs_trip_lock, flags);
	if (!set)
		return 0;
	return sysfs_emit(buf, "%ptTs UTC: %s\n", &when, reason);
}

void cs_trip_clear(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cs_trip_lock, flags);
	WRITE_ONCE(cs_trip_set, false);
	cs_trip_reason[0] = '\0';
	raw_spin_unlock_irqrestore(&cs_trip_lock, flags);
	/* The switch-off the cleared trip queued comes first (a later trip's may follow). */
	flush_work(&cs_trip_work);
}

void cs_trip_exit(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cs_trip_lock, flags);
	cs_trip_dying = true;
	raw_spin_unlock_irqrestore(&cs_trip_lock, flags);
	cancel_work_sync(&cs_trip_work);
}

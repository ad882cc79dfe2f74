// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/clusterswap: the on/off knob and what the module recognised.
 *
 *   enabled      0 or 1; root-only write.  Any other input is rejected with
 *                -EINVAL and changes nothing.
 *   round_robin  0 or 1 (default 1), as enabled; only where the kernel line
 *                has the allocator (6.12): devices of default priority are
 *                used round robin instead of one after another.
 *   tripped      empty, or when and why the module tripped to stock
 *                (include/clusterswap/trip.h); readable by anyone.  While it
 *                is set, switching on is refused with -EBUSY; root clears it
 *                by writing 0 (anything else: -EINVAL), which does not
 *                switch on by itself.  A table of devices rejected at a
 *                swapon (module/swapdev.c) refuses it until reload.
 *   version      the module version.
 *   kernel       the running kernel release and the line it was recognised as.
 *   stats/       the allocator's main counters, one per file, readable by
 *                anyone (where the line has the allocator).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/string.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>

#include <clusterswap/compat.h>
#include <clusterswap/control.h>
#include <clusterswap/hooks.h>
#include <clusterswap/line.h>
#include <clusterswap/selftest.h>
#include <clusterswap/swapdev.h>
#include <clusterswap/trace.h>
#include <clusterswap/trip.h>

bool cs_round_robin = true;

/*
 * modprobe clusterswap enabled=1 (or "options clusterswap enabled=1" in
 * /etc/modprobe.d) switches it on as soon as the hooks are in, which is how
 * it is switched on at boot.  After load, /sys/kernel/clusterswap/enabled is
 * the switch; this parameter is not visible in sysfs.
 */
static bool cs_enable_at_load;
module_param_named(enabled, cs_enable_at_load, bool, 0);
MODULE_PARM_DESC(enabled, "switch clusterswap on at load (default off)");

/* Serialises writers of "enabled" (the switch will do work in both directions). */
static DEFINE_MUTEX(cs_switch_lock);

static struct kobject *cs_kobj;

static ssize_t enabled_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", cs_hooks_serving());
}

/* Exactly "0" or "1", with at most one trailing newline (what echo writes). */
CS_VISIBLE_IF_SELFTEST int cs_parse_switch(const char *buf, size_t count, bool *on)
{
	if (count == 2 && buf[1] == '\n')
		count = 1;
	if (count != 1 || (buf[0] != '0' && buf[0] != '1'))
		return -EINVAL;
	*on = buf[0] == '1';
	return 0;
}

/*
 * On: new calls come to the module at once; it allocates once stock's final
 * frees in flight are fenced, then takes over from the slot cache.  Off, the
 * mirror: first the module stops allocating and waits out allocations in
 * flight (stock's final free, which comes back with the redirects, is safe
 * only beside allocation under si->lock: module/README.md, D1); then new
 * calls go to stock code, and once the module's calls in flight have
 * returned, it hands its per-CPU state back.  Neither stops swapping: stock
 * code and the module keep the same fields in the same meaning under the
 * same locks.
 */
static int cs_switch(bool on)
{
	mutex_lock(&cs_switch_lock);
	/*
	 * Under the lock: a trip's switch-off cannot come between test and on.
	 * A rejected table of devices stays rejected, trip cleared or not.
	 */
	if (on && (cs_tripped() || cs_swapdev_rejected())) {
		mutex_unlock(&cs_switch_lock);
		return -EBUSY;
	}
	if (on != cs_hooks_serving()) {
		/* A passthrough bench build redirects only: the kernel allocates. */
		if (CS_PASSTHROUGH) {
			cs_hooks_serve(on);
			pr_info("passthrough bench build: calls redirected, the kernel allocates\n");
		} else if (on) {
			cs_hooks_serve(true);
			/*
			 * Until the table of devices is proven no call comes
			 * to the module, and nothing is taken over yet: the
			 * proof does it (cs_take_over_at_proof()).
			 */
			if (cs_swapdev_proven())
				cs_line_serve_start();
		} else {
			cs_line_alloc_stop();
			cs_hooks_serve(false);
			cs_line_serve_stop();
		}
		trace_switch_flip(on);
		pr_info("%s\n", on ? "enabled" : "disabled");
	}
	mutex_unlock(&cs_switch_lock);
	return 0;
}

/* The end of module init, once the hooks are in place. */
void cs_apply_load_options(void)
{
	if (cs_enable_at_load && cs_switch(true))
		pr_warn("not switched on at load: tripped while loading (see tripped)\n");
}

void cs_switch_off_tripped(void)
{
	cs_switch(false);
}

/*
 * The table of devices was proven while the switch may have been on: calls
 * come to the module from now on, so it takes over as at a switch-on (stock's
 * calls in flight fenced, the slot cache drained, then allocation).  Until
 * then the module passes allocations to stock, as at any switch-on.  Under
 * the switch lock, so that a switch-on beside the proof takes over once at
 * least (twice is harmless: the line's take-over is idempotent).
 */
static void cs_take_over_at_proof(struct work_struct *work)
{
	mutex_lock(&cs_switch_lock);
	/* A trip recorded, its switch-off yet to come: allocate no more. */
	if (!CS_PASSTHROUGH && cs_hooks_serving() && !cs_tripped())
		cs_line_serve_start();
	mutex_unlock(&cs_switch_lock);
}

static DECLARE_WORK(cs_proof_work, cs_take_over_at_proof);

void cs_switch_table_proven(void)
{
	schedule_work(&cs_proof_work);
}

void cs_switch_flush(void)
{
	flush_work(&cs_proof_work);
}

static ssize_t enabled_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	bool on;
	int err;

	err = cs_parse_switch(buf, count, &on);
	if (!err)
		err = cs_switch(on);
	return err ?: count;
}

static ssize_t tripped_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return cs_trip_show(buf);
}

static ssize_t tripped_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	bool on;
	int err;

	err = cs_parse_switch(buf, count, &on);
	if (err || on)
		return -EINVAL;
	if (cs_tripped()) {
		cs_trip_clear();
		pr_info("trip cleared by root; the switch may go on again\n");
	}
	return count;
}

static ssize_t round_robin_show(struct kobject *kobj, struct kobj_attribute *attr,
				char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(cs_round_robin));
}

/* Takes effect at the next slow path of each CPU; nothing to hand back. */
static ssize_t round_robin_store(struct kobject *kobj, struct kobj_attribute *attr,
				 const char *buf, size_t count)
{
	bool on;
	int err;

	err = cs_parse_switch(buf, count, &on);
	if (err)
		return err;
	if (on != READ_ONCE(cs_round_robin)) {
		WRITE_ONCE(cs_round_robin, on);
		pr_info("round robin over default-priority devices %s\n", on ? "on" : "off");
	}
	return count;
}

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", CS_VERSION);
}

static ssize_t kernel_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s (%s line)\n", cs_kernel_release(),
			  CS_KERNEL_LINE_NAME);
}

static struct kobj_attribute cs_attr_enabled = __ATTR(enabled, 0644, enabled_show, enabled_store);
static struct kobj_attribute cs_attr_round_robin = __ATTR(round_robin, 0644, round_robin_show,
							  round_robin_store);
static struct kobj_attribute cs_attr_tripped = __ATTR(tripped, 0644, tripped_show, tripped_store);
static struct kobj_attribute cs_attr_version = __ATTR_RO(version);
static struct kobj_attribute cs_attr_kernel = __ATTR_RO(kernel);

static struct attribute *cs_attrs[] = {
	&cs_attr_enabled.attr,
	&cs_attr_round_robin.attr,
	&cs_attr_tripped.attr,
	&cs_attr_version.attr,
	&cs_attr_kernel.attr,
	NULL,
};

static umode_t cs_attr_visible(struct kobject *kobj, struct attribute *attr, int n)
{
	if (attr == &cs_attr_round_robin.attr && !CS_LINE_HAS_ALLOCATOR)
		return 0;
	return attr->mode;
}

static const struct attribute_group cs_attr_group = {
	.attrs = cs_attrs,
	.is_visible = cs_attr_visible,
};

int cs_sysfs_init(void)
{
	const struct attribute_group *stats = cs_line_sysfs_stats();
	int err;

	cs_kobj = kobject_create_and_add("clusterswap", kernel_kobj);
	if (!cs_kobj)
		return -ENOMEM;
	err = sysfs_create_group(cs_kobj, &cs_attr_group);
	if (!err && stats)
		err = sysfs_create_group(cs_kobj, stats);
	if (err)
		kobject_put(cs_kobj);
	return err;
}

/* After this no writer can reach the switch; it is left off. */
void cs_sysfs_exit(void)
{
	kobject_put(cs_kobj);
	cs_switch(false);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the kernel's swap devices: swap_info[] and swap_avail_lock are
 * private to mm/swapfile.c and resolved at load (symbols.c); the table found
 * for swap_info[] is read only once proven.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/swap.h>
#include <linux/percpu-refcount.h>
#include <linux/uaccess.h>

#include <clusterswap/control.h>
#include <clusterswap/swapdev.h>
#include <clusterswap/symbols.h>
#include <clusterswap/trip.h>
#include <clusterswap/warn.h>

/* What the module reads while the table found at load is not proven. */
static struct swap_info_struct *cs_no_swap_devices[MAX_SWAPFILES];

/*
 * The table cs_swap_device() reads: cs_no_swap_devices, until the table
 * found at load for mm/swapfile.c's swap_info[] is proven; then that table,
 * for good.  Set under cs_table_lock, read locklessly.
 */
struct swap_info_struct **cs_swap_info_table = cs_no_swap_devices;

/* swap_info[] as found at load (symbols.c): by name, or on 6.1 from code. */
static struct swap_info_struct **cs_swap_info_found __ro_after_init;

/*
 * Whether the table found is proven, rejected, or neither yet
 * (CS_TABLE_UNPROVEN); it leaves CS_TABLE_UNPROVEN once, under
 * cs_table_lock.  Raw: the swapon check runs in an ftrace callback.
 */
int cs_table_state = CS_TABLE_UNPROVEN;
static DEFINE_RAW_SPINLOCK(cs_table_lock);

/*
 * For tests only: check the table one entry on from where it was found, as
 * if it had been found a word off, to prove that a wrong table is never
 * served from.  Only the check reads it so; not visible in sysfs.
 */
static bool assume_swap_info_skew;
module_param(assume_swap_info_skew, bool, 0);
MODULE_PARM_DESC(assume_swap_info_skew, "test only: check swap_info one entry off");

/* What cs_swapdev_check_table() says of a table with no device in it. */
static const char cs_table_empty[] = "no device in it";

/**
 * cs_swapdev_check_table() - Why a table found for swap_info[] is not it.
 * @found: the table.
 *
 * Once a swapon has allocated a device (alloc_swap_info()), the kernel's
 * table holds devices 0 to n - 1 and NULL after them, each device's ->type
 * its index, and where the line can ask the kernel
 * (cs_line_swap_info_agrees()), each entry what the kernel returns for its
 * type.  alloc_swap_info() reuses a free device before it adds one, sets
 * ->type, and publishes a new one with a release at index nr_swapfiles,
 * under swap_lock; no entry goes back to NULL.  So the table is read from
 * the top down, each entry with an acquire: once one is seen, every entry
 * below it was published before it, and a swapon running beside the check
 * cannot make the kernel's table look gapped.  A table that holds no device
 * yet proves nothing, which cs_table_empty says.
 * Context: process context, or an ftrace callback; never sleeps.
 * Return: NULL, or why @found cannot be swap_info[] (or is not proven).
 */
static const char *cs_swapdev_check_table(struct swap_info_struct **found)
{
	unsigned int skew = assume_swap_info_skew ? 1 : 0;
	struct swap_info_struct **table = found + skew;
	struct swap_info_struct *si;
	typeof(si->type) si_type;
	unsigned int type = MAX_SWAPFILES - skew;
	bool seen = false;

	while (type--) {
		/* Pairs with alloc_swap_info()'s smp_store_release(). */
		si = smp_load_acquire(&table[type]);
		if (!si) {
			if (seen)
				return "a device after an empty entry";
			continue;
		}
		seen = true;
		if (copy_from_kernel_nofault(&si_type, &si->type, sizeof(si_type)))
			return "an entry points at no device";
		if (si_type != type)
			return "an entry's device is of another type";
	}
	if (!seen)
		return cs_table_empty;
	if (!cs_line_swap_info_agrees((unsigned long)table))
		return "an entry is not the device the kernel gives for its type";
	return NULL;
}

/*
 * From here on the module reads the table found, and serves calls.
 * Context: cs_table_lock held, the table unproven.
 */
static void cs_swapdev_prove(void)
{
	lockdep_assert_held(&cs_table_lock);
	WRITE_ONCE(cs_swap_info_table, cs_swap_info_found);
	/* Release: a call the redirect lets through reads the table set here. */
	smp_store_release(&cs_table_state, CS_TABLE_PROVEN);
}

/**
 * cs_swapdev_init() - Take the table found for swap_info[] (symbols.c).
 *
 * Context: module init, after cs_sym_resolve_all().
 */
void __init cs_swapdev_init(void)
{
	cs_swap_info_found = cs_sym_data(CS_SYM_swap_info);
}

/**
 * cs_swapdev_check_at_load() - Check the table found, once swapons are observed.
 *
 * A table that holds a device and passes the check is proven at once.  One
 * with no device in it proves nothing: no device was ever swapped on since
 * boot (on 6.1 the check asks the kernel for every type), and the module
 * serves no call until a swapon proves the table
 * (cs_swapdev_before_swapon()).  After the hooks are in: a swapon that
 * reached init_swap_address_space() before the observer did published its
 * device before the text was patched, so this sees it; any later one is
 * observed.  A swapon's check may have decided first.
 * Context: module init, after cs_hooks_register(), before the switch can
 * go on: the check may call the kernel.
 * Return: 0, or -ENOENT after naming why the table found is not swap_info[].
 */
int __init cs_swapdev_check_at_load(void)
{
	const char *why = cs_swapdev_check_table(cs_swap_info_found);
	bool proving, unproven;

	if (why && why != cs_table_empty) {
		pr_err("the table found for swap_info is not the kernel's: %s; refusing to load\n",
		       why);
		return -ENOENT;
	}
	raw_spin_lock_irq(&cs_table_lock);
	proving = !why && cs_table_state == CS_TABLE_UNPROVEN;
	if (proving)
		cs_swapdev_prove();
	unproven = cs_table_state == CS_TABLE_UNPROVEN;
	raw_spin_unlock_irq(&cs_table_lock);
	if (proving)
		cs_switch_table_proven();
	if (unproven)
		pr_info("no swap device yet: serving from the first swapon, once it proves the table of devices\n");
	return 0;
}

static const char * const cs_table_state_names[] = {
	[CS_TABLE_UNPROVEN] = "unproven",
	[CS_TABLE_PROVEN] = "proven",
	[CS_TABLE_REJECTED] = "rejected",
};

/* For debugfs stats: what the table of devices stands as. */
const char *cs_swapdev_table_state(void)
{
	return cs_table_state_names[READ_ONCE(cs_table_state)];
}

/**
 * cs_swapdev_before_swapon() - A swapon is about to put a device in service.
 *
 * Runs as swapon calls init_swap_address_space(), its last step before
 * enable_swap_info() makes the new device writable and lists it as
 * available; alloc_swap_info() put the device in the table before.  An
 * unproven table is checked here, before any slot of the device can be
 * allocated: proven, calls come to the module from the next on, and it
 * takes over as at a switch-on (cs_switch_table_proven()); not the
 * kernel's, the module never reads it and trips to stock.  Nothing is lost
 * either way: while the table was unproven the module served no call, so it
 * holds nothing, and no device was in service (none at load, and every
 * swapon since came here first).
 * Context: the ftrace callback of init_swap_address_space(), in swapon's
 * process context, maybe with preemption off; never sleeps.
 */
void cs_swapdev_before_swapon(void)
{
	const char *why = cs_swapdev_check_table(cs_swap_info_found);
	unsigned long flags;
	int state;

	raw_spin_lock_irqsave(&cs_table_lock, flags);
	state = cs_table_state;
	if (state == CS_TABLE_UNPROVEN) {
		if (why)
			WRITE_ONCE(cs_table_state, CS_TABLE_REJECTED);
		else
			cs_swapdev_prove();
	}
	raw_spin_unlock_irqrestore(&cs_table_lock, flags);

	if (state == CS_TABLE_UNPROVEN && why)
		cs_trip("swap_info: %s (found at a swapon, before the device served)", why);
	else if (state == CS_TABLE_UNPROVEN)
		cs_switch_table_proven();
	/* A proven table's address is fixed: once it held the devices it always does. */
	if (state == CS_TABLE_PROVEN)
		cs_warn_once(why, "swap_info: %s, after it held the devices\n", why);
}

/* Whether the table found for swap_info[] was rejected: the module never serves. */
bool cs_swapdev_rejected(void)
{
	return READ_ONCE(cs_table_state) == CS_TABLE_REJECTED;
}

/**
 * cs_next_swap_device() - The first device of type *@type or above.
 * @type: where to start; set to the device's type.
 *
 * Return: the device, or NULL when there is none (cs_for_each_swap_device()).
 */
struct swap_info_struct *cs_next_swap_device(unsigned int *type)
{
	struct swap_info_struct *si;

	for (; *type < MAX_SWAPFILES; (*type)++) {
		si = cs_swap_device(*type);
		if (si)
			return si;
	}
	return NULL;
}

/**
 * cs_swap_device_attached() - Whether @si has its maps attached.
 * @si: the device.
 *
 * Context: si->lock held; the answer holds until it is released.
 */
bool cs_swap_device_attached(struct swap_info_struct *si)
{
	lockdep_assert_held(&si->lock);
	return (si->flags & SWP_USED) && si->swap_map && si->max;
}

spinlock_t *cs_swap_avail_lock(void)
{
	return cs_sym_data(CS_SYM_swap_avail_lock);
}

/**
 * cs_get_device() - Pin a device against swapoff, as get_swap_device() does.
 * @si: the device.
 *
 * While pinned, swapoff cannot free swap_map or cluster_info (it waits for
 * the reference after try_to_unuse()).
 * Context: any; never sleeps.
 * Return: false if the device is not in service.
 */
bool cs_get_device(struct swap_info_struct *si)
{
	if (!percpu_ref_tryget_live(&si->users))
		return false;
	/* Pairs with the smp_wmb() in enable_swap_info(), as get_swap_device(). */
	smp_rmb();
	return true;
}

/*
 * percpu_ref_put() may call the ref's release function through its pointer
 * (swap_users_ref_free, which the kernel calls the same way and which keeps
 * its ENDBR): one of the two indirect calls the IBT check allows.
 */
noinline void cs_kcall_put_device(struct swap_info_struct *si)
{
	percpu_ref_put(&si->users);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the 6.1 line's own non-exported symbols (line_symbols.h),
 * resolved at load with those of every line (module/symbols.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/nodemask.h>
#include <linux/plist.h>
#include <linux/spinlock.h>
#include <linux/swap.h>
#include <linux/swapops.h>
#include <linux/uaccess.h>

#include <clusterswap/arch.h>
#include <clusterswap/symbols.h>

const char * const cs_line_sym_names[CS_NR_SYMS - CS_SYM_LINE_FIRST] = {
	[CS_SYM_swap_cgroup_swapoff - CS_SYM_LINE_FIRST] = "swap_cgroup_swapoff",
	[CS_SYM_get_swap_pages - CS_SYM_LINE_FIRST] = "get_swap_pages",
	[CS_SYM_swp_swap_info - CS_SYM_LINE_FIRST] = "swp_swap_info",
	[CS_SYM_reenable_swap_slots_cache_unlock - CS_SYM_LINE_FIRST] =
		"reenable_swap_slots_cache_unlock",
	[CS_SYM___frontswap_invalidate_page - CS_SYM_LINE_FIRST] = "__frontswap_invalidate_page",
	[CS_SYM___mem_cgroup_try_charge_swap - CS_SYM_LINE_FIRST] = "__mem_cgroup_try_charge_swap",
	[CS_SYM___mem_cgroup_uncharge_swap - CS_SYM_LINE_FIRST] = "__mem_cgroup_uncharge_swap",
	[CS_SYM_clear_shadow_from_swap_cache - CS_SYM_LINE_FIRST] = "clear_shadow_from_swap_cache",
	[CS_SYM_plist_add - CS_SYM_LINE_FIRST] = "plist_add",
	[CS_SYM_plist_del - CS_SYM_LINE_FIRST] = "plist_del",
	[CS_SYM_plist_requeue - CS_SYM_LINE_FIRST] = "plist_requeue",
	[CS_SYM_swap_avail_heads - CS_SYM_LINE_FIRST] = "swap_avail_heads",
};

/*
 * frontswap's, only where it is built (zswap selects it): Debian's cloud
 * flavour leaves it out.
 */
bool cs_line_sym_configured(enum cs_sym sym)
{
	switch (sym) {
	case CS_SYM___frontswap_invalidate_page:
		return IS_ENABLED(CONFIG_FRONTSWAP);
	default:
		return true;
	}
}

/*
 * From the cluster allocator of 6.10-6.12 (mTHP swap-out, per-order lists,
 * direct zswap calls) and the reworks after it, in upstream's names.  None
 * is in any 6.1.y.
 */
const char * const cs_line_later_syms[] = {
	"cluster_alloc_swap_entry",
	"swap_reclaim_full_clusters",
	"swap_entry_range_free",
	"zswap_invalidate",
	"isolate_lock_cluster",
	"relocate_cluster",
	"swap_alloc_fast",
	NULL,
};

/* What @fn's code does with the addresses it forms (cs_arch_code_refs()). */
static bool cs_refs_of(const char *fn, unsigned long callee, struct cs_code_refs *refs)
{
	unsigned long start, size;
	int err;

	if (!cs_sym_function_code(fn, &start, &size)) {
		pr_err("kernel function %s() not found\n", fn);
		return false;
	}
	err = cs_arch_code_refs((const u8 *)start, start, size, callee, refs);
	if (err)
		pr_err("cannot read which variables %s() uses (%d)\n", fn, err);
	return !err;
}

/* Whether @addr is in @vals. */
static bool cs_refs_have(const unsigned long *vals, unsigned int nr, unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (vals[i] == addr)
			return true;
	return false;
}

/* A word of kernel data, read where a misread address cannot fault. */
static bool cs_read_word(const char *what, unsigned long addr, unsigned long *word)
{
	if (!copy_from_kernel_nofault(word, (const void *)addr, sizeof(*word)))
		return true;
	pr_err("%s: cannot read the word at the address found for it\n", what);
	return false;
}

/* A variable is never in kernel code; an address there was misread. */
static unsigned long cs_data_not_code(const char *what, unsigned long addr)
{
	if ((int)cs_sym_call1(CS_SYM_core_kernel_text, addr)) {
		pr_err("%s was found in kernel code\n", what);
		return 0;
	}
	return addr;
}

/*
 * swap_info's entries only ever go from NULL to a device, never back, so a
 * swapon between the reads of one type leaves the call's answer equal to
 * one of them.
 */
bool cs_line_swap_info_agrees(unsigned long table)
{
	unsigned long call, before, after;
	unsigned int type;

	for (type = 0; type < MAX_SWAPFILES; type++) {
		unsigned long slot = table + type * sizeof(struct swap_info_struct *);

		if (!cs_read_word("swap_info", slot, &before))
			return false;
		call = cs_sym_call1(CS_SYM_swp_swap_info, swp_entry(type, 0).val);
		if (!cs_read_word("swap_info", slot, &after))
			return false;
		if (call != before && call != after) {
			pr_err("swp_swap_info(%u) is not what the table found for swap_info holds\n",
			       type);
			return false;
		}
	}
	return true;
}

/*
 * swap_info: the base of the one indexed load in swp_swap_info()
 * (swap_type_to_swap_info(): READ_ONCE(swap_info[type])), which
 * get_swap_device()'s inlined copy of it must index from too (an offset
 * folded into the index would have to be folded alike in both), then
 * checked against what swp_swap_info() itself returns for every type: here,
 * and again at load and before each swapon's device enters service
 * (module/swapdev.c), since while no device was ever swapped on every entry
 * is NULL.
 */
static unsigned long cs_find_swap_info(void)
{
	struct cs_code_refs refs;
	unsigned long table;

	if (!cs_refs_of("swp_swap_info", 0, &refs))
		return 0;
	if (refs.nr_indexed != 1) {
		pr_err("swp_swap_info() has %u indexed loads from known addresses, not 1\n",
		       refs.nr_indexed);
		return 0;
	}
	table = refs.indexed[0];
	if (!cs_refs_of("get_swap_device", 0, &refs))
		return 0;
	if (!cs_refs_have(refs.indexed, refs.nr_indexed, table)) {
		pr_err("get_swap_device() does not index the table swp_swap_info() reads\n");
		return 0;
	}
	if (!cs_line_swap_info_agrees(table))
		return 0;
	return cs_data_not_code("swap_info", table);
}

/*
 * swap_avail_lock and swap_avail_heads are both used, and no other swap
 * variable, by get_swap_pages() and __cgroup_throttle_swaprate(): each
 * takes the lock, then walks swap_avail_heads[node].
 */
static const char * const cs_avail_users[] = { "get_swap_pages", "__cgroup_throttle_swaprate" };

/*
 * The function spin_lock() calls with the lock's address: _raw_spin_lock(),
 * or where spin_lock() is inlined (CONFIG_INLINE_SPIN_LOCK, which arm64
 * selects without preemption, as Debian's arm64 6.1 is built), the queued
 * spinlock's slow path, called when the lock was not free.
 */
#ifdef CONFIG_INLINE_SPIN_LOCK
#define CS_SPIN_LOCK_CALL	"queued_spin_lock_slowpath"
#else
#define CS_SPIN_LOCK_CALL	"_raw_spin_lock"
#endif

/*
 * What cs_avail_users[] do with the addresses they form, with the first
 * arguments of their CS_SPIN_LOCK_CALL calls: read once, at load, for
 * both variables (cs_line_find_data() is called from module init alone,
 * one symbol after another).
 */
static struct {
	bool read;
	struct cs_code_refs refs[ARRAY_SIZE(cs_avail_users)];
} cs_avail_code;

static const struct cs_code_refs *cs_avail_refs(void)
{
	unsigned long lock_fn;
	unsigned int i;

	if (cs_avail_code.read)
		return cs_avail_code.refs;
	lock_fn = cs_sym_lookup(CS_SPIN_LOCK_CALL);
	if (!lock_fn) {
		pr_err("kernel function %s() not found\n", CS_SPIN_LOCK_CALL);
		return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(cs_avail_users); i++)
		if (!cs_refs_of(cs_avail_users[i], lock_fn, &cs_avail_code.refs[i]))
			return NULL;
	cs_avail_code.read = true;
	return cs_avail_code.refs;
}

/*
 * The lock: the one known address both pass to CS_SPIN_LOCK_CALL, a
 * 4-byte aligned word, not swap_info's.
 */
static unsigned long cs_find_swap_avail_lock(void)
{
	const struct cs_code_refs *refs = cs_avail_refs();
	unsigned long lock = 0;
	unsigned int i;

	if (!refs)
		return 0;
	for (i = 0; i < ARRAY_SIZE(cs_avail_users); i++) {
		if (refs[i].nr_args != 1) {
			pr_err("%s() passes %u known addresses to %s(), not swap_avail_lock alone\n",
			       cs_avail_users[i], refs[i].nr_args, CS_SPIN_LOCK_CALL);
			return 0;
		}
		if (lock && refs[i].args[0] != lock) {
			pr_err("%s() and %s() do not take the same lock\n",
			       cs_avail_users[0], cs_avail_users[i]);
			return 0;
		}
		lock = refs[i].args[0];
	}
	if (lock % sizeof(spinlock_t) || lock == cs_sym_addr(CS_SYM_swap_info)) {
		pr_err("the lock found for swap_avail_lock cannot be it\n");
		return 0;
	}
	return cs_data_not_code("swap_avail_lock", lock);
}

/*
 * The heads: the one address both load a pointer from, which must hold
 * what swapfile_init() allocated there, one plist_head per node, each a
 * list whose first entry points back at it.  Read without the lock (the
 * address found for it is not trusted yet): a swapon at that instant may
 * make the load refuse, never accept.
 */
static unsigned long cs_find_swap_avail_heads(void)
{
	const char *what = "swap_avail_heads";
	const struct cs_code_refs *refs = cs_avail_refs();
	unsigned long found = 0, heads, next, prev;
	unsigned int i, nr = 0;
	int node;

	if (!refs)
		return 0;
	for (i = 0; i < refs[0].nr_loads; i++) {
		if (cs_refs_have(refs[1].loads, refs[1].nr_loads, refs[0].loads[i])) {
			found = refs[0].loads[i];
			nr++;
		}
	}
	if (nr != 1) {
		pr_err("%s() and %s() load %u pointers from the same known addresses, not swap_avail_heads alone\n",
		       cs_avail_users[0], cs_avail_users[1], nr);
		return 0;
	}
	if ((found >= cs_sym_addr(CS_SYM_swap_info) &&
	     found < cs_sym_addr(CS_SYM_swap_info) + MAX_SWAPFILES * sizeof(void *)) ||
	    found == cs_sym_addr(CS_SYM_swap_avail_lock)) {
		pr_err("the address found for swap_avail_heads is another variable's\n");
		return 0;
	}
	if (!cs_read_word(what, found, &heads))
		return 0;
	for (node = 0; node < nr_node_ids; node++) {
		struct list_head *list = &((struct plist_head *)heads + node)->node_list;

		if (!cs_read_word(what, (unsigned long)&list->next, &next) ||
		    !cs_read_word(what, next + offsetof(struct list_head, prev), &prev))
			return 0;
		if (prev != (unsigned long)list) {
			pr_err("the pointer found for swap_avail_heads does not point to node lists\n");
			return 0;
		}
	}
	return cs_data_not_code(what, found);
}

/*
 * Debian's arm64 6.1 is built without KALLSYMS_ALL: kallsyms lists none of
 * these variables.  Each is found from what the code that uses it does
 * with it (cs_arch_code_refs()), and only where that is unambiguous; else
 * the load is refused.
 */
unsigned long cs_line_find_data(enum cs_sym sym)
{
	switch (sym) {
	case CS_SYM_swap_info:
		return cs_find_swap_info();
	case CS_SYM_swap_avail_lock:
		return cs_find_swap_avail_lock();
	case CS_SYM_swap_avail_heads:
		return cs_find_swap_avail_heads();
	default:
		return 0;
	}
}

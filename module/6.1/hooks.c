// SPDX-License-Identifier: GPL-2.0
/*
 * The 6.1 line: which functions are redirected or observed, and the
 * replacement entry points.  Each replacement has the exact prototype of the
 * function it replaces (include/linux/swap.h, include/linux/swap_slots.h of
 * 6.1), because it returns straight to that function's caller.
 *
 * For now every replacement counts the call and passes it to the original.
 */
#include <linux/swap.h>
#include <linux/seq_file.h>
#include <linux/swap_slots.h>

#include <clusterswap/hooks.h>
#include <clusterswap/control.h>
#include <clusterswap/swapdev.h>
#include <clusterswap/line.h>

static swp_entry_t cs_folio_alloc_swap(struct folio *folio)
{
	swp_entry_t entry;

	cs_hook_enter(CS_SYM_folio_alloc_swap);
	entry.val = cs_sym_call1(CS_SYM_folio_alloc_swap, folio);
	cs_hook_exit();
	return entry;
}

static void cs_free_swap_slot(swp_entry_t entry)
{
	cs_hook_enter(CS_SYM_free_swap_slot);
	cs_sym_call1(CS_SYM_free_swap_slot, entry.val);
	cs_hook_exit();
}

static void cs_put_swap_folio(struct folio *folio, swp_entry_t entry)
{
	cs_hook_enter(CS_SYM_put_swap_folio);
	cs_sym_call2(CS_SYM_put_swap_folio, folio, entry.val);
	cs_hook_exit();
}

static int cs_free_swap_and_cache(swp_entry_t entry)
{
	int ret;

	cs_hook_enter(CS_SYM_free_swap_and_cache);
	ret = cs_sym_call1(CS_SYM_free_swap_and_cache, entry.val);
	cs_hook_exit();
	return ret;
}

static void cs_swapcache_free_entries(swp_entry_t *entries, int n)
{
	cs_hook_enter(CS_SYM_swapcache_free_entries);
	cs_sym_call2(CS_SYM_swapcache_free_entries, entries, n);
	cs_hook_exit();
}

static swp_entry_t cs_get_swap_page_of_type(int type)
{
	swp_entry_t entry;

	cs_hook_enter(CS_SYM_get_swap_page_of_type);
	entry.val = cs_sym_call1(CS_SYM_get_swap_page_of_type, type);
	cs_hook_exit();
	return entry;
}

struct cs_hook cs_redirects[] = {
	{ CS_SYM_folio_alloc_swap, cs_folio_alloc_swap },
	{ CS_SYM_free_swap_slot, cs_free_swap_slot },
	{ CS_SYM_put_swap_folio, cs_put_swap_folio },
	{ CS_SYM_free_swap_and_cache, cs_free_swap_and_cache },
	{ CS_SYM_swapcache_free_entries, cs_swapcache_free_entries },
	{ CS_SYM_get_swap_page_of_type, cs_get_swap_page_of_type },
};

const unsigned int cs_nr_redirects = ARRAY_SIZE(cs_redirects);

/*
 * disable_swap_slots_cache_lock: swapoff, right after SWP_WRITEOK is cleared.
 * enable_swap_slots_cache: the end of a successful swapon.
 * __frontswap_invalidate_area: swapoff teardown (zswap is a frontswap backend).
 */
struct cs_hook cs_observers[] = {
	{ CS_SYM_disable_swap_slots_cache_lock },
	{ CS_SYM_enable_swap_slots_cache },
	{ CS_SYM___frontswap_invalidate_area },
};

const unsigned int cs_nr_observers = ARRAY_SIZE(cs_observers);

/* The 6.1 line passes every call through: nothing to take over or hand back. */
void cs_line_serve_start(void)
{
}

void cs_line_serve_stop(void)
{
}

void cs_line_devices_changed(void)
{
}

void cs_line_exit(void)
{
}

void cs_line_show_stats(struct seq_file *m)
{
	seq_puts(m, "allocator passthrough (6.1 line: stock code serves every call)\n");
}

/* No allocator, no counters: no stats directory in sysfs. */
const struct attribute_group *cs_line_sysfs_stats(void)
{
	return NULL;
}

void cs_line_show_percpu(struct seq_file *m)
{
	seq_puts(m, "no per-CPU state on the 6.1 line\n");
}

long cs_line_credit(unsigned int type)
{
	return 0;
}

size_t cs_line_percpu_bytes(void)
{
	return 0;
}

bool cs_line_cluster_held(struct swap_info_struct *si, unsigned long idx)
{
	return false;
}

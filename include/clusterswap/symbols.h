/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel functions that are not exported, resolved once at load.
 *
 * Debian's 6.12 is built with IBT: on CPUs that enforce it, an indirect call
 * to a function whose ENDBR was sealed at boot is a fatal #CP fault, and
 * nearly every function listed here is sealed.  So a resolved address is never
 * a C function pointer.  It is a struct cs_kaddr, which C cannot call, and the
 * only way to run it is cs_sym_call(), which transfers control with a RET
 * through the assembly gate in gate.S (RET is not checked by IBT).  The host
 * check tests/host/gate_check.py proves on the built .ko that the module makes
 * no indirect call or jump at all, and that only cs_sym_* functions read the
 * table of resolved addresses.
 */
#ifndef _CLUSTERSWAP_SYMBOLS_H
#define _CLUSTERSWAP_SYMBOLS_H

#include <clusterswap/compat.h>

/*
 * The non-exported symbols the module needs: those of every line and
 * architecture here; then the architecture's own, in its folder
 * (module/arch/<arch>/arch_symbols.h, named in its symbols.c); then the
 * line's own, in its folder (module/<line>/line_symbols.h, named in
 * module/<line>/symbols.c), so that no version or architecture test is
 * needed here.  kallsyms_lookup_name comes first because it finds all the
 * others.
 */
enum cs_sym {
	CS_SYM_kallsyms_lookup_name,
	CS_SYM_ftrace_location,
	CS_SYM_core_kernel_text,
	CS_SYM_kallsyms_lookup_size_offset,
	CS_SYM___module_address,
	CS_SYM_folio_alloc_swap,
	CS_SYM_free_swap_slot,
	CS_SYM_put_swap_folio,
	CS_SYM_swapcache_free_entries,
	CS_SYM_get_swap_page_of_type,
	CS_SYM_disable_swap_slots_cache_lock,
	CS_SYM_enable_swap_slots_cache,
	CS_SYM_init_swap_address_space,
	CS_SYM_swap_info,
	CS_SYM_swap_avail_lock,
	/*
	 * The architecture's own symbols are numbered from CS_SYM_ARCH_FIRST;
	 * an architecture with none leaves the range empty (the next
	 * enumerator, CS_SYM_LINE_FIRST, equals CS_SYM_ARCH_FIRST).
	 */
	CS_SYM_ARCH_FIRST,
	CS_SYM_ARCH_BEFORE_FIRST_ = CS_SYM_ARCH_FIRST - 1,
#include <arch_symbols.h>
	CS_SYM_LINE_FIRST,	/* the line's own symbols are numbered from here */
#include <line_symbols.h>
	CS_NR_SYMS
};

/* Names of the line's own symbols, from CS_SYM_LINE_FIRST on. */
extern const char * const cs_line_sym_names[CS_NR_SYMS - CS_SYM_LINE_FIRST];

/*
 * Whether the kernel's configuration has the line's symbol @sym at all: a
 * few belong to an option that one of Debian's flavours leaves out (zswap
 * and frontswap in the cloud kernels).  One it has not is not resolved, and
 * the code that would use it is not built (module/<line>/symbols.c).
 */
bool cs_line_sym_configured(enum cs_sym sym);

/*
 * A variable of the line's or of every line's that kallsyms does not list
 * (a kernel built without KALLSYMS_ALL), found from the code of the
 * functions that use it (module/<line>/symbols.c).  Called once every
 * symbol kallsyms lists is resolved.  Return: its address, or 0 after
 * saying why it cannot be found.
 */
unsigned long cs_line_find_data(enum cs_sym sym);

/*
 * Whether the swap device table at @table holds, for every type, what the
 * line's own kernel function returns for it (6.1: swp_swap_info()); true
 * where the line has none to ask (6.12, whose kallsyms lists swap_info on
 * every kernel it loads on).  Return: true, or false after saying which
 * type disagrees.  Context: process context.
 */
bool cs_line_swap_info_agrees(unsigned long table);

/*
 * Functions of the swap code of later kernels that the line's stock code does
 * not have (NULL-terminated; module/<line>/symbols.c).  A kernel of the line
 * that has one carries a backport of later swap code (a vendor kernel, for
 * example): its locking and counters may not be what the module was verified
 * against, so it is refused.
 */
extern const char * const cs_line_later_syms[];

/*
 * A resolved kernel address: deliberately not callable from C.  @call is
 * where cs_sym_call() enters it: @addr, or for a function the module
 * redirects, the first instruction after its ftrace call site
 * (cs_sym_call_past_ftrace()).
 */
struct cs_kaddr {
	unsigned long addr;
	unsigned long call;
};

struct seq_file;

int cs_sym_resolve_all(void);
bool cs_sym_function_at(unsigned long addr, unsigned long *start, unsigned long *size);
bool cs_sym_function_code(const char *name, unsigned long *start, unsigned long *size);
void cs_sym_show(struct seq_file *m);
const char *cs_sym_clone(enum cs_sym sym, char *buf, size_t len);
int cs_sym_refuse_later_code(void);
const char *cs_sym_name(enum cs_sym sym);
void cs_sym_call_past_ftrace(enum cs_sym sym, unsigned long ftrace_site);
unsigned long cs_sym_addr(enum cs_sym sym);
unsigned long cs_sym_lookup(const char *name);
void *cs_sym_data(enum cs_sym sym);
unsigned long cs_sym_call(enum cs_sym sym, unsigned long a1, unsigned long a2,
			  unsigned long a3, unsigned long a4, unsigned long a5);

#define cs_sym_call1(sym, a1) \
	cs_sym_call(sym, (unsigned long)(a1), 0, 0, 0, 0)
#define cs_sym_call2(sym, a1, a2) \
	cs_sym_call(sym, (unsigned long)(a1), (unsigned long)(a2), 0, 0, 0)
#define cs_sym_call3(sym, a1, a2, a3) \
	cs_sym_call(sym, (unsigned long)(a1), (unsigned long)(a2), \
		    (unsigned long)(a3), 0, 0)
#define cs_sym_call4(sym, a1, a2, a3, a4) \
	cs_sym_call(sym, (unsigned long)(a1), (unsigned long)(a2), \
		    (unsigned long)(a3), (unsigned long)(a4), 0)

/*
 * module/arch/<arch>/gate.S: run @fn(a1..a5), with the gate as its return
 * address; returns what @fn returned.
 */
unsigned long cs_gate_call(unsigned long fn, unsigned long a1, unsigned long a2,
			   unsigned long a3, unsigned long a4, unsigned long a5);

/*
 * gate.S: the return address of every kernel function the module calls (a
 * label in cs_gate_call(), not a function).
 */
extern const u8 cs_gate_return[];

#endif /* _CLUSTERSWAP_SYMBOLS_H */

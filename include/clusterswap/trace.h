/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of clusterswap, under events/clusterswap/ in tracefs, for
 * perf ("perf stat -e 'clusterswap:*'"), bpftrace and trace-cmd.  The same
 * events on every kernel line; where a line has no allocator, only the
 * switch fires.  Each event that has a debugfs "stats" counter fires exactly
 * where that counter moves, so the two can be checked against each other.
 *
 * module/trace.c instantiates them (CREATE_TRACE_POINTS).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM clusterswap

#if !defined(_CLUSTERSWAP_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _CLUSTERSWAP_TRACE_H

#include <linux/tracepoint.h>

#ifndef _CLUSTERSWAP_TRACE_ENUMS
#define _CLUSTERSWAP_TRACE_ENUMS
/* The cluster lists a device keeps (6.12: CLUSTER_FLAG_*). */
enum cs_list {
	CS_LIST_NONE,		/* on no list the allocator owns (the discard worker's) */
	CS_LIST_FREE,
	CS_LIST_NONFULL,
	CS_LIST_FRAG,
	CS_LIST_FULL,
	CS_LIST_DISCARD,
};

/* Where a CPU's new cluster came from. */
enum cs_take_from {
	CS_TAKE_FREE,		/* the free list */
	CS_TAKE_NONFULL,	/* nonfull of the order */
	CS_TAKE_FRAG,		/* frag of the order */
	CS_TAKE_BORROW,		/* order 0: one slot of a higher order's cluster */
};

/* Why an allocation went to the kernel's own allocator. */
enum cs_stock_why {
	CS_STOCK_TAKING_OVER,	/* the switch is on, stock final frees not yet fenced */
	CS_STOCK_ROTATIONAL,	/* a device without clusters came first in the walk */
	CS_STOCK_NO_ROOM,	/* no managed device had a free slot */
	CS_STOCK_SWITCHING_OFF,	/* the switch went off after the call came in */
};

/* Why a large folio got no slot (its caller splits it). */
enum cs_large_why {
	CS_LARGE_NO_ROOM,	/* no free cluster room of its order */
	CS_LARGE_NO_SWAP_PAGES,	/* nr_swap_pages has fewer free slots than it needs */
};
#endif

/* The enums' values, for user space (perf, bpftrace) to decode. */
TRACE_DEFINE_ENUM(CS_LIST_NONE);
TRACE_DEFINE_ENUM(CS_LIST_FREE);
TRACE_DEFINE_ENUM(CS_LIST_NONFULL);
TRACE_DEFINE_ENUM(CS_LIST_FRAG);
TRACE_DEFINE_ENUM(CS_LIST_FULL);
TRACE_DEFINE_ENUM(CS_LIST_DISCARD);
TRACE_DEFINE_ENUM(CS_TAKE_FREE);
TRACE_DEFINE_ENUM(CS_TAKE_NONFULL);
TRACE_DEFINE_ENUM(CS_TAKE_FRAG);
TRACE_DEFINE_ENUM(CS_TAKE_BORROW);
TRACE_DEFINE_ENUM(CS_STOCK_TAKING_OVER);
TRACE_DEFINE_ENUM(CS_STOCK_ROTATIONAL);
TRACE_DEFINE_ENUM(CS_STOCK_NO_ROOM);
TRACE_DEFINE_ENUM(CS_STOCK_SWITCHING_OFF);
TRACE_DEFINE_ENUM(CS_LARGE_NO_ROOM);
TRACE_DEFINE_ENUM(CS_LARGE_NO_SWAP_PAGES);

#define cs_show_list(v)							\
	__print_symbolic(v, { CS_LIST_NONE, "none" },			\
			 { CS_LIST_FREE, "free" },			\
			 { CS_LIST_NONFULL, "nonfull" },		\
			 { CS_LIST_FRAG, "frag" },			\
			 { CS_LIST_FULL, "full" },			\
			 { CS_LIST_DISCARD, "discard" })

#define cs_show_take_from(v)						\
	__print_symbolic(v, { CS_TAKE_FREE, "free" },			\
			 { CS_TAKE_NONFULL, "nonfull" },		\
			 { CS_TAKE_FRAG, "frag" },			\
			 { CS_TAKE_BORROW, "borrow" })

#define cs_show_stock_why(v)						\
	__print_symbolic(v, { CS_STOCK_TAKING_OVER, "taking_over" },	\
			 { CS_STOCK_ROTATIONAL, "rotational" },		\
			 { CS_STOCK_NO_ROOM, "no_room" },		\
			 { CS_STOCK_SWITCHING_OFF, "switching_off" })

#define cs_show_large_why(v)						\
	__print_symbolic(v, { CS_LARGE_NO_ROOM, "no_room" },		\
			 { CS_LARGE_NO_SWAP_PAGES, "no_swap_pages" })

/* A CPU took a cluster to allocate from (or set one aside as its spare). */
TRACE_EVENT(cluster_take,
	    TP_PROTO(unsigned int type, unsigned long cluster, int order,
		     enum cs_take_from from, bool spare),
	    TP_ARGS(type, cluster, order, from, spare),
	    TP_STRUCT__entry(__field(unsigned int, type)
			     __field(unsigned long, cluster)
			     __field(int, order)
			     __field(int, from)
			     __field(bool, spare)),
	    TP_fast_assign(__entry->type = type;
			   __entry->cluster = cluster;
			   __entry->order = order;
			   __entry->from = from;
			   __entry->spare = spare;),
	    TP_printk("type=%u cluster=%lu order=%d from=%s%s",
		      __entry->type, __entry->cluster, __entry->order,
		      cs_show_take_from(__entry->from),
		      __entry->spare ? " spare" : "")
);

/* A cluster moved between lists (debugfs stats: list_moves). */
TRACE_EVENT(cluster_move,
	    TP_PROTO(unsigned int type, unsigned long cluster, int order,
		     enum cs_list from, enum cs_list to),
	    TP_ARGS(type, cluster, order, from, to),
	    TP_STRUCT__entry(__field(unsigned int, type)
			     __field(unsigned long, cluster)
			     __field(int, order)
			     __field(int, from)
			     __field(int, to)),
	    TP_fast_assign(__entry->type = type;
			   __entry->cluster = cluster;
			   __entry->order = order;
			   __entry->from = from;
			   __entry->to = to;),
	    TP_printk("type=%u cluster=%lu order=%d %s->%s",
		      __entry->type, __entry->cluster, __entry->order,
		      cs_show_list(__entry->from), cs_show_list(__entry->to))
);

/* An allocation handed to the kernel's allocator (alloc.stock_fallback). */
TRACE_EVENT(stock_fallback,
	    TP_PROTO(int order, enum cs_stock_why why),
	    TP_ARGS(order, why),
	    TP_STRUCT__entry(__field(int, order)
			     __field(int, why)),
	    TP_fast_assign(__entry->order = order;
			   __entry->why = why;),
	    TP_printk("order=%d why=%s", __entry->order,
		      cs_show_stock_why(__entry->why))
);

/* A large folio got no slot and will be split (large_fallback.order<N>). */
TRACE_EVENT(large_refused,
	    TP_PROTO(int order, enum cs_large_why why),
	    TP_ARGS(order, why),
	    TP_STRUCT__entry(__field(int, order)
			     __field(int, why)),
	    TP_fast_assign(__entry->order = order;
			   __entry->why = why;),
	    TP_printk("order=%d why=%s", __entry->order,
		      cs_show_large_why(__entry->why))
);

/* The switch flipped (/sys/kernel/clusterswap/enabled). */
TRACE_EVENT(switch_flip,
	    TP_PROTO(bool on),
	    TP_ARGS(on),
	    TP_STRUCT__entry(__field(bool, on)),
	    TP_fast_assign(__entry->on = on;),
	    TP_printk("%s", __entry->on ? "on" : "off")
);

/*
 * The module tripped to stock (/sys/kernel/clusterswap/tripped): a check
 * found it inconsistent, and it switches off.  Once per trip.
 */
TRACE_EVENT(tripped,
	    TP_PROTO(const char *reason),
	    TP_ARGS(reason),
	    TP_STRUCT__entry(__array(char, reason, 96)),
	    TP_fast_assign(strscpy(__entry->reason, reason, sizeof(__entry->reason));),
	    TP_printk("%s", __entry->reason)
);

/*
 * A device in swapoff was fenced (no allocation of the module is still in
 * flight on it) and the CPUs handed back what they held there: once per
 * swapoff, again if a device change comes while it lasts (harmless).
 */
TRACE_EVENT(swapoff_fence,
	    TP_PROTO(unsigned int type, unsigned long credit),
	    TP_ARGS(type, credit),
	    TP_STRUCT__entry(__field(unsigned int, type)
			     __field(unsigned long, credit)),
	    TP_fast_assign(__entry->type = type;
			   __entry->credit = credit;),
	    TP_printk("type=%u credit_returned=%lu", __entry->type, __entry->credit)
);

#endif /* _CLUSTERSWAP_TRACE_H */

/* This part must be outside the header guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH clusterswap
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>

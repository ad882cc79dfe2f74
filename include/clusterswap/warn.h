/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's own "cannot happen" checks.  A production box may run with
 * panic_on_warn, and a splat there for a state the module survives (it leaks
 * a slot rather than free one in use) would take the machine down: on users'
 * machines such a check logs one clear line, for the first that fires, and
 * trips the module to stock (include/clusterswap/trip.h).  Test builds
 * (CS_SELFTEST) make each a full WARN, and trip too; the in-VM suite fails a
 * test on either.
 */
#ifndef _CLUSTERSWAP_WARN_H
#define _CLUSTERSWAP_WARN_H

#include <linux/compiler.h>
#include <linux/types.h>

/* Logs (test builds: WARNs) and trips: module/trip.c.  Context: any. */
__printf(1, 2) void cs_inconsistent(const char *fmt, ...);

#define cs_warn_once(cond, fmt, ...) ({						\
	bool __c = !!(cond);							\
									\
	if (unlikely(__c))							\
		cs_inconsistent(fmt, ##__VA_ARGS__);				\
	unlikely(__c);								\
})

#endif /* _CLUSTERSWAP_WARN_H */

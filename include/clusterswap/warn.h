/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's own "cannot happen" checks.  A production box may run with
 * panic_on_warn, and a splat there for a state the module survives (it leaks
 * a slot rather than free one in use) would take the machine down: on users'
 * machines such a check logs one clear line, once.  Test builds
 * (CS_SELFTEST) make it a full WARN; the in-VM suite fails a test on either.
 */
#ifndef _CLUSTERSWAP_WARN_H
#define _CLUSTERSWAP_WARN_H

#include <linux/bug.h>
#include <linux/printk.h>

#ifdef CS_SELFTEST
#define cs_warn_once(cond, fmt, ...)	WARN_ONCE(cond, "clusterswap: " fmt, ##__VA_ARGS__)
#else
#define cs_warn_once(cond, fmt, ...) ({						\
	bool __c = !!(cond);							\
									\
	if (unlikely(__c))							\
		pr_err_once("clusterswap: internal inconsistency: " fmt,	\
			    ##__VA_ARGS__);					\
	unlikely(__c);								\
})
#endif

#endif /* _CLUSTERSWAP_WARN_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trip to stock: when one of the module's "cannot happen" checks fires,
 * or debugfs check finds an inconsistency in a reading that nothing moved
 * during, the module stops serving through the same safe switch-off as the
 * knob's, and stays off until reloaded or until root clears
 * /sys/kernel/clusterswap/tripped.  Stock code and the module keep the same
 * fields under the same locks: what the module leaves, stock continues.
 */
#ifndef _CLUSTERSWAP_TRIP_H
#define _CLUSTERSWAP_TRIP_H

#include <linux/compiler.h>
#include <linux/types.h>

/*
 * Record why (the first reason only), log it, fire the "tripped" tracepoint
 * and queue the switch-off.  Context: any; never sleeps.
 */
__printf(1, 2) void cs_trip(const char *fmt, ...);

/* Whether the module has tripped since load, or since root last cleared it. */
bool cs_tripped(void);

/* "YYYY-MM-DD HH:MM:SS UTC: reason\n" once tripped, "" until then. */
ssize_t cs_trip_show(char *buf);

/*
 * Root cleared it: the switch may go on again.  Waits for a switch-off the
 * trip queued.  Context: process context, may sleep.
 */
void cs_trip_clear(void);

/*
 * Module exit (the last step) or a failed init: a trip after it is still
 * recorded and logged, but queues no switch-off.
 */
void cs_trip_exit(void);

#endif /* _CLUSTERSWAP_TRIP_H */

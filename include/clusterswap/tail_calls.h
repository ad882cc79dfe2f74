/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The load's check that no function the module calls through the gate ends
 * in a jump to a function it redirects (module/tail_calls.c).
 */
#ifndef _CLUSTERSWAP_TAIL_CALLS_H
#define _CLUSTERSWAP_TAIL_CALLS_H

#include <linux/types.h>

struct cs_hook;

int cs_refuse_tail_calls(const struct cs_hook *redirects, unsigned int nr);

#ifdef CS_SELFTEST
int cs_code_jumps_to(const u8 *code, size_t len, unsigned long base,
		     const unsigned long *targets, unsigned int nr,
		     size_t *at, unsigned int *which);
#endif

#endif /* _CLUSTERSWAP_TAIL_CALLS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A CPU's place in one device, packed in one word so that it can be read and
 * cleared from another CPU: cluster or slot index << 8 | (type + 1); 0 is
 * "none".  The same on every line.
 */
#ifndef _CLUSTERSWAP_PACK_H
#define _CLUSTERSWAP_PACK_H

#include <linux/build_bug.h>
#include <linux/swap.h>

static inline unsigned long cs_pack(unsigned int type, unsigned long pos)
{
	/* type + 1 in the low byte, 0 meaning "none". */
	BUILD_BUG_ON(MAX_SWAPFILES + 1 > 0xff);
	return pos << 8 | (type + 1);
}

static inline bool cs_unpack(unsigned long v, unsigned int *type, unsigned long *pos)
{
	if (!v)
		return false;
	*type = (v & 0xff) - 1;
	*pos = v >> 8;
	return true;
}

#endif /* _CLUSTERSWAP_PACK_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Self-tests of the 6.1 line's pure logic (test builds only): none yet, as
 * every call is passed through; the allocator brings its own.
 */
#include <clusterswap/selftest.h>

void cs_line_selftest(struct cs_selftest *t)
{
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The module's tracepoints (include/clusterswap/trace.h), defined here once.
 */
#define CREATE_TRACE_POINTS
#include <clusterswap/trace.h>

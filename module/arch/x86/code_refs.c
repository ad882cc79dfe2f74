// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 has no reader of the variables a function's code reaches: Debian's
 * x86-64 kernels of both lines are built with KALLSYMS_ALL, so kallsyms
 * lists every variable the module needs.  A kernel built without it is
 * refused at load, naming the variable it lacks (module/symbols.c).
 */
#include <linux/errno.h>

#include <clusterswap/arch.h>

int cs_arch_code_refs(const u8 *code, unsigned long at, size_t size,
		      unsigned long callee, struct cs_code_refs *refs)
{
	return -EOPNOTSUPP;
}

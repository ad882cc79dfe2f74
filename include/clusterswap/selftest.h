/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Self-tests of the module's pure logic, run at load in test builds only
 * (make CS_SELFTEST=y; tests/guest/specs/self_tests_pass.sh): table-driven
 * checks of parsing, the kernel gate's verdicts, and each line's packing and
 * credit arithmetic.  A test build that fails one refuses to load; users'
 * builds contain none of this.
 */
#ifndef _CLUSTERSWAP_SELFTEST_H
#define _CLUSTERSWAP_SELFTEST_H

#include <linux/printk.h>
#include <linux/types.h>

struct cs_selftest {
	unsigned int passed;
	unsigned int failed;
};

/* One check; a failure is named in the kernel log. */
#define cs_expect(t, cond, fmt, ...) do {					\
	struct cs_selftest *__t = (t);					\
									\
	if (cond) {							\
		__t->passed++;						\
	} else {							\
		__t->failed++;						\
		pr_err("selftest: %s:%d: " fmt "\n", __FILE__, __LINE__,	\
		       ##__VA_ARGS__);					\
	}								\
} while (0)

#ifdef CS_SELFTEST
/* Functions that are static in users' builds, visible to the self-tests. */
#define CS_VISIBLE_IF_SELFTEST
int cs_parse_switch(const char *buf, size_t count, bool *on);
int cs_selftest(void);
void cs_selftest_alloc(struct cs_selftest *t);
#else
#define CS_VISIBLE_IF_SELFTEST static
static inline int cs_selftest(void)
{
	return 0;
}
#endif

#endif /* _CLUSTERSWAP_SELFTEST_H */

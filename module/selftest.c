// SPDX-License-Identifier: GPL-2.0
/*
 * Self-tests of the line-independent pure logic, and the runner that adds
 * the kernel line's own (module/<line>/selftest.c).  Built only in test
 * builds (make CS_SELFTEST=y): see include/clusterswap/selftest.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/string.h>

#include <clusterswap/compat.h>
#include <clusterswap/control.h>
#include <clusterswap/selftest.h>

/* The switch accepts exactly "0" or "1", with at most one newline. */
static void cs_selftest_parse_switch(struct cs_selftest *t)
{
	static const struct {
		const char *in;
		int err;
		bool on;
	} cases[] = {
		{ "0", 0, false },	{ "1", 0, true },
		{ "0\n", 0, false },	{ "1\n", 0, true },
		{ "", -EINVAL },	{ "\n", -EINVAL },
		{ "2", -EINVAL },	{ "10", -EINVAL },
		{ "1\n\n", -EINVAL },	{ " 1", -EINVAL },
		{ "on", -EINVAL },	{ "-1", -EINVAL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool on = !cases[i].on;	/* must be left alone on error */
		bool before = on;
		int err = cs_parse_switch(cases[i].in, strlen(cases[i].in), &on);

		cs_expect(t, err == cases[i].err, "switch \"%s\": %d, want %d",
			  cases[i].in, err, cases[i].err);
		if (!cases[i].err)
			cs_expect(t, on == cases[i].on, "switch \"%s\" read as %d",
				  cases[i].in, on);
		else
			cs_expect(t, on == before, "switch \"%s\" changed the value on error",
				  cases[i].in);
	}
}

/* The gate's verdict on release strings, for the line this build is for. */
static void cs_selftest_gate(struct cs_selftest *t)
{
	bool is_612 = !strcmp(CS_KERNEL_LINE_NAME, "6.12");
	const struct {
		const char *release;
		enum cs_gate want;
	} cases[] = {
		{ "6.12.117+deb13-amd64", is_612 ? CS_GATE_OK : CS_GATE_OTHER_LINE },
		{ "6.12.0", is_612 ? CS_GATE_OK : CS_GATE_OTHER_LINE },
		{ "6.1.0-56-amd64", is_612 ? CS_GATE_OTHER_LINE : CS_GATE_OK },
		{ "6.1.192", is_612 ? CS_GATE_OTHER_LINE : CS_GATE_OK },
		{ "6.14.0", CS_GATE_ALREADY },
		{ "6.18.3-1-amd64", CS_GATE_ALREADY },
		{ "7.2.13+deb14-amd64", CS_GATE_ALREADY },
		{ "6.13.12", CS_GATE_UNSUPPORTED },
		{ "6.10.0", CS_GATE_UNSUPPORTED },
		{ "6.6.80", CS_GATE_UNSUPPORTED },
		{ "6.2.0", CS_GATE_UNSUPPORTED },
		{ "5.15.170", CS_GATE_UNSUPPORTED },
		{ "6", CS_GATE_UNPARSABLE },
		{ "", CS_GATE_UNPARSABLE },
		{ "linux", CS_GATE_UNPARSABLE },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		enum cs_gate got = cs_gate_verdict(cases[i].release);

		cs_expect(t, got == cases[i].want, "gate \"%s\": %d, want %d",
			  cases[i].release, got, cases[i].want);
	}
}

/**
 * cs_selftest() - Run every self-test; refuse to load if one fails.
 *
 * Context: module init, before anything is hooked.
 * Return: 0, or -EINVAL when a check failed (each is in the log).
 */
int cs_selftest(void)
{
	struct cs_selftest t = { 0 };

	cs_selftest_parse_switch(&t);
	cs_selftest_gate(&t);
	cs_selftest_alloc(&t);
	pr_info("selftest: %u passed, %u failed\n", t.passed, t.failed);
	return t.failed ? -EINVAL : 0;
}

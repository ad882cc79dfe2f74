// SPDX-License-Identifier: GPL-2.0
/*
 * The load-time half of the kernel gate (the build-time half is compat.h):
 * the running kernel must be of the line this module was built for, and that
 * line must be one clusterswap supports.  Anything else is refused with one
 * clear line in the kernel log and -EOPNOTSUPP.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/utsname.h>
#include <linux/kernel.h>

#include <clusterswap/compat.h>
#include <clusterswap/control.h>

/*
 * For tests only: check this release string instead of the running kernel's,
 * to prove that an unsupported kernel is refused.  Not visible in sysfs.
 */
static char *assume_release;
module_param(assume_release, charp, 0);
MODULE_PARM_DESC(assume_release, "test only: gate on this kernel release string");

/*
 * For tests only: check this kernel version string (uname -v) instead of the
 * running kernel's, to prove that a PREEMPT_RT kernel is refused.
 */
static char *assume_version;
module_param(assume_version, charp, 0);
MODULE_PARM_DESC(assume_version, "test only: gate on this kernel version string");

/*
 * arm64 passes the whole suite in an arm64 guest, but only under emulation
 * on an x86 host, which never shows the guest arm64's weaker memory
 * ordering (module/README.md, section 12): until the suite has run on arm64
 * hardware, the module loads there only when asked to, for testing.
 */
static bool arm64_unverified;
module_param(arm64_unverified, bool, 0);
MODULE_PARM_DESC(arm64_unverified, "arm64 only: load although not yet run on arm64 hardware (testing)");

static char cs_release[__NEW_UTS_LEN + 1];

const char *cs_kernel_release(void)
{
	return cs_release;
}

/*
 * "6.12.117+deb13-amd64" is of line 6.12; "6.1.0-56-amd64" (Debian 12 names
 * its ABI, not the stable release) is of line 6.1.
 */
static bool cs_release_line(const char *release, unsigned int *major,
			    unsigned int *minor)
{
	return sscanf(release, "%u.%u", major, minor) == 2;
}

/**
 * cs_gate_verdict() - What the gate says of a kernel release string.
 * @release: a kernel release, as uname -r prints it.
 *
 * Return: CS_GATE_OK for a release of the line this module was built for,
 * else why it is refused.
 */
enum cs_gate cs_gate_verdict(const char *release)
{
	unsigned int major, minor;
	char line[16];

	if (!cs_release_line(release, &major, &minor))
		return CS_GATE_UNPARSABLE;
	if (major > 6 || (major == 6 && minor >= 14))
		return CS_GATE_ALREADY;
	snprintf(line, sizeof(line), "%u.%u", major, minor);
	if (strcmp(line, "6.12") && strcmp(line, "6.1"))
		return CS_GATE_UNSUPPORTED;
	if (strcmp(line, CS_KERNEL_LINE_NAME))
		return CS_GATE_OTHER_LINE;
	return CS_GATE_OK;
}

/**
 * cs_kernel_gate() - Refuse a kernel this build does not support.
 *
 * Context: module init.
 * Return: 0, or -EOPNOTSUPP after logging why.
 */
int cs_kernel_gate(void)
{
	const char *version = assume_version ?: init_utsname()->version;

	strscpy(cs_release, assume_release ?: init_utsname()->release,
		sizeof(cs_release));

	/*
	 * The build refuses PREEMPT_RT (compat.h), and the module loader a
	 * build for another flavour; this is for a forced load, which skips
	 * that check.  An RT kernel says so in its version: "#1 SMP PREEMPT_RT".
	 */
	if (strstr(version, "PREEMPT_RT")) {
		pr_err("kernel %s is a PREEMPT_RT kernel, which is not supported; refusing to load\n",
		       cs_release);
		return -EOPNOTSUPP;
	}

	if (IS_ENABLED(CONFIG_ARM64) && !arm64_unverified) {
		pr_err("arm64 support has not yet run on arm64 hardware, only under emulation; refusing to load (arm64_unverified=1 loads it, for testing only)\n");
		return -EOPNOTSUPP;
	}

	switch (cs_gate_verdict(cs_release)) {
	case CS_GATE_OK:
		return 0;
	case CS_GATE_UNPARSABLE:
		pr_err("cannot parse kernel release '%s'; refusing to load\n",
		       cs_release);
		break;
	case CS_GATE_ALREADY:
		pr_err("kernel %s already has the cluster swap allocator (6.14+); refusing to load\n",
		       cs_release);
		break;
	case CS_GATE_UNSUPPORTED:
		pr_err("kernel %s is not supported (supported: 6.12.y, 6.1.y); refusing to load\n",
		       cs_release);
		break;
	case CS_GATE_OTHER_LINE:
		pr_err("built for the %s line, running %s; rebuild for this kernel (dkms does); refusing to load\n",
		       CS_KERNEL_LINE_NAME, cs_release);
		break;
	}
	return -EOPNOTSUPP;
}

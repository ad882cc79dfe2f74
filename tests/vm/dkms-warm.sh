#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run, once, the build that an arm64 target's DKMS test makes in its guest
# (tests/guest/specs/dkms_in_the_guest_builds_the_module_the_tests_load.sh):
# "dkms add" and "dkms build" of the shipped tree, on the kernel the target
# boots, by that kernel's own compiler, through the suite's compiler cache
# (root-warm.sh).  The test's build then finds in the cache what this one
# compiled, as in any run after the first: the same compiler, sources, paths
# and options give the same objects.  Compiling under emulation of another
# architecture takes about ten minutes on a 2-core host; check.sh runs this
# beside the amd64 guests (arm64_prep), so that a cold run does not pay them
# after those guests.  Nothing else is checked here: what the build gives is
# the test's to check.  A tree built so once is not built again while its
# compiler cache is kept (the digest beside it).
#
#   dkms-warm.sh TARGET             an arm64 target (trixie-arm64, ...)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
target=${1:?usage: dkms-warm.sh TARGET}
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
. "$here/targets.sh"
suite=$(target_root "$target")
kver=$(root_kernel "$cache/roots/$suite" "$(target_flavour "$target")")

job=$cache/jobs/$target-dkms-warm
rm -rf "$job"
mkdir -p "$job"
# The tree the test installs from (suite.sh: the job's src).
"$top/tests/ship-tree.sh" "$job/src"
digest=$(tree_digest "$job/src")
built=$cache/ccache/$suite/dkms-warm-$kver.digest
if [ "$(cat "$built" 2>/dev/null)" = "$digest" ]; then
	echo "dkms-warm: this tree's DKMS build for $kver is in the $suite compiler cache"
	exit 0
fi
cat >"$job/run.sh" <<RUN
set -e
ver=\$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' /job/src/dkms.conf)
start=\$(date +%s)
dkms add /job/src >/job/out/dkms.log 2>&1 || { cat /job/out/dkms.log; exit 1; }
dkms build -m clusterswap -v "\$ver" -k $kver >>/job/out/dkms.log 2>&1 ||
	{ tail -n 30 /job/out/dkms.log; exit 1; }
echo "dkms-warm: dkms build for $kver in \$((\$(date +%s) - start)) s"
RUN
"$here/root-warm.sh" "$suite"
echo "dkms-warm: dkms build in a $target guest, into the $suite compiler cache"
"$here/run-vm.sh" "$suite" "$kver" "$job" 3600 ||
	{ tail -n 30 "$job/serial.log"; echo "dkms-warm: the guest did not finish"; exit 1; }
cat "$job/out/console.log"
[ "$(cat "$job/out/rc")" = 0 ] || { echo "dkms-warm: the build in the guest failed"; exit 1; }
echo "$digest" >"$built"

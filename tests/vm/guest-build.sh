#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build clusterswap.ko in a guest of an arm64 target, by that kernel's own
# compiler, for a kernel its build root has no cross compiler of
# (targets.sh: cross_cc_is_kernels).  Debian 12's cross gcc-12 is
# 12.2.0-14, its arm64 kernels' gcc-12 12.2.0-14+deb12u1, whose fix of
# CVE-2023-4039 changes every stack-protected function's frame: a module
# cross-built there would not be the module a user's DKMS builds, and the
# suite must test the one users get.
#
#   guest-build.sh TARGET KVER      prints the module's path on its last line
#
# The build is the one DKMS makes (make against the kernel's build tree, the
# shipped tree: tests/ship-tree.sh), through the build root's compiler cache
# as every guest build (root-warm.sh), then put through the host's gate
# check (tests/host/gate_check.py).  The module is kept in the cache,
# under the shipped tree's digest: a tree built once is not built again.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
target=${1:?usage: guest-build.sh TARGET KVER}
kver=${2:?usage: guest-build.sh TARGET KVER}
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
. "$here/targets.sh"
suite=$(target_root "$target")

job=$cache/jobs/$target-build
# One build at a time per target: two suites of one target may run side by
# side (check.sh: the arm64 DKMS test beside its target's tests), and the
# second finds the module the first built.
mkdir -p "$cache/jobs"
exec 9>"$job.lock"
flock 9
rm -rf "$job"
mkdir -p "$job"
"$top/tests/ship-tree.sh" "$job/src"
digest=$(tree_digest "$job/src")
out=$cache/out/$target/$kver/guest-$digest
if [ -s "$out/clusterswap.ko" ]; then
	echo "$out/clusterswap.ko"
	exit 0
fi
cat >"$job/run.sh" <<RUN
set -e
cp -a /job/src /tmp/src
start=\$(date +%s)
make -C /lib/modules/$kver/build M=/tmp/src -j"\$(nproc)" modules >/job/out/make.log 2>&1 ||
	{ tail -n 30 /job/out/make.log; exit 1; }
echo "guest-build: built in \$((\$(date +%s) - start)) s"
cp /tmp/src/clusterswap.ko /job/out/
RUN
echo "guest-build: building clusterswap.ko in a $target guest (minutes under emulation)" >&2
"$here/root-warm.sh" "$suite"
# Its limit grows with the suite's (SUITE_TIME_SCALE: check.sh's arm64 work
# beside the rest runs at the lowest priority).  A build tests nothing of
# the gate's pointer authentication, and is quicker without it (run-vm.sh).
VM_PAUTH=off "$here/run-vm.sh" "$suite" "$kver" "$job" $((1800 * ${SUITE_TIME_SCALE:-1})) >&2 ||
	{ tail -n 30 "$job/serial.log" >&2; echo "guest-build: the guest did not finish" >&2; exit 1; }
cat "$job/out/console.log" >&2
if [ "$(cat "$job/out/rc")" != 0 ] || ! [ -s "$job/out/clusterswap.ko" ]; then
	echo "guest-build: the build in the guest failed" >&2
	exit 1
fi
# The static gate check, as on every module the host builds (check.sh).
python3 "$top/tests/host/gate_check.py" "$job/out/clusterswap.ko" >&2 ||
	{ echo "guest-build: the module built in the guest fails the gate check" >&2; exit 1; }
# Only the newest tree's module is kept.
rm -rf "$cache/out/$target/$kver"/guest-*
mkdir -p "$out"
cp "$job/out/clusterswap.ko" "$out/"
echo "$out/clusterswap.ko"

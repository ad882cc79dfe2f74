#!/bin/bash
# make demo: boot Debian 13's stock kernel in QEMU, install clusterswap in it
# through DKMS, swap with it, and show what it shows.  Run as root on Debian 12;
# installs what it needs.  About 8 minutes the first time (the build root, and
# a DKMS build on an emulated CPU), under 3 after (the guest's compiler cache,
# root-warm.sh, is warm).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
export CLUSTERSWAP_CACHE=$cache
[ "$(id -u)" = 0 ] || { echo "make demo: run as root (debootstrap, chroot, QEMU)"; exit 1; }
for tool in qemu-system-x86_64 debootstrap cpio xz; do
	command -v $tool >/dev/null && continue
	echo "demo: installing QEMU, debootstrap and archive tools"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends qemu-system-x86 debootstrap cpio xz-utils zstd >/dev/null
	break
done

echo "demo: the Debian 13 build root (cached in $cache; the first time takes ~3 minutes)"
"$top/tests/vm/mkroot.sh" trixie
"$top/tests/vm/root-warm.sh" trixie
root=$cache/roots/trixie
. "$top/tests/vm/targets.sh"
kver=$(root_kernel "$root")
job=$cache/jobs/demo
rm -rf "$job"
mkdir -p "$job/bin"
"$top/tests/ship-tree.sh" "$job/src"
rm -rf "$root/tmp/cs-demo"
mkdir -p "$root/tmp/cs-demo"
cp "$top/tests/guest/programs/verifier.c" "$root/tmp/cs-demo/"
chroot "$root" gcc -O2 -static -pthread -o /tmp/cs-demo/verifier /tmp/cs-demo/verifier.c
cp "$root/tmp/cs-demo/verifier" "$job/bin/"
cp "$top/tests/demo/guest.sh" "$job/run.sh"

echo "demo: booting $kver (2 CPUs, 2 GiB) and running the demo in it"
read -r accel accel_why < <("$top/tests/vm/accel.sh")
echo "demo: the guest runs on ${accel^^}${accel_why:+ ($accel_why)}"
VM_ACCEL=$accel "$top/tests/vm/run-vm.sh" trixie "$kver" "$job" 900 &
vm=$!
# Show the guest's progress as it writes it.
touch "$job/out/console.log" 2>/dev/null || true
while kill -0 $vm 2>/dev/null; do
	sleep 2
	[ -f "$job/out/console.log" ] && break
done
tail -n +1 -f "$job/out/console.log" --pid=$vm 2>/dev/null || true
wait $vm
[ "$(cat "$job/out/rc" 2>/dev/null)" = 0 ] || { echo "demo: the demo failed in the guest"; exit 1; }
echo "demo: done"

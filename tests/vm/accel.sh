#!/bin/bash
# The accelerator the guests run on, probed once per host and cached.
#
#   accel.sh     prints "kvm" or "tcg REASON" on one line
#
# KVM when /dev/kvm is there and a short boot of Debian 13's stock kernel
# with it runs a job to its end; otherwise TCG, with the reason (no
# /dev/kvm, or the probe boot failed: this project's 2-core host has a
# /dev/kvm whose hypervisor cannot boot a stock kernel, and a lent
# machine's nested KVM stopped the bench bundle's kernel with an emulation
# failure).  The answer is kept in the cache, keyed by the host's name,
# kernel and CPU model; CLUSTERSWAP_ACCEL=kvm|tcg decides without a probe.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}

case ${CLUSTERSWAP_ACCEL:-auto} in
kvm) echo kvm; exit 0 ;;
tcg) echo "tcg CLUSTERSWAP_ACCEL=tcg"; exit 0 ;;
auto) ;;
*) echo "accel: CLUSTERSWAP_ACCEL is kvm, tcg or auto, not '$CLUSTERSWAP_ACCEL'" >&2; exit 2 ;;
esac
if [ ! -e /dev/kvm ]; then
	echo "tcg no /dev/kvm"
	exit 0
fi
key=$( (hostname; uname -r; grep -m 1 '^model name' /proc/cpuinfo) | sha256sum | cut -c1-16)
answer=$cache/accel/$key
if [ ! -s "$answer" ]; then
	echo "accel: probing KVM with one short boot of Debian 13's kernel (once per host)" >&2
	"$here/mkroot.sh" trixie >&2
	. "$here/targets.sh"
	kver=$(root_kernel "$cache/roots/trixie")
	job=$cache/jobs/accel-probe
	rm -rf "$job"
	mkdir -p "$job" "$(dirname "$answer")"
	echo 'echo "probe: $(nproc) vCPUs"' >"$job/run.sh"
	if VM_ACCEL=kvm "$here/run-vm.sh" trixie "$kver" "$job" 90 >"$job/probe.log" 2>&1 &&
		[ "$(cat "$job/out/rc" 2>/dev/null)" = 0 ]; then
		echo kvm >"$answer"
	else
		echo "tcg /dev/kvm did not boot Debian 13's kernel (probed $(date -u +%F); remove $answer to probe again)" >"$answer"
	fi
	rm -rf "$job"
fi
cat "$answer"

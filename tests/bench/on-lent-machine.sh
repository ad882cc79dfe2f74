#!/bin/sh
# The many-core measurement on a lent machine (the device tool: 16 cores,
# no network, one call of at most 10 minutes), from the repository root,
# with the archive of make bench-bundle carried beside the tree:
#
#   tests/bench/on-lent-machine.sh [ARCHIVE]     results under $OUT
#
# Unpacks the bundle and probes KVM with one short run.  Then two runs
# within the call's time:
#  - the measurement, the most vCPUs first so that a run cut short still
#    has them: under KVM at 16, 8, 4 and 1 vCPUs with the arms unloaded,
#    redirect, on and upstream; under TCG at 16 vCPUs only, with unloaded,
#    redirect and on, the bundle's small size (its earlier runs there have
#    upstream at 16, 8 and 4);
#  - a profile at 16 vCPUs: the arms unloaded, redirect and on under perf,
#    to say where the time between them goes (both workloads under KVM,
#    the verifier under TCG).
# Environment: LENT_SECONDS (the measurement's --seconds, default 240 under
# KVM, 200 under TCG), LENT_LIMIT (the limit of the probe and the two runs,
# default 500 s; unpacking and packing the results come on top),
# LENT_SMP and LENT_PROFILE_SMP (the vCPU counts, for a dry run on a small
# host).
# $OUT ends with three files: run.log, host.txt and all.tar.gz (everything,
# the results folders included).
set -eu
archive=${1:-build/clusterswap-bench.tar.xz}
: "${OUT:?OUT: where the results go}"
# What the host is; a tool it lacks costs only its line.
set +e
{
	date -u
	uname -a
	echo "cores: $(nproc)"
	grep -m 1 '^model name' /proc/cpuinfo
	grep -m 1 '^flags' /proc/cpuinfo
	free -m
	ls -l /dev/kvm 2>&1
	id
} >"$OUT/host.txt" 2>&1
set -e
work=$(mktemp -d)
if command -v xz >/dev/null; then
	tar -xJf "$archive" -C "$work"
else
	python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$archive" "$work"
fi
run=$work/clusterswap-bench/run
t0=$(date +%s)
# left [RESERVE]: seconds of LENT_LIMIT left, less RESERVE; at least 1
# (timeout 0 would mean no limit).
left() {
	_l=$((${LENT_LIMIT:-500} - ($(date +%s) - t0) - ${1:-0}))
	[ "$_l" -gt 0 ] || _l=1
	echo "$_l"
}
# KVM, if one short boot with it runs a workload.
if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
	timeout 120 "$run" --accel kvm --smp 1 --rounds 1 --arms unloaded --workloads pageout \
		--size small --out "$OUT/kvm-probe" >"$OUT/kvm-probe.log" 2>&1; then
	set -- --accel kvm --smp "${LENT_SMP:-16,8,4,1}" --arms unloaded,redirect,on,upstream \
		--seconds "${LENT_SECONDS:-240}" --workloads verifier,pageout
	profile="--accel kvm --profile 1 --workloads verifier,pageout"
	reserve=180
else
	set -- --accel tcg --size small --smp "${LENT_SMP:-16}" --arms unloaded,redirect,on \
		--seconds "${LENT_SECONDS:-200}" --workloads verifier,pageout
	profile="--accel tcg --size small --profile 1 --workloads verifier"
	reserve=120
fi
rc=0
# The measurement leaves the profile its reserve: a boot, one round of
# each arm, and a profiled run of each (perf needs 10 s to start in each).
timeout -k 10 "$(left "$reserve")" "$run" --rounds 30 --out "$OUT/results" "$@" \
	>"$OUT/run.log" 2>&1 || rc=$?
echo "rc $rc" >>"$OUT/run.log"
if [ "$(left)" -gt 60 ]; then
	# shellcheck disable=SC2086
	timeout -k 10 "$(left)" "$run" --smp "${LENT_PROFILE_SMP:-16}" --rounds 1 --arms unloaded,redirect,on $profile \
		--out "$OUT/profile" >>"$OUT/run.log" 2>&1 || echo "profile: rc $?" >>"$OUT/run.log"
fi
tail -n 80 "$OUT/run.log"
rm -rf "$work"
# The device tool brings back only a few files: everything in one archive,
# beside the two a reader wants first.
tar -czf "$work.tar.gz" -C "$OUT" .
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.log ! -name host.txt -exec rm -rf {} +
mv "$work.tar.gz" "$OUT/all.tar.gz"
exit $rc

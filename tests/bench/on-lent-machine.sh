#!/bin/sh
# The many-core measurement on a lent machine (the device tool: 16 cores,
# no network, one call of at most 10 minutes), from the repository root,
# with the archive of make bench-bundle carried beside the tree:
#
#   tests/bench/on-lent-machine.sh [ARCHIVE]     results under $OUT
#
# Unpacks the bundle and runs it at 16, 8 and 4 vCPUs (the most first, so a
# run cut short still has them), the arms unloaded, on and upstream, and
# redirect where KVM makes time for it, within a time budget.  Under TCG the
# runs are the bundle's small size, so that each vCPU count gets several
# rounds.  Environment: LENT_SMP (default 16,8,4), LENT_SECONDS (the
# bundle's --seconds, default 330), LENT_LIMIT (the whole run's limit,
# default 480 s).  $OUT ends with three files: run.log, host.txt and
# all.tar.gz (everything, the results folder included).
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
# KVM, if one short boot with it runs a workload.
if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
	timeout 120 "$run" --accel kvm --smp 1 --rounds 1 --arms unloaded --workloads pageout \
		--size small --out "$OUT/kvm-probe" >"$OUT/kvm-probe.log" 2>&1; then
	set -- --arms unloaded,on,upstream,redirect --accel kvm
else
	set -- --arms unloaded,on,upstream --accel tcg --size small
fi
rc=0
timeout "${LENT_LIMIT:-480}" "$run" --smp "${LENT_SMP:-16,8,4}" --rounds 30 \
	--seconds "${LENT_SECONDS:-330}" --workloads verifier,pageout --out "$OUT/results" "$@" \
	>"$OUT/run.log" 2>&1 || rc=$?
echo "rc $rc" >>"$OUT/run.log"
tail -n 80 "$OUT/run.log"
rm -rf "$work"
# The device tool brings back only a few files: everything in one archive,
# beside the two a reader wants first.
tar -czf "$work.tar.gz" -C "$OUT" .
find "$OUT" -mindepth 1 -maxdepth 1 ! -name run.log ! -name host.txt -exec rm -rf {} +
mv "$work.tar.gz" "$OUT/all.tar.gz"
exit $rc

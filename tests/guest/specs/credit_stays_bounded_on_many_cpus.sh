# On a machine with many CPUs, the inuse_pages credit the CPUs hold (which
# /proc/swaps counts as used) stays bounded: the batch a CPU takes is 16
# clusters' worth of slots shared out among the possible CPUs, at most two
# clusters and never below 64 slots.
# Booted with 64 possible CPUs of which 2 are brought up (QEMU's -smp 64
# with maxcpus=2 on the kernel's command line: 6.12 counts the hot-pluggable
# CPUs QEMU's firmware lists only under a hypervisor it knows, not under
# TCG), the batch is an eighth of two
# clusters; PMD THP, larger than that batch, still swaps out whole through
# the module, every page verifies, and each device's credit stays within
# two batches per online CPU while swapping and after.
# An arm64 guest has its own limit: emulated on an x86 host, the test took
# 93 and 142 s in two whole-suite runs on 6.12 arm64, 153 s on 6.1 arm64
# with no other guest running, and 298 s on 6.1 arm64 beside the DKMS
# test's build in another guest (make check KERNELS=6.1-arm64); the limit
# is 3x the slowest.
# Budget: 16 s on 6.12, 16 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 18.8x the slowest.
TIMEOUT_credit_stays_bounded_on_many_cpus=300
TIMEOUT_ARM64_credit_stays_bounded_on_many_cpus=900
SMP_credit_stays_bounded_on_many_cpus=64
APPEND_credit_stays_bounded_on_many_cpus="maxcpus=2"
BOOT_credit_stays_bounded_on_many_cpus=own
NEEDS_credit_stays_bounded_on_many_cpus=allocator

# credit_within BOUND WHEN: device 0's credit is at most BOUND slots.
credit_within() {
	_c=$(summary_value credit)
	[ -n "$_c" ] || fail "no credit line in $CSD/devices/0/summary"
	[ "$_c" -le "$1" ] || fail "device 0 holds $_c slots of credit $2, above $1 (2 batches x $(nproc) CPUs)"
	note "credit $2: $_c slots (at most $1)"
}

test_credit_stays_bounded_on_many_cpus() {
	possible=$(( $(cut -d- -f2 /sys/devices/system/cpu/possible) + 1 ))
	[ "$possible" = 64 ] || fail "$possible possible CPUs, not 64 (-smp 64)"
	zram_swap 0 1G
	cs_load
	cs_set 1
	cluster=$(summary_value cluster_size)
	batch=$(cs_stat credit_batch)
	[ "$batch" = $((8 * 2 * cluster / 64)) ] ||
		fail "credit batch $batch with 64 possible CPUs, want $((8 * 2 * cluster / 64)) (clusters of $cluster)"
	[ "$(nproc)" = 2 ] || fail "$(nproc) CPUs online, not 2 (maxcpus=2)"
	bound=$((2 * batch * $(nproc)))
	echo always >/sys/kernel/mm/transparent_hugepage/enabled || fail "cannot enable THP"
	mthp64 never || true
	memcg credit 96
	thp0=$(vmstat thp_swpout); a9=$(cs_stat alloc.order9)
	in_memcg_bg credit $BIN/verifier -H -t 2 -m 192 -p 2 -s 57
	sleep 5
	credit_within "$bound" "while swapping"
	wait "$bg_pid"
	verifier_ok $? "with a batch of $batch"
	credit_within "$bound" "after"
	n9=$(( $(cs_stat alloc.order9) - a9 ))
	note "batch $batch: PMD THP swapped out whole $(( $(vmstat thp_swpout) - thp0 )) times, $n9 by the module"
	[ "$n9" -gt 0 ] || fail "the module allocated no PMD THP with a batch of $batch"
	cs_check_ok "a batch of $batch"
	cs_unload
}

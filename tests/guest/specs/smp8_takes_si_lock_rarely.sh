# At -smp 8, 8 threads swap through zram in a memory cgroup.  First with the
# module on throughout: allocations take si->lock at most twice per 1000
# order-0 allocations (printed, with the acquisitions by frees beside it).
# Then the switch flips every 200 ms for 60 s (at least 150 flips).  Every
# page comes back intact.
TIMEOUT_smp8_takes_si_lock_rarely=420
SMP_smp8_takes_si_lock_rarely=8
BOOT_smp8_takes_si_lock_rarely=own
NEEDS_smp8_takes_si_lock_rarely=allocator
test_smp8_takes_si_lock_rarely() {
	[ "$(nproc)" = 8 ] || fail "booted with $(nproc) CPUs, want 8"
	zram_swap 0 2G
	cs_load
	cs_set 1
	memcg smp8 48
	a0=$(cs_stat alloc.order0); la0=$(cs_stat si_lock.alloc); lf0=$(cs_stat si_lock.free)
	in_memcg smp8 $BIN/verifier -t 8 -m 96 -p 2 -s 71
	verifier_ok $? "at -smp 8, module on"
	a=$(( $(cs_stat alloc.order0) - a0 ))
	la=$(( $(cs_stat si_lock.alloc) - la0 ))
	lf=$(( $(cs_stat si_lock.free) - lf0 ))
	[ "$a" -gt 10000 ] || fail "only $a order-0 allocations under the 8-thread load"
	note "8 threads: $a order-0 allocations; si->lock taken $la times by allocations ($((la * 10000 / a / 10)).$((la * 10000 / a % 10)) per 1000), $lf by frees ($((lf * 10000 / a / 10)).$((lf * 10000 / a % 10)) per 1000 allocations)"
	cs_stats_note alloc.fast alloc.slow alloc.in_use_skipped list_moves si_lock.trylock_fail credit.take credit.return
	[ $((la * 1000)) -le $((2 * a)) ] || fail "si->lock taken $la times for $a allocations (over 2 per 1000)"
	cs_check_ok "8 threads at -smp 8"

	in_memcg smp8 $BIN/verifier -t 8 -m 96 -p 2 -d 60 -s 72 &
	pid=$!
	flip_for 60
	wait $pid
	verifier_ok $? "at -smp 8 with the switch flipping"
	note "flipped the switch $flips times at -smp 8 (slowest write ${flip_slowest_ms} ms)"
	# 60 s at 200 ms is 300 flips; each write also waits for calls in flight.
	[ "$flips" -ge 150 ] || fail "only $flips flips in 60 s"
	cs_check_ok "flipping the switch at -smp 8"
	cs_unload
}

# Debug kernels: the swap device lock (si->lock, initialised in
# alloc_swap_info(): a lockdep class named "&p->lock") under 8 threads
# swapping through zram at -smp 8, stock and then clusterswap, in the same
# boot: its contentions, wait time and acquisitions from /proc/lock_stat,
# and the CPU count at which it would saturate.
TIMEOUT_si_lock_contention_gone=600
SMP_si_lock_contention_gone=8
BOOT_si_lock_contention_gone=own
DEBUG_si_lock_contention_gone=only
NEEDS_si_lock_contention_gone=allocator
# The lock_stat lines of the classes named "&p->lock" (lockdep numbers
# same-named classes "#2", "#3"...; on Debian 6.12 si->lock is "&p->lock#2"):
# the class line, then its contention points (caller, count) when it had
# contentions.
si_lock_stat() {
	grep -E '&p->lock(#[0-9]+)?[: ]' /proc/lock_stat | head -n 16
}
# The scaling projection (make bench's issue: "does not saturate below 256
# CPUs"): with a acquisitions per CPU-second of the workload and a mean hold
# of h, si->lock is busy N * a * h of the time on N CPUs, so it saturates at
# N = 1 / (a * h).  Inputs from this run: the si->lock class line's
# ("&p->lock#2", as above) acquisitions and holdtime-total (lock_stat's 9th
# and 12th columns, in microseconds), the memcg's CPU time (cpu.stat
# usage_usec) and pswpout.  The debug kernel under
# emulation holds every lock far longer than hardware would: compare the two
# arms, not the absolute count.
projection() {
	awk -v who="$1" -v cpu_us="$2" -v pages="$3" '
	END { if (!seen) print "      " who ": no projection: no &p->lock#2 class line" }
	$1 == "&p->lock#2:" && !seen++ {
		acq = $9; hold = $12
		if (!acq || !hold || !cpu_us || !pages) { print "      " who ": no projection (no acquisitions, hold time, CPU time or pages)"; exit }
		a = acq / (cpu_us / 1e6); h = hold / acq / 1e6
		printf "      %s: %d acquisitions per 1000 pages out (%d pages), mean hold %.2f us, %.2f per CPU-second; saturates at %.0f CPUs\n",
			who, acq * 1000 / pages, pages, h * 1e6, a, 1 / (a * h)
	}' /tmp/si_lock_stat
}
lock_stat_run() {
	echo 0 >/proc/lock_stat
	echo 1 >/proc/sys/kernel/lock_stat
	u0=$(sed -n 's/^usage_usec //p' "$CG/ls/cpu.stat"); o0=$(vmstat pswpout)
	in_memcg ls $BIN/verifier -t 8 -m 128 -p 3 -s "$2"
	rc=$?
	echo 0 >/proc/sys/kernel/lock_stat
	u1=$(sed -n 's/^usage_usec //p' "$CG/ls/cpu.stat"); o1=$(vmstat pswpout)
	verifier_ok $rc "$1"
	note "$1: /proc/lock_stat, si->lock class:"
	si_lock_stat >/tmp/si_lock_stat
	[ -s /tmp/si_lock_stat ] || fail "no &p->lock class in /proc/lock_stat"
	sed 's/^/      /' /tmp/si_lock_stat
	projection "$1" $((u1 - u0)) $((o1 - o0))
}
test_si_lock_contention_gone() {
	[ -e /proc/lock_stat ] || fail "no /proc/lock_stat: not a LOCK_STAT kernel"
	[ "$(nproc)" = 8 ] || fail "booted with $(nproc) CPUs, want 8"
	zram_swap 0 1G
	cs_load
	memcg ls 64
	lock_stat_run stock 131
	cs_set 1
	lock_stat_run clusterswap 132
	cs_stats_note alloc.order0 si_lock.alloc si_lock.free
	cs_check_ok "lock_stat runs"
	cs_unload
}

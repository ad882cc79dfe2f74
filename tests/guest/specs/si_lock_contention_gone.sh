# Debug kernels: the swap device lock (si->lock, initialised in
# alloc_swap_info(): a lockdep class named "&p->lock") under 8 threads swapping through zram,
# stock and then clusterswap, in the same boot: its contentions, wait time and
# acquisitions from /proc/lock_stat.  Lockdep has watched every lock the
# module took in the tests before; a report there fails them.
TIMEOUT_si_lock_contention_gone=600
DEBUG_si_lock_contention_gone=only
NEEDS_si_lock_contention_gone=allocator
# The lock_stat lines of the classes named "&p->lock" (lockdep numbers
# same-named classes "#2", "#3"...; on Debian 6.12 si->lock is "&p->lock#2"):
# the class line, then its contention points (caller, count) when it had
# contentions.
si_lock_stat() {
	grep -E '&p->lock(#[0-9]+)?[: ]' /proc/lock_stat | head -n 16
}
lock_stat_run() {
	echo 0 >/proc/lock_stat
	echo 1 >/proc/sys/kernel/lock_stat
	in_memcg ls $BIN/verifier -t 8 -m 128 -p 3 -s "$2"
	rc=$?
	echo 0 >/proc/sys/kernel/lock_stat
	verifier_ok $rc "$1"
	note "$1: /proc/lock_stat, si->lock class:"
	si_lock_stat >/tmp/si_lock_stat
	[ -s /tmp/si_lock_stat ] || fail "no &p->lock class in /proc/lock_stat"
	sed 's/^/      /' /tmp/si_lock_stat
}
test_si_lock_contention_gone() {
	[ -e /proc/lock_stat ] || fail "no /proc/lock_stat: not a LOCK_STAT kernel"
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

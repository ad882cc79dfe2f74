# A task that frees each swap slot before it takes the next (page out one
# page, read it back: on zram the swap-in frees the slot at once, as
# stress-ng's pageswap does) empties its CPU's cluster at every free.  The
# cluster stays that CPU's (cs_free_keeps()): allocations and frees stay on
# the cluster lock, at most 50 si->lock holds per 1000 allocations (sending
# the cluster to the free list costs two per page: 2000).  Every page is
# verified right after its swap-in and again at the end, and the check reads
# ok, with an emptied cluster left on frag (6.12) or on no list (6.1) while
# its CPU keeps it.  The count starts once the module serves (6.1 takes
# over after a grace period, stock serving until then: cs_wait_serving).
# Budget: 3 s on 6.12, 3 s on 6.1 (make check, 2-vCPU TCG on a 2-core host);
# the limit is 60.0x the slowest.
TIMEOUT_emptied_cluster_stays_with_its_cpu=180
NEEDS_emptied_cluster_stays_with_its_cpu=allocator
test_emptied_cluster_stays_with_its_cpu() {
	zram_swap 0 256M
	cs_load
	cs_set 1
	cs_wait_serving
	a0=$(cs_stat alloc.order0); la0=$(cs_stat si_lock.alloc); lf0=$(cs_stat si_lock.free)
	$BIN/pageout -1 -m 16 -s 91 || fail "pageout -1 failed (exit $?)"
	a=$(( $(cs_stat alloc.order0) - a0 ))
	la=$(( $(cs_stat si_lock.alloc) - la0 ))
	lf=$(( $(cs_stat si_lock.free) - lf0 ))
	note "one page at a time: $a order-0 allocations; si->lock taken $la times by allocations, $lf by frees"
	[ "$a" -ge 4000 ] || fail "only $a of 4096 pages got a slot from the module"
	cs_check_ok "emptying this CPU's cluster one free at a time"
	[ $(( (la + lf) * 1000 )) -le $((50 * a)) ] ||
		fail "si->lock taken $((la + lf)) times for $a allocations (over 50 per 1000)"
	cs_set 0
	cs_check_ok "the hand-back"
	cs_unload
}

# Idle swap cache (slots held by the swap cache alone: a parent swapped its
# pages in while a forked child still held them, then the child exited) fills
# 24 of zram0's 64 MiB.  A memcg load then needs more swap than is left: with
# the module on, the allocator frees idle swap cache itself once swap is half
# full and a device's free clusters are gone, or when an allocation finds no
# room (reclaim.idle_cache, also in sysfs), so the load is never refused swap
# and runs to its end.  Every page verifies, the parent's too, and the check
# reads ok.
# Budget: 16 s on 6.12 (make check, 2-vCPU TCG on a 2-core host); the limit
# is 18.8x the slowest.
TIMEOUT_idle_swap_cache_is_reclaimed_when_short=300
NEEDS_idle_swap_cache_is_reclaimed_when_short="allocator idle_reclaim"
test_idle_swap_cache_is_reclaimed_when_short() {
	zram_swap 0 64M
	cs_load
	cs_set 1
	$BIN/idlecache -m 24 -s 141 >/tmp/idle.out &
	idle=$!
	i=0
	while ! grep -q ready /tmp/idle.out && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	grep -q ready /tmp/idle.out || fail "idlecache did not get ready in 30 s: $(cat /tmp/idle.out)"
	used=$(swap_used /dev/zram0)
	note "idle swap cache in place: zram0 has $used KiB in use"
	[ "$used" -ge $((20 * 1024)) ] || fail "only $used KiB in use: the idle swap cache is not there"

	memcg idle 24
	r0=$(cs_stat reclaim.idle_cache)
	fail0=$(awk '$1 == "fail" {print $2}' "$CG/idle/memory.swap.events")
	in_memcg idle $BIN/verifier -t 2 -m 80 -p 3 -s 142
	rc=$?
	# Printed first, so that a failure shows whether reclaim ran at all.
	cs_stats_note reclaim.idle_cache freed.stock_final_free device_full alloc.stock_fallback
	note "zram0 $(swap_used /dev/zram0) KiB in use; memory.swap.events: $(tr '\n' ' ' <"$CG/idle/memory.swap.events")"
	verifier_ok $rc "with idle swap cache taking the room"
	reclaimed=$(( $(cs_stat reclaim.idle_cache) - r0 ))
	refused=$(( $(awk '$1 == "fail" {print $2}' "$CG/idle/memory.swap.events") - fail0 ))
	note "the allocator freed $reclaimed idle swap cache slots; memory.swap.events fail +$refused"
	[ "$reclaimed" -gt 0 ] || fail "the allocator freed no idle swap cache"
	[ "$(cat $CS/stats/idle_reclaimed)" = "$(cs_stat reclaim.idle_cache)" ] ||
		fail "sysfs idle_reclaimed $(cat $CS/stats/idle_reclaimed), debugfs $(cs_stat reclaim.idle_cache)"
	[ "$refused" = 0 ] || fail "the load was refused swap $refused times with idle swap cache to free"
	kill -USR1 $idle
	wait $idle || fail "the parent's pages (once idle swap cache) are not intact: $(tail -n 2 /tmp/idle.out)"
	note "$(tail -n 1 /tmp/idle.out)"
	cs_check_ok "reclaiming idle swap cache"
	cs_unload
}

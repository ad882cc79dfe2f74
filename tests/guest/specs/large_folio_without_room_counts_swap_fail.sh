# A 64 KiB folio that finds no room on a device left full of scattered free
# slots counts a memory.swap.events "fail" in its memcg, with the module on
# as with it off (D6), and falls back to order 0.  Every page verifies.
# Budget: 15 s on 6.12 (make check, 2-vCPU TCG on a 2-core host); the limit
# is 20.0x the slowest.
TIMEOUT_large_folio_without_room_counts_swap_fail=300
NEEDS_large_folio_without_room_counts_swap_fail="allocator mthp"

# fail_events WHAT SEED: 64 KiB folios through the holes in a memcg.
fail_events() {
	f0=$(awk '$1 == "fail" {print $2}' "$CG/frag/memory.swap.events")
	in_memcg frag $BIN/verifier -H -t 1 -m 32 -p 2 -s "$2"
	verifier_ok $? "with 64 KiB folios on a fragmented device ($1)"
	n=$(($(awk '$1 == "fail" {print $2}' "$CG/frag/memory.swap.events") - f0))
	note "$1: memory.swap.events fail +$n, 64kB swpout_fallback $(thp_stat 64kB swpout_fallback)"
	eval "fail_$1=$n"
}

test_large_folio_without_room_counts_swap_fail() {
	zram_swap 0 64M
	mthp64 always || fail "needs 64 KiB mTHP"
	memcg frag 16
	cs_load
	holes_start 125
	fail_events stock 126
	cs_set 1
	fail_events clusterswap 127
	holes_end "64 KiB folios"
	mthp64 never
	cs_stats_note alloc.order4 large_fallback.order4
	[ "$fail_stock" -gt 0 ] || fail "stock counted no swap fail event: the test did not make 64 KiB allocations fail"
	[ "$fail_clusterswap" -gt 0 ] || fail "no memory.swap.events fail with the module on (stock: $fail_stock)"
	cs_check_ok "a fragmented device"
	cs_unload
}

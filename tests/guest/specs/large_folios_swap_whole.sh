# mTHP (64 KiB) and PMD THP swap out whole when they find room, stock and
# clusterswap alike, on the same workload: the per-size swpout and
# swpout_fallback counters are printed side by side, and every page comes
# back intact.  With the module on, 64 KiB folios are allocated by it.
TIMEOUT_large_folios_swap_whole=360
NEEDS_large_folios_swap_whole="allocator mthp"
thp_run() {
	o64=$(thp_stat 64kB swpout); f64=$(thp_stat 64kB swpout_fallback)
	o2m=$(thp_stat 2048kB swpout); f2m=$(thp_stat 2048kB swpout_fallback)
	in_memcg thp $BIN/verifier -H -t 2 -m 256 -p 3 -s "$2"
	verifier_ok $? "with THP, $1"
	note "$1: 64kB swpout $(( $(thp_stat 64kB swpout) - o64 )) fallback $(( $(thp_stat 64kB swpout_fallback) - f64 )); 2048kB swpout $(( $(thp_stat 2048kB swpout) - o2m )) fallback $(( $(thp_stat 2048kB swpout_fallback) - f2m ))"
	eval "${1}_64=$(( $(thp_stat 64kB swpout) - o64 ))"
}
test_large_folios_swap_whole() {
	T=/sys/kernel/mm/transparent_hugepage
	zram_swap 0 1G
	echo always >$T/hugepages-64kB/enabled || fail "cannot enable 64kB mTHP"
	echo always >$T/hugepages-2048kB/enabled || fail "cannot enable PMD THP"
	cs_load
	memcg thp 128
	thp_run stock 91
	cs_set 1
	thp_run clusterswap 92
	cs_stats_note alloc.order0 alloc.order4 alloc.order9 large_fallback.order4 large_fallback.order9
	echo never >$T/hugepages-64kB/enabled
	echo never >$T/hugepages-2048kB/enabled
	[ "$stock_64" -eq 0 ] || [ "$clusterswap_64" -gt 0 ] ||
		fail "stock swapped out $stock_64 64kB folios whole, clusterswap none"
	[ "$(cs_stat alloc.order4)" != missing ] && [ "$(cs_stat alloc.order4)" -gt 0 ] ||
		[ "$stock_64" -eq 0 ] || fail "the module allocated no 64kB range"
	cs_check_ok "mTHP and PMD THP"
	cs_unload
}

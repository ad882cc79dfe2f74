# PMD THP, and 64 KiB mTHP where the kernel has it (6.12), swap out whole
# when they find room, stock and clusterswap alike, on the same workload:
# the swpout and swpout_fallback counters are printed side by side, and every
# page comes back intact.  With the module on, the large folios are
# allocated by it.
# Budget: 12 s on 6.12, 34 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 10.6x the slowest.
TIMEOUT_large_folios_swap_whole=360
NEEDS_large_folios_swap_whole=allocator

# 64 KiB counters where the kernel has mTHP; PMD THP from /proc/vmstat, which
# both lines keep.
thp64() {
	if [ -n "$mthp" ]; then thp_stat 64kB "$1"; else echo 0; fi
}

thp_run() {
	o64=$(thp64 swpout); f64=$(thp64 swpout_fallback)
	o2m=$(vmstat thp_swpout); f2m=$(vmstat thp_swpout_fallback)
	in_memcg thp $BIN/verifier -H -t 2 -m 192 -p 2 -s "$2"
	verifier_ok $? "with THP, $1"
	n64=$(( $(thp64 swpout) - o64 )); n2m=$(( $(vmstat thp_swpout) - o2m ))
	note "$1: 64kB swpout $n64 fallback $(( $(thp64 swpout_fallback) - f64 )); 2048kB swpout $n2m fallback $(( $(vmstat thp_swpout_fallback) - f2m ))"
	eval "${1}_64=$n64 ${1}_2m=$n2m"
}

test_large_folios_swap_whole() {
	T=/sys/kernel/mm/transparent_hugepage
	mthp=
	zram_swap 0 1G
	if mthp64 always; then
		mthp=1
		echo always >$T/hugepages-2048kB/enabled || fail "cannot enable PMD THP"
	else
		echo always >$T/enabled || fail "cannot enable THP"
	fi
	cs_load
	memcg thp 96
	thp_run stock 91
	cs_set 1
	thp_run clusterswap 92
	cs_stats_note alloc.order0 alloc.order4 alloc.order9 large_fallback.order4 large_fallback.order9
	if mthp64 never; then
		echo never >$T/hugepages-2048kB/enabled
	else
		echo never >$T/enabled
	fi
	[ "$stock_64" -eq 0 ] || [ "$clusterswap_64" -gt 0 ] ||
		fail "stock swapped out $stock_64 64kB folios whole, clusterswap none"
	[ "$stock_64" -eq 0 ] || [ "$(cs_stat alloc.order4)" -gt 0 ] ||
		fail "the module allocated no 64kB range"
	[ "$stock_2m" -eq 0 ] || [ "$clusterswap_2m" -gt 0 ] ||
		fail "stock swapped out $stock_2m PMD THP whole, clusterswap none"
	[ "$clusterswap_2m" -eq 0 ] || [ "$(cs_stat alloc.order9)" -gt 0 ] ||
		fail "$clusterswap_2m PMD THP swapped out whole with the module on, none allocated by it"
	cs_check_ok "large folios"
	cs_unload
}

# On a small zram device kept nearly full, 64 KiB folios find a slot range
# with the module as often as with stock: rounds of writing, partly
# discarding and paging out 60 MiB of 64 KiB folios beside 4 MiB of small
# ones (mthpchurn), alternately stock and clusterswap, twice each, on a
# fresh 40 MiB device each time (about 34 MiB of it in use after each
# round).  The module's 64 KiB swpout_fallback over its two runs is at most
# stock's plus 1% of its 64 KiB swap-outs; every kept page verifies each
# round, and check reads ok.
TIMEOUT_large_folios_fall_back_no_more_than_stock=600
BOOT_large_folios_fall_back_no_more_than_stock=own
NEEDS_large_folios_fall_back_no_more_than_stock=allocator

# churn_run stock|clusterswap SEED: one run on a fresh device; adds to
# ${1}_out and ${1}_fb.
churn_run() {
	swap_clear
	zram_swap 0 40M
	o=$(thp_stat 64kB swpout)
	f=$(thp_stat 64kB swpout_fallback)
	$BIN/mthpchurn -r 12 -s "$2" >/tmp/churn.out || fail "mthpchurn ($1): $(tail -n 2 /tmp/churn.out)"
	do=$(( $(thp_stat 64kB swpout) - o ))
	df=$(( $(thp_stat 64kB swpout_fallback) - f ))
	note "$1: 64kB swpout $do, swpout_fallback $df; $(tail -n 1 /tmp/churn.out)"
	eval "${1}_out=\$(( \${${1}_out:-0} + do ))"
	eval "${1}_fb=\$(( \${${1}_fb:-0} + df ))"
}

test_large_folios_fall_back_no_more_than_stock() {
	T=/sys/kernel/mm/transparent_hugepage
	echo always >$T/hugepages-64kB/enabled || fail "cannot enable 64kB mTHP"
	cs_load
	for s in 61 62; do
		cs_set 0
		churn_run stock $s
		cs_set 1
		churn_run clusterswap $s
		cs_check_ok "mTHP churn (seed $s)"
	done
	cs_set 0
	swap_clear
	echo never >$T/hugepages-64kB/enabled
	cs_stats_note alloc.order4 large_fallback.order4 alloc.slow
	[ "$stock_out" -gt 0 ] && [ "$clusterswap_out" -gt 0 ] ||
		fail "no 64 KiB folio swapped out whole (stock $stock_out, clusterswap $clusterswap_out)"
	limit=$(( stock_fb + clusterswap_out / 100 ))
	[ "$clusterswap_fb" -le "$limit" ] ||
		fail "64 KiB fallbacks: clusterswap $clusterswap_fb of $((clusterswap_out + clusterswap_fb)), stock $stock_fb of $((stock_out + stock_fb)) (limit $limit)"
	cs_unload
}

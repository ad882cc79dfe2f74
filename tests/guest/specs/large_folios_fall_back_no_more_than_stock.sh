# On a swap device kept nearly full, 64 KiB folios find a slot range with
# the module as often as with stock: mthpchurn keeps 32 MiB of 64 KiB-folio
# memory and 4 MiB of small folios on a 38 MiB zram device and, for 12
# rounds, leaves a quarter of it in swap, swaps a quarter in and rewrites
# it, and replaces the rest with fresh 64 KiB folios or half-fresh ones,
# paging everything out each round; alternately stock and clusterswap,
# twice each, on a fresh device each time.  The module's 64 KiB
# swpout_fallback over its two runs is at most stock's plus 0.2% of its
# 64 KiB swap-outs, and its allocations take si->lock less often than
# stock's must (once per large folio, once per 64 single pages: measured
# 555 holds per 1000 allocations before single pages kept their cursor in
# the higher-order clusters they borrow from); every page verifies, and
# check reads ok.  Before a large folio's slow path looked at full clusters
# with room (which stock would have had on nonfull), this measured 35
# fallbacks against stock's 0.
# Budget: 50 s on 6.12 (make check, 2-vCPU TCG on a 2-core host); the limit
# is 12.0x the slowest.
TIMEOUT_large_folios_fall_back_no_more_than_stock=600
BOOT_large_folios_fall_back_no_more_than_stock=own
NEEDS_large_folios_fall_back_no_more_than_stock="allocator mthp"

# churn_run stock|clusterswap SEED: one run on a fresh device; adds to
# ${1}_out and ${1}_fb.
churn_run() {
	swap_clear
	zram_swap 0 38M
	o=$(thp_stat 64kB swpout)
	f=$(thp_stat 64kB swpout_fallback)
	$BIN/mthpchurn -r 12 -s "$2" >/tmp/churn.out || fail "mthpchurn ($1): $(tail -n 2 /tmp/churn.out)"
	do=$(( $(thp_stat 64kB swpout) - o ))
	df=$(( $(thp_stat 64kB swpout_fallback) - f ))
	note "$1: 64kB swpout $do, swpout_fallback $df; $(tail -n 1 /tmp/churn.out)"
	[ "$1" = stock ] || cs_stats_note alloc.total alloc.fast alloc.slow si_lock.alloc si_lock.free large_fallback.order4 credit.take credit.return device_full alloc.in_use_skipped list_moves reclaim.idle_cache alloc.stock_fallback
	eval "${1}_out=\$(( \${${1}_out:-0} + do ))"
	eval "${1}_fb=\$(( \${${1}_fb:-0} + df ))"
}

test_large_folios_fall_back_no_more_than_stock() {
	mthp64 always || fail "needs 64 KiB mTHP"
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
	mthp64 never
	cs_stats_note alloc.order4 large_fallback.order4 alloc.slow
	[ "$stock_out" -gt 0 ] && [ "$clusterswap_out" -gt 0 ] ||
		fail "no 64 KiB folio swapped out whole (stock $stock_out, clusterswap $clusterswap_out)"
	o0=$(cs_stat alloc.order0)
	o4=$(cs_stat alloc.order4)
	held=$(cs_stat si_lock.alloc)
	floor=$(( o4 + o0 / 64 ))
	note "si->lock holds by allocations: $held for $o0 single pages and $o4 64 KiB folios; stock 6.12 takes it at least $floor times for as many (once per large folio, once per 64 single pages)"
	[ "$held" -le "$floor" ] ||
		fail "the module took si->lock $held times for $o0 single pages and $o4 64 KiB folios, more than stock's $floor"
	limit=$(( stock_fb + clusterswap_out / 500 ))
	[ "$clusterswap_fb" -le "$limit" ] ||
		fail "64 KiB fallbacks: clusterswap $clusterswap_fb of $((clusterswap_out + clusterswap_fb)), stock $stock_fb of $((stock_out + stock_fb)) (limit $limit)"
	cs_unload
}

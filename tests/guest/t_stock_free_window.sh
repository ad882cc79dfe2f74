# Stock's own final free (swap_entry_range_free) sets a slot's byte to 0
# before it drops the slot's zram data, zeromap bit and memcg charge, under
# si->lock alone; the module's fast path allocates under the cluster lock
# alone, so it must never let that stock body run on a device it serves
# (review-612.md, D1).  A test fixture widens the window to 500 us and counts
# each stock final free that reaches it.  With the device driven full (the
# reclaim worker and stock allocation then free cache-only slots), the
# fixture counts no hit while the module serves and counts hits once it is
# off (the probe is live), and every page, zero-filled ones included,
# verifies both ways.
TIMEOUT_stock_free_window=420
LINES_stock_free_window="6.12"
test_stock_free_window() {
	insmod /job/cs_widener.ko delay_us=500 || fail "insmod cs_widener.ko"
	W=/sys/module/cs_widener/parameters
	zram_swap 0 64M
	cs_load
	cs_set 1
	memcg win 32
	# memory.high alone: a full device throttles the load instead of killing it.
	echo max >"$CG/win/memory.max"
	h0=$(cat $W/hits)
	in_memcg win $BIN/verifier -t 4 -m 112 -p 2 -d 30 -z 3 -s 131
	verifier_ok $? "with the module on, the window widened"
	h_on=$(($(cat $W/hits) - h0))
	cs_stats_note device_full freed freed.stock_final_free alloc.stock_fallback
	cs_check_ok "the module on, stock final frees widened"
	cs_set 0
	h0=$(cat $W/hits)
	in_memcg win $BIN/verifier -t 4 -m 112 -p 2 -z 3 -s 132
	verifier_ok $? "with the module off, the window widened"
	h_off=$(($(cat $W/hits) - h0))
	note "stock final frees in the widened window: $h_on with the module on, $h_off off"
	[ "$h_off" -gt 0 ] || fail "the fixture saw no stock final free with the module off: its probe is not live"
	[ "$h_on" = 0 ] || fail "stock's final free ran $h_on times on a device the module served"
	cs_unload
	rmmod cs_widener
}

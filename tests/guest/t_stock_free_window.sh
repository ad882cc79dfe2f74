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
# fill_device SEED: fill what the load leaves of zram0 for 2 s, from outside
# the memcg: the device runs full, which schedules the reclaim worker.
fill_device() {
	$BIN/pageout -a -m 48 -w 2 -s "$1" >/tmp/fill.out || fail "pageout: $(tail -n 2 /tmp/fill.out)"
}

# window_run WHAT SEED: the load, with the device run full twice meanwhile;
# sets hits_WHAT to the stock final frees the fixture saw.
window_run() {
	h0=$(cat $W/hits)
	in_memcg_bg win $BIN/verifier -t 4 -m 80 -p 3 -z 3 -s "$2"
	pid=$bg_pid
	sleep 5
	fill_device $(($2 + 1))
	fill_device $(($2 + 2))
	wait $pid
	verifier_ok $? "with the window widened, module $1"
	eval "hits_$1=$(($(cat $W/hits) - h0))"
}

test_stock_free_window() {
	insmod /job/cs_widener.ko delay_us=500 || fail "insmod cs_widener.ko"
	W=/sys/module/cs_widener/parameters
	zram_swap 0 64M
	cs_load
	cs_set 1
	memcg win 32
	window_run on 131
	cs_stats_note device_full freed freed.stock_final_free alloc.stock_fallback
	cs_check_ok "the module on, stock final frees widened"
	cs_set 0
	window_run off 135
	note "stock final frees in the widened window: $hits_on with the module on, $hits_off off"
	[ "$hits_off" -gt 0 ] || fail "the fixture saw no stock final free with the module off: its probe is not live"
	[ "$hits_on" = 0 ] || fail "stock's final free ran $hits_on times on a device the module served"
	cs_unload
	rmmod cs_widener
}

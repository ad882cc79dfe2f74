# Stock's own final free sets a slot's byte to 0 before it drops the slot's
# zram data, zeromap bit or frontswap copy and memcg charge, outside the
# cluster lock; the module's fast path allocates under the cluster lock
# alone, so that stock body must never run on a device the module serves
# (module/README.md, D1).  A test fixture widens the window to 500 us and
# counts each stock final free that reaches it (6.12: swap_entry_range_free,
# 6.1: swap_range_free).  Idle swap cache (slots held by the swap cache
# alone, left by fork and swap-in) is put on the device, which is then run
# full: on 6.12 the reclaim worker frees those slots through the kernel's
# final free, and the module serves every such free itself (its
# stock_final_free counter moves); 6.1 has no such caller left while the
# module serves (the counter says "none").  With the module on the fixture
# counts no hit; with it off it counts hits (its probe is live: a window of
# 50 us is enough there, where every stock free waits in it).  Every page,
# zero-filled ones included, verifies both ways.
# Budget: 40 s on 6.12, 36 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); on the smoke kernels 75-86 s with the module-off arm at 500 us
# before; the limit is 4.9x that.
TIMEOUT_stock_final_free_never_races=420
NEEDS_stock_final_free_never_races=allocator

# fill_device SEED: fill what is left of zram0 for 2 s, from outside the
# memcg: the device runs full, which schedules the reclaim worker.
fill_device() {
	$BIN/pageout -a -m 48 -w 2 -s "$1" >/tmp/fill.out || fail "pageout: $(tail -n 2 /tmp/fill.out)"
}

# window_run on|off SEED: idle swap cache, a load, the device run full twice;
# sets hits_on or hits_off to the stock final frees the fixture saw.
window_run() {
	h0=$(cat $W/hits)
	$BIN/idlecache -m 16 -s "$2" >/tmp/idle.out &
	idle=$!
	i=0
	while ! grep -q ready /tmp/idle.out && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	grep -q ready /tmp/idle.out || fail "idlecache did not get ready in 30 s: $(cat /tmp/idle.out)"
	in_memcg_bg win $BIN/verifier -t 2 -m 64 -p 3 -z 3 -s "$2"
	pid=$bg_pid
	sleep 3
	fill_device $(($2 + 1))
	fill_device $(($2 + 2))
	wait $pid
	verifier_ok $? "with the window widened, module $1"
	kill -USR1 $idle
	wait $idle || fail "idle swap cache pages not intact (module $1): $(tail -n 2 /tmp/idle.out)"
	note "module $1: $(tail -n 1 /tmp/idle.out)"
	eval "hits_$1=$(($(cat $W/hits) - h0))"
}

test_stock_final_free_never_races() {
	insmod /job/cs_widener.ko delay_us=500 || fail "insmod cs_widener.ko"
	W=/sys/module/cs_widener/parameters
	zram_swap 0 64M
	cs_load
	cs_set 1
	memcg win 32
	window_run on 131
	served=$(cs_stat freed.stock_final_free)
	cs_stats_note device_full freed freed.stock_final_free alloc.stock_fallback
	cs_check_ok "the module on, stock final frees widened"
	cs_set 0
	echo 50 >$W/delay_us || fail "cannot narrow the fixture's window"
	window_run off 135
	note "stock final frees: $served served by the module while on; in the widened window $hits_on with the module on, $hits_off off"
	[ "$hits_off" -gt 0 ] || fail "the fixture saw no stock final free with the module off: its probe is not live"
	# On a line where the counter is "none", no stock final free can be
	# reached while serving: the fixture's count is the whole check.
	[ "$served" = none ] || [ "$served" -gt 0 ] ||
		fail "no stock final free happened while the module served: the test did not exercise it"
	[ "$hits_on" = 0 ] || fail "stock's final free ran $hits_on times on a device the module served"
	cs_unload
	rmmod cs_widener
}

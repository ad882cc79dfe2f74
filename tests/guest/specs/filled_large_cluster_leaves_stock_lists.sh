# A 64 KiB-order cluster that the module fills on its fast path leaves the
# lists stock's single-page allocation borrows from in the same step
# (module/README.md, D2): stock's order-0 loop retries the head of a higher
# order's frag and nonfull lists until it yields a slot, under si->lock, so
# a full cluster left there hangs the machine.  Deterministic: on a zram
# device of three clusters, one CPU pages out exactly two clusters of
# 64 KiB folios (the last one fills its cluster on the fast path, and
# nothing allocates after it); check reads ok with no full cluster of order
# 4 on frag or nonfull; then hibernation's allocation (stock
# get_swap_page_of_type) takes every slot left and is told "no slot" after
# its borrowing loop, instead of spinning.  The folios' pages verify.
# Negative control: with cs_take_last() bypassed, this test failed at the
# check, and the hibernation allocation then hung with si->lock held.
# Budget: 23 s on 6.12 (make check, 2-vCPU TCG on a 2-core host); the limit
# is 7.8x the slowest.
TIMEOUT_filled_large_cluster_leaves_stock_lists=180
BOOT_filled_large_cluster_leaves_stock_lists=own
NEEDS_filled_large_cluster_leaves_stock_lists="allocator mthp order_lists"
test_filled_large_cluster_leaves_stock_lists() {
	T=/sys/kernel/mm/transparent_hugepage
	[ -c /dev/snapshot ] || fail "no /dev/snapshot (CONFIG_HIBERNATION_SNAPSHOT_DEV)"
	# 1536 slots: cluster 0 holds the header (nonfull, order 0), 1 and 2 are free.
	zram_swap 0 6M
	cat /sys/block/zram0/dev >/sys/power/resume || fail "cannot make zram0 the resume device"
	echo always >$T/hugepages-64kB/enabled || fail "cannot enable 64kB mTHP"
	cs_load
	cs_set 1
	out0=$(thp_stat 64kB swpout)
	# 64 folios of 64 KiB = 1024 slots = clusters 1 and 2, from CPU 0 alone.
	taskset -c 0 $BIN/pageout -H -m 4 -w 20 -s 31 >/tmp/po.out &
	pid=$!
	i=0
	while ! grep -q "paged out" /tmp/po.out && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	grep -q "paged out" /tmp/po.out || fail "pageout did not page out within 30 s: $(cat /tmp/po.out)"
	note "$(head -n 1 /tmp/po.out)"
	whole=$(( $(thp_stat 64kB swpout) - out0 ))
	[ "$whole" -eq 64 ] ||
		fail "$whole of 64 folios swapped out whole (64kB swpout_fallback $(thp_stat 64kB swpout_fallback))"
	note "order-4 allocations $(cs_stat alloc.order4); $(grep -E '^(free_clusters|full_clusters|order4)' "$CSD/devices/0/summary" | tr '\n' ';')"
	cs_check_ok "two 64 KiB clusters filled on the fast path"
	# Stock order-0 allocation beside the module, to the last slot and one more.
	$BIN/hibslots -a -n 4096 >/tmp/hib.out || fail "hibernation slots: $(cat /tmp/hib.out)"
	note "$(cat /tmp/hib.out)"
	grep -q "no slot left" /tmp/hib.out || fail "hibernation's allocation never ran out: $(cat /tmp/hib.out)"
	wait $pid
	st=$?
	note "$(tail -n 1 /tmp/po.out)"
	[ $st = 0 ] || fail "the 64 KiB folios did not come back intact: $(tail -n 2 /tmp/po.out)"
	echo never >$T/hugepages-64kB/enabled
	cs_check_ok "stock allocation ran the device out"
	cs_set 0
	cs_unload
}

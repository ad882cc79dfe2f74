# A swap device that the module left full of scattered free slots is usable
# to the last slot by stock allocation after switch-off and after rmmod: the
# full clusters with room (the module relists at three quarters free) go back
# where stock looks.  And a 64 KiB folio that finds no room on such a device
# counts a memory.swap.events "fail", with the module on as with it off.
# Every page verifies.
TIMEOUT_handback_leaves_every_slot_usable=420
NEEDS_handback_leaves_every_slot_usable="allocator mthp"

# holes_start SEED: zram0 filled, every other slot freed; $holes_pid keeps
# the rest until holes_end.
holes_start() {
	$BIN/holes -m 96 -s "$1" >/tmp/holes.out &
	holes_pid=$!
	i=0
	while ! grep -q ready /tmp/holes.out && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	grep -q ready /tmp/holes.out || fail "holes did not get ready in 60 s"
	note "$(cat /tmp/holes.out); zram0 used $(swap_used /dev/zram0) of $(swap_size /dev/zram0) KiB"
}

holes_end() {
	kill -USR1 "$holes_pid"
	wait "$holes_pid"
	rc=$?
	note "$(tail -n 1 /tmp/holes.out)"
	[ "$rc" = 0 ] || fail "the pages kept in swap are not intact ($1)"
}

# stock_fills WHAT SEED: stock pages out 24 MiB into the holes, every page.
stock_fills() {
	out0=$(vmstat pswpout)
	$BIN/pageout -m 24 -s "$2" ||
		fail "stock allocation did not find the free slots $1 ($(swap_used /dev/zram0) of $(swap_size /dev/zram0) KiB used)"
	note "$1: stock paged out $(($(vmstat pswpout) - out0)) pages into the holes"
}

# fail_events WHAT SEED: 64 KiB folios through the holes in a memcg.
fail_events() {
	f0=$(awk '$1 == "fail" {print $2}' "$CG/frag/memory.swap.events")
	in_memcg frag $BIN/verifier -H -t 1 -m 32 -p 2 -s "$2"
	verifier_ok $? "with 64 KiB folios on a fragmented device ($1)"
	n=$(($(awk '$1 == "fail" {print $2}' "$CG/frag/memory.swap.events") - f0))
	note "$1: memory.swap.events fail +$n, 64kB swpout_fallback $(thp_stat 64kB swpout_fallback)"
	eval "fail_$1=$n"
}

test_handback_leaves_every_slot_usable() {
	T=/sys/kernel/mm/transparent_hugepage
	zram_swap 0 64M
	cs_load
	cs_set 1
	holes_start 121
	cs_set 0
	stock_fills "after switch-off" 122
	holes_end "switch-off"

	cs_set 1
	holes_start 123
	cs_unload
	stock_fills "after rmmod" 124
	holes_end "rmmod"

	echo always >$T/hugepages-64kB/enabled || fail "cannot enable 64kB mTHP"
	memcg frag 16
	cs_load
	holes_start 125
	fail_events stock 126
	cs_set 1
	fail_events clusterswap 127
	holes_end "64 KiB folios"
	echo never >$T/hugepages-64kB/enabled
	cs_stats_note alloc.order4 large_fallback.order4
	[ "$fail_stock" -gt 0 ] || fail "stock counted no swap fail event: the test did not make 64 KiB allocations fail"
	[ "$fail_clusterswap" -gt 0 ] || fail "no memory.swap.events fail with the module on (stock: $fail_stock)"
	cs_check_ok "a fragmented device"
	cs_unload
}

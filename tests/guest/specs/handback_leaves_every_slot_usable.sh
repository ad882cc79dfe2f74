# A swap device that the module left full of scattered free slots is usable
# to the last slot by stock allocation after switch-off and after rmmod: on
# 6.12 the full clusters with room (the module relists at three quarters
# free) go back where stock looks; on 6.1 stock's scan finds them between
# lowest_bit and highest_bit, which the module never narrows.  Every page
# verifies.
# Budget: 10 s on 6.12, 8 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 30.0x the slowest.
TIMEOUT_handback_leaves_every_slot_usable=300
NEEDS_handback_leaves_every_slot_usable=allocator

# stock_fills WHAT SEED: stock pages out 24 MiB into the holes, every page.
stock_fills() {
	out0=$(vmstat pswpout)
	$BIN/pageout -m 24 -s "$2" ||
		fail "stock allocation did not find the free slots $1 ($(swap_used /dev/zram0) of $(swap_size /dev/zram0) KiB used)"
	note "$1: stock paged out $(($(vmstat pswpout) - out0)) pages into the holes"
}

test_handback_leaves_every_slot_usable() {
	zram_swap 0 64M
	cs_load
	cs_set 1
	holes_start 121
	cs_set 0
	stock_fills "after switch-off" 122
	holes_end "switch-off"
	cs_check_ok "stock filled the holes after switch-off"

	cs_set 1
	holes_start 123
	cs_unload
	stock_fills "after rmmod" 124
	holes_end "rmmod"
}

# The module keeps a filled cluster on the full list until a quarter of it
# is free again, and stock's allocator never looks there; hibernation
# allocates through stock code (get_swap_page_of_type).  On a device whose
# free slots all lie in such clusters (filled, then every other page freed:
# holes), hibernation's allocation must still find them: with the module on
# it gets as many slots as stock gets on the same layout (within 5%: the two
# layouts are made by two allocators, run after run), and it
# gets them beside the pages kept, which verify.  The device is zram, set as
# the resume device; /dev/snapshot hands out slots as the image writer takes
# them (hibslots -a: until ENOSPC).
# Budget: 8 s on 6.12, 6 s on 6.1 (make check, 2-vCPU TCG on a 2-core host);
# the limit is 15.0x the slowest.
TIMEOUT_hibernation_finds_free_slots_in_full_clusters=120
NEEDS_hibernation_finds_free_slots_in_full_clusters=allocator

# layout_run stock|clusterswap SEED: the holes layout (lib.sh), then
# hibernation's slots until none is left; sets got_<arm>.
layout_run() {
	holes_start "$2"
	$BIN/hibslots -a -n 60000 >/tmp/hib.out || fail "hibernation slots ($1): $(cat /tmp/hib.out)"
	note "$1: $(cat /tmp/hib.out)"
	eval "got_$1=$(sed -n 's/^hibslots: allocated \([0-9]*\) .*/\1/p' /tmp/hib.out)"
	holes_end "$1"
}

test_hibernation_finds_free_slots_in_full_clusters() {
	[ -c /dev/snapshot ] || fail "no /dev/snapshot (CONFIG_HIBERNATION_SNAPSHOT_DEV)"
	zram_swap 0 64M
	cat /sys/block/zram0/dev >/sys/power/resume || fail "cannot make zram0 the resume device"
	cs_load
	layout_run stock 151
	cs_set 1
	layout_run clusterswap 152
	cs_stats_note calls.get_swap_page_of_type alloc.total freed
	[ "$(cs_stat calls.get_swap_page_of_type)" -gt 0 ] ||
		fail "hibernation's allocation did not come through the module"
	[ "$got_stock" -gt 1000 ] || fail "stock got only $got_stock slots: the layout left no room to test"
	[ "$((got_clusterswap * 100))" -ge "$((got_stock * 95))" ] ||
		fail "hibernation got $got_clusterswap slots with the module on, $got_stock with stock on the same layout"
	cs_check_ok "hibernation's allocation in full clusters"
	cs_set 0
	echo 0:0 >/sys/power/resume 2>/dev/null
	cs_unload
}

# A swap device filled to its last slot: allocation fails cleanly (the pages
# that found no slot stay in memory and verify), the device is taken out of
# service with nothing corrupted (check ok while full), and frees bring it
# back (a later page-out finds room again).
# Budget: 7 s on 6.12, 7 s on 6.1 (make check, 2-vCPU TCG on a 2-core host);
# the limit is 25.7x the slowest.
TIMEOUT_full_device_fails_cleanly=180
test_full_device_fails_cleanly() {
	zram_swap 0 16M
	cs_load
	cs_set 1
	size=$(swap_size /dev/zram0)
	pageout_held 32 111 4 10 /tmp/full.out
	cat /tmp/full.out
	used=$(swap_used /dev/zram0)
	note "zram0 full: used ${used} KiB of ${size} KiB"
	[ "$used" -eq "$size" ] || fail "device not full: used $used of $size KiB"
	highest=$(awk '$1 == "highest_bit" {print $2}' $CSD/devices/0/summary)
	[ "$highest" = 0 ] || fail "full device still has highest_bit $highest"
	cs_stats_note device_full alloc.stock_fallback
	cs_check_ok "filling the device"
	wait $held_pid
	verifier_ok $? "on a full device"
	cat /tmp/full.out | tail -n 1
	used=$(swap_used /dev/zram0)
	note "after the frees: used ${used} KiB"
	$BIN/pageout -m 8 -s 112
	verifier_ok $? "after the device filled and emptied"
	cs_check_ok "the device coming back"
	cs_unload
}

# Zero-filled pages mixed with data pages come back intact (6.12 keeps a
# zero page as a zeromap bit and writes nothing), with the module on and with
# the switch flipping: through zram, and through a non-rotational virtio disk
# swapped on with discard, which the module serves too (clusters, discard of
# freed clusters).  A zeromap bit cleared for the wrong owner, or left for
# one, shows as a bad page.
# Budget: 56 s on 6.12, 54 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 7.5x the slowest.
TIMEOUT_zero_pages_stay_zero=420
DISK_zero_pages_stay_zero=384
BOOT_zero_pages_stay_zero=own
test_zero_pages_stay_zero() {
	zram_swap 0 512M
	cs_load
	cs_set 1
	memcg zero 64
	in_memcg zero $BIN/verifier -t 4 -m 128 -p 2 -z 3 -s 81
	verifier_ok $? "with zero pages through zram"
	cs_stats_note alloc.total alloc.fast freed
	cs_check_ok "zero pages through zram"
	swapoff /dev/zram0 || fail "swapoff zram0"

	virtio_disk
	echo 0 >/sys/block/vda/queue/rotational || fail "cannot mark the virtio disk non-rotational"
	[ "$(cat /sys/block/vda/queue/discard_max_bytes)" -gt 0 ] ||
		fail "the virtio disk offers no discard (QEMU drive without discard=unmap?)"
	mkswap /dev/vda >/dev/null || fail "mkswap vda"
	swapon --discard /dev/vda || fail "swapon --discard /dev/vda"
	a0=$(cs_stat alloc.total)
	in_memcg_bg zero $BIN/verifier -t 4 -m 128 -p 2 -d 600 -z 3 -s 82
	pid=$bg_pid
	sleep 3
	flip_for 10 50
	cs_set 1
	sleep 3
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "with zero pages through an SSD with discard, switch flipping"
	note "flipped the switch $flips times"
	cs_set 0
	in_memcg zero $BIN/verifier -t 4 -m 128 -p 2 -z 3 -s 83
	verifier_ok $? "with zero pages through an SSD with discard, module off"
	discards=$(awk '{print $12}' /sys/block/vda/stat)
	note "vda: $discards discard requests completed"
	[ "${discards:-0}" -gt 0 ] || fail "no discard reached the disk"
	cs_stats_note alloc.total alloc.fast alloc.stock_fallback freed
	[ "$(cs_stat alloc.total)" -gt "$a0" ] || fail "the module allocated nothing on the SSD"
	cs_check_ok "zero pages through an SSD with discard"
	cs_unload
}

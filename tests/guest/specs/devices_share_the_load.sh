# Four zram devices of equal priority share the load round robin, beside a
# swapfile on a virtio disk.  The virtio disk is rotational, so its swapfile
# has no clusters and stays with the stock allocator: first it waits at a
# lower priority, then it is put first and serves the load itself.  Every
# page comes back intact either way.
NEEDS_devices_share_the_load=allocator
# Budget: 69 s on 6.12, 67 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 5.8x the slowest.
TIMEOUT_devices_share_the_load=400
BOOT_devices_share_the_load=own
DISK_devices_share_the_load=320
test_devices_share_the_load() {
	[ -b /dev/vda ] || modprobe virtio_blk  # built in on the debug kernel
	i=0
	while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b /dev/vda ] || fail "no /dev/vda"
	note "vda rotational: $(cat /sys/block/vda/queue/rotational)"
	mkfs.ext4 -q /dev/vda || fail "mkfs.ext4 /dev/vda"
	mkdir -p /mnt/disk && mount /dev/vda /mnt/disk || fail "mount /dev/vda"
	dd if=/dev/zero of=/mnt/disk/swapfile bs=1M count=256 status=none || fail "dd swapfile"
	chmod 600 /mnt/disk/swapfile
	mkswap /mnt/disk/swapfile >/dev/null || fail "mkswap swapfile"
	for n in 0 1 2 3; do
		zram_swap $n 256M 10
	done
	swapon -p 1 /mnt/disk/swapfile || fail "swapon swapfile"
	cs_load
	cs_set 1
	memcg multi 96
	in_memcg_bg multi $BIN/verifier -t 4 -m 256 -p 2 -s 81
	peaks=$(swap_peaks $bg_pid /dev/zram0 /dev/zram1 /dev/zram2 /dev/zram3 /mnt/disk/swapfile)
	wait $bg_pid
	verifier_ok $? "on four zram devices"
	note "peak KiB in use: zram0..3, swapfile: $peaks"
	for n in 1 2 3 4; do
		[ "$(echo $peaks | cut -d' ' -f$n)" -gt 0 ] || fail "zram$((n - 1)) took no pages: no round robin"
	done
	cs_check_ok "four zram devices"

	swapoff /mnt/disk/swapfile || fail "swapoff swapfile"
	swapon -p 20 /mnt/disk/swapfile || fail "swapon swapfile first"
	fb0=$(cs_stat alloc.stock_fallback)
	in_memcg_bg multi $BIN/verifier -t 2 -m 192 -p 2 -s 82
	used=$(swap_peaks $bg_pid /mnt/disk/swapfile)
	wait $bg_pid
	verifier_ok $? "with the swapfile first"
	note "swapfile (first in line): peak ${used} KiB in use; stock fallbacks $(( $(cs_stat alloc.stock_fallback) - fb0 ))"
	[ "${used:-0}" -gt 0 ] || fail "the swapfile took no pages"
	cs_check_ok "a swapfile beside zram"
	swapoff /mnt/disk/swapfile || fail "swapoff swapfile"
	umount /mnt/disk
	cs_unload
}

# Hibernation with the module on: the kernel's test_resume mode writes the
# image to a swap disk (slot by slot, through get_swap_page_of_type) and
# restores it in the same boot.  A load whose pages are partly in swap runs
# across it and verifies every page after the resume, stock and with the
# module on; the time the image write took is printed for both, and debugfs
# check reads ok.
TIMEOUT_hibernate=600
DISK_hibernate=768
BOOT_hibernate=own
NEEDS_hibernate=allocator

# hibernate_run WHAT SEED
hibernate_run() {
	in_memcg_bg hib $BIN/verifier -t 2 -m 96 -p 2 -d 600 -s "$2"
	pid=$bg_pid
	sleep 5
	dmesg -C
	t0=$(date +%s%N)
	echo disk >/sys/power/state ||
		fail "hibernation ($1) failed: $(dmesg | grep -E 'PM:|hibernat' | tail -n 3 | tr '\n' ';')"
	ms=$((($(date +%s%N) - t0) / 1000000))
	note "$1: image write and restore took $ms ms; $(dmesg | grep -E 'Wrote|Read ' | tr '\n' ';')"
	dmesg | grep -q 'Wrote' || fail "no image was written ($1): $(dmesg | grep PM: | tail -n 5 | tr '\n' ';')"
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "across hibernation ($1)"
}

test_hibernate() {
	grep -q test_resume /sys/power/disk || fail "no test_resume hibernation mode: $(cat /sys/power/disk)"
	virtio_disk
	echo 0 >/sys/block/vda/queue/rotational || fail "cannot mark the virtio disk non-rotational"
	mkswap /dev/vda >/dev/null || fail "mkswap vda"
	swapon /dev/vda || fail "swapon vda"
	cat /sys/block/vda/dev >/sys/power/resume || fail "cannot make vda the resume device"
	echo test_resume >/sys/power/disk || fail "cannot select test_resume"
	echo 0 >/sys/power/image_size
	memcg hib 48
	cs_load
	hibernate_run stock 141
	cs_set 1
	hibernate_run clusterswap 142
	cs_stats_note alloc.total calls.get_swap_page_of_type freed
	cs_check_ok "hibernation"
	cs_unload
}

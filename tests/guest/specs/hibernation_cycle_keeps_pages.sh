# Hibernation with the module on: the kernel's test_resume mode writes the
# image to a swap disk (its slots from get_swap_page_of_type) and restores it
# in the same boot, first with the module loaded and off, then with it on.
# A load whose pages are partly on the same swap disk runs across both
# cycles and verifies every page after them; debugfs check reads ok at the
# end; the kernel's "Wrote ... in ... seconds" lines give the image write
# time of each cycle (measured: 147 MB in 1.18 s stock, 1.23 s module on).
#
# After a cycle the guest's 9p shares (its root and /job) are gone (9p's
# virtio transport has no freeze/restore), so from the first cycle on this
# test runs nothing from them: shell builtins only, output on the serial
# console, its verdict a "cs-result:" line there, then power-off.
TIMEOUT_hibernation_cycle_keeps_pages=600
DISK_hibernation_cycle_keeps_pages=1024
BOOT_hibernation_cycle_keeps_pages=own
NEEDS_hibernation_cycle_keeps_pages="allocator test_resume"
END_hibernation_cycle_keeps_pages=serial

# hib_verdict PASS|FAIL [reason]: report on the serial console and power off.
hib_verdict() {
	if [ "$1" = PASS ]; then
		echo "cs-result: PASS hibernation_cycle_keeps_pages"
	else
		shift
		echo "cs-result: FAIL hibernation_cycle_keeps_pages: $*"
	fi
	echo o >/proc/sysrq-trigger
	while :; do :; done
}

# hib_cycle WHAT: one test_resume cycle, timed from /proc/uptime.
hib_cycle() {
	read -r t0 _ </proc/uptime
	echo "cs-note: $1: hibernating (test_resume)"
	echo disk >/sys/power/state || hib_verdict FAIL "hibernation ($1) failed"
	read -r t1 _ </proc/uptime
	echo "cs-note: $1: image written and restored, $t0 s -> $t1 s of uptime"
}

test_hibernation_cycle_keeps_pages() {
	grep -q test_resume /sys/power/disk || fail "no test_resume hibernation mode: $(cat /sys/power/disk)"
	virtio_disk
	echo 0 >/sys/block/vda/queue/rotational || fail "cannot mark the virtio disk non-rotational"
	mkswap /dev/vda >/dev/null || fail "mkswap vda"
	swapon /dev/vda || fail "swapon vda"
	cat /sys/block/vda/dev >/sys/power/resume || fail "cannot make vda the resume device"
	echo test_resume >/sys/power/disk || fail "cannot select test_resume"
	cs_load
	memcg hib 48
	read -r taint0 </proc/sys/kernel/tainted
	# From here on: the serial console, every kernel message on it.
	echo 8 >/proc/sys/kernel/printk
	exec >/dev/console 2>&1
	echo "cs-mark: start hibernation_cycle_keeps_pages"
	# The verifier's text from tmpfs: its memcg reclaims page cache, and a
	# page of it read again from /job after a cycle would never come.
	cp $BIN/verifier /tmp/verifier || hib_verdict FAIL "cannot copy the verifier to tmpfs"
	in_memcg_bg hib /tmp/verifier -t 2 -m 96 -p 2 -d 900 -s 151
	pid=$bg_pid
	sleep 10
	hib_cycle stock
	echo 1 >$CS/enabled || hib_verdict FAIL "cannot switch the module on"
	hib_cycle clusterswap
	kill -USR1 $pid
	wait $pid
	rc=$?
	[ "$rc" = 0 ] || hib_verdict FAIL "the verifier exited $rc after the hibernation cycles"
	read -r check <$CSD/check
	[ "$check" = ok ] || hib_verdict FAIL "debugfs check after hibernation: $check"
	# The module's counters cannot show the image write: the restore brings
	# back memory as it was at the snapshot, before the write.  That the
	# write's slots come through the module is hibernation_slots_beside_load's.
	read -r taint1 </proc/sys/kernel/tainted
	[ $((taint1 & ~taint0 & ~12288)) = 0 ] || hib_verdict FAIL "kernel taint gained bits $((taint1 & ~taint0))"
	hib_verdict PASS
}

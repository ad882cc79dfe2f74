# A swapoff interrupted by a signal puts the device back in service, as
# stock does: a device the module filled (marked full, off the avail
# lists) and swapoff then emptied in part is back on the avail lists once
# swapoff gives up (highest_bit not 0, check ok), the next page-out finds
# slots on it, and every page verifies.
TIMEOUT_interrupted_swapoff_leaves_the_device_in_service=300
NEEDS_interrupted_swapoff_leaves_the_device_in_service=allocator

# summary_value KEY: a line of device 0's debugfs summary.
summary_value() {
	awk -v k="$1" '$1 == k {print $2}' "$CSD/devices/0/summary"
}

test_interrupted_swapoff_leaves_the_device_in_service() {
	zram_swap 0 256M
	cs_load
	cs_set 1
	size=$(swap_size /dev/zram0)
	$BIN/pageout -m 320 -a -w 90 -s 131 >/tmp/interrupted.out &
	pid=$!
	i=0
	while ! grep -q "paged out" /tmp/interrupted.out && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
	grep -q "paged out" /tmp/interrupted.out || fail "pageout did not page out within 120 s"
	[ "$(swap_used /dev/zram0)" -eq "$size" ] || fail "device not full: used $(swap_used /dev/zram0) of $size KiB"
	[ "$(summary_value highest_bit)" = 0 ] || fail "full device has highest_bit $(summary_value highest_bit)"
	swapoff /dev/zram0 &
	off=$!
	# Once swapoff has brought 1024 pages back in, interrupt it.
	i=0
	while [ "$(swap_used /dev/zram0)" -gt $((size - 4096)) ] && [ $i -lt 600 ]; do
		running $off || fail "swapoff ended before it could be interrupted"
		sleep 0.1
		i=$((i + 1))
	done
	# TERM, not INT: a non-interactive shell starts its background jobs
	# with SIGINT ignored.
	kill -TERM $off
	wait $off && fail "swapoff finished before the signal: a bigger device is needed here"
	grep -q '^/dev/zram0 ' /proc/swaps || fail "the device is gone after the interrupted swapoff"
	note "swapoff interrupted with $(swap_used /dev/zram0) of $size KiB in use (was full)"
	sleep 1		# a free's leaving-device work runs a tick after it
	[ "$(summary_value writeok)" = 1 ] || fail "device not writable after the interrupted swapoff"
	[ "$(summary_value highest_bit)" != 0 ] ||
		fail "device with $(swap_used /dev/zram0) of $size KiB in use still marked full after the interrupted swapoff"
	cs_check_ok "the interrupted swapoff"
	$BIN/pageout -m 16 -s 132
	verifier_ok $? "on the device back in service"
	wait $pid
	verifier_ok $? "through the interrupted swapoff"
	cs_check_ok "the device back in service"
	cs_unload
}

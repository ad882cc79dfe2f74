# A swapoff interrupted by a signal puts the device back in service, as
# stock does: a device the module filled (marked full, off the avail
# lists) and swapoff then emptied in part is back on the avail lists once
# swapoff gives up (highest_bit not 0, check ok), the next page-out finds
# slots on it, and every page verifies.
# Budget: 19 s on 6.12, 12 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 15.8x the slowest.
TIMEOUT_interrupted_swapoff_leaves_the_device_in_service=300
NEEDS_interrupted_swapoff_leaves_the_device_in_service=allocator

# rss_sum: the resident memory of the pageout processes ($pids), in KiB.
rss_sum() {
	_s=0
	for _p in $pids; do
		_s=$((_s + $(awk '$1 == "VmRSS:" {print $2}' "/proc/$_p/status")))
	done
	echo $_s
}

test_interrupted_swapoff_leaves_the_device_in_service() {
	zram_swap 0 256M
	cs_load
	cs_set 1
	size=$(swap_size /dev/zram0)
	# Eight processes: swapoff looks for a signal between one process's
	# memory and the next (6.1 only there), so one interrupted in the
	# middle stops with part of the device brought back in.  Each holds its
	# pages until told (SIGUSR1) below: a fixed hold ran out on the debug
	# kernel before the eighth had paged out, and the first ones' pages
	# came back in.  If the test fails, the runner kills them.
	pids=
	for n in 1 2 3 4 5 6 7 8; do
		pageout_held 40 $((130 + n)) 900 120 /tmp/interrupted.$n
		pids="$pids $held_pid"
	done
	[ "$(swap_used /dev/zram0)" -eq "$size" ] || fail "device not full: used $(swap_used /dev/zram0) of $size KiB"
	[ "$(summary_value highest_bit)" = 0 ] || fail "full device has highest_bit $(summary_value highest_bit)"
	rss0=$(rss_sum)
	swapoff /dev/zram0 &
	off=$!
	# Once swapoff has brought 16 MiB of pageout's pages back in, interrupt
	# it.  (Its "Used" in /proc/swaps is no gauge: on 6.1 it fell only near
	# the end, and a signal after the last page lets swapoff finish.)
	i=0
	while [ "$(rss_sum)" -lt $((rss0 + 16384)) ] && [ $i -lt 600 ]; do
		running $off || fail "swapoff ended before it could be interrupted"
		sleep 0.1
		i=$((i + 1))
	done
	# TERM, not INT: a non-interactive shell starts its background jobs
	# with SIGINT ignored.
	kill -TERM $off
	wait $off && fail "swapoff finished before the signal: a bigger device is needed here"
	grep -q '^/dev/zram0 ' /proc/swaps || fail "the device is gone after the interrupted swapoff"
	sleep 1		# a free's leaving-device work runs a tick after it
	note "swapoff interrupted with $(swap_used /dev/zram0) of $size KiB in use (was full), pageout's RSS up $(( $(rss_sum) - rss0 )) KiB"
	[ "$(summary_value writeok)" = 1 ] || fail "device not writable after the interrupted swapoff"
	[ "$(summary_value highest_bit)" != 0 ] ||
		fail "device with $(swap_used /dev/zram0) of $size KiB in use still marked full after the interrupted swapoff"
	cs_check_ok "the interrupted swapoff"
	# At least 16 MiB came free: 8 MiB must leave memory.
	$BIN/pageout -m 8 -s 132
	verifier_ok $? "on the device back in service"
	# Done with the held pages: each process verifies its own now.
	kill -USR1 $pids
	for p in $pids; do
		wait $p
		verifier_ok $? "through the interrupted swapoff"
	done
	cs_check_ok "the device back in service"
	cs_unload
}

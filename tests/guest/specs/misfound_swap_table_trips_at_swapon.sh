# A table of swap devices that is not the kernel's swap_info[] trips the
# module to stock at the next swapon, losing nothing; the kernel's own
# table never does.  Where kallsyms does not list swap_info (Debian's arm64
# 6.1) the module finds it from code, and its load-time check proves
# little before the first swapon, when every entry is NULL; every swapon
# and swapoff step checks the table again (devices 0 to n - 1, each at
# its own index, on 6.1 each what swp_swap_info() gives).
# In a boot of its own, so that no device was ever swapped on: the switch
# goes on before the first swapon (as enabled=1 in modprobe.d does at
# boot) without a trip, and a swapon then checks a table that now holds a
# device, without a trip (any trip fails a test: lib.sh BAD_LOG).  Then a
# test-only parameter makes the check read the table one entry off, as a
# table found a word off would be: with the switch on and a verifier
# paging through the first device, nothing trips until a swapon of a
# second device does, naming swap_info; the switch reads 0, and every page
# verifies.
# Budget: 17 s on 6.12, 24 s on 6.1, 36 s on 6.1 arm64 (2-vCPU TCG on a
# 2-core host); the limit is 6.7x the slowest.
TIMEOUT_misfound_swap_table_trips_at_swapon=240
NEEDS_misfound_swap_table_trips_at_swapon=allocator
BOOT_misfound_swap_table_trips_at_swapon=own
ALLOW_LOG_misfound_swap_table_trips_at_swapon='clusterswap: tripped to the stock allocator: swap_info: an entry.s device is of another type'

test_misfound_swap_table_trips_at_swapon() {
	[ -z "$(swapon --show --noheadings)" ] || fail "a swap device is on before the test"
	cs_load
	# The switch's take-over calls disable_swap_slots_cache_lock(), which
	# the module observes (counted), on 6.1 in a work item after an
	# RCU-tasks grace period: wait for it, then for the work it queued.
	calls0=$(cs_stat calls.disable_swap_slots_cache_lock)
	[ "$calls0" != missing ] || fail "no calls.disable_swap_slots_cache_lock in $CSD/stats"
	cs_set 1
	i=0
	while [ "$(cs_stat calls.disable_swap_slots_cache_lock)" = "$calls0" ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 200 ] || fail "the switch's take-over made no observed call in 20 s"
	sleep 1
	[ -z "$(cat $CS/tripped)" ] || fail "switching on before any swapon tripped: '$(cat $CS/tripped)'"
	zram_swap 0 512M 10
	wait_for "$CSD/devices/0"
	[ -z "$(cat $CS/tripped)" ] || fail "the first swapon tripped: '$(cat $CS/tripped)'"
	cs_set 0
	cs_unload

	cs_load assume_swap_info_skew=1
	cs_set 1
	memcg skew 64
	in_memcg_bg skew $BIN/verifier -t 2 -m 160 -p 2 -z 3 -d 600 -s 613
	pid=$bg_pid
	sleep 5
	[ -z "$(cat $CS/tripped)" ] || fail "tripped before the second swapon: '$(cat $CS/tripped)'"
	[ "$(cat $CS/enabled)" = 1 ] || fail "enabled reads $(cat $CS/enabled) before the second swapon"
	zram_swap 1 64M 1
	i=0
	while [ "$(cat $CS/enabled)" != 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(cat $CS/enabled)" = 0 ] || fail "enabled still reads 1 10 s after a swapon with the table read one entry off"
	why=$(cat $CS/tripped)
	note "tripped: $why"
	echo "$why" | grep -q "UTC: swap_info: an entry's device is of another type" ||
		fail "tripped reads '$why', want swap_info's device of another type"
	sleep 3
	running $pid || fail "the load ended before it was told to"
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "across the trip"
	cs_check_ok "the trip"
	cs_unload
}

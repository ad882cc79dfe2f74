# A table of swap devices that is not the kernel's swap_info[] trips the
# module to stock at the next swapon, losing nothing.  Where kallsyms does
# not list swap_info (Debian's arm64 6.1) the module finds it from code,
# and its load-time check proves little before the first swapon, when
# every entry is NULL; every swapon and swapoff step after it checks the
# table again (each device at its own index, at least one device).  A
# test-only parameter makes that check read one entry off, as a table
# found a word off would be: with the switch on and a verifier paging
# through a first device, a swapon of a second trips the module ("tripped"
# names swap_info), the switch reads 0, and every page verifies.  Then a
# load that reads the table where it was found swaps a third device on and
# off, the switch on, without a trip (any trip fails a test: lib.sh
# BAD_LOG).
# Budget: new; the limit is about 8x the similar
# inconsistency_trips_to_stock_losing_nothing's.
TIMEOUT_misfound_swap_table_trips_at_swapon=240
NEEDS_misfound_swap_table_trips_at_swapon=allocator
ALLOW_LOG_misfound_swap_table_trips_at_swapon='clusterswap: tripped to the stock allocator: swap_info: '

test_misfound_swap_table_trips_at_swapon() {
	zram_swap 0 512M 10
	cs_load assume_swap_info_skew=1
	[ -z "$(cat $CS/tripped)" ] || fail "tripped reads '$(cat $CS/tripped)' right after load"
	cs_set 1
	memcg skew 64
	in_memcg_bg skew $BIN/verifier -t 2 -m 160 -p 2 -z 3 -d 600 -s 613
	pid=$bg_pid
	sleep 5
	zram_swap 1 64M 1
	i=0
	while [ "$(cat $CS/enabled)" != 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(cat $CS/enabled)" = 0 ] || fail "enabled still reads 1 10 s after a swapon with the table read one entry off"
	why=$(cat $CS/tripped)
	note "tripped: $why"
	echo "$why" | grep -q 'UTC: swap_info: ' || fail "tripped reads '$why', want a reason naming swap_info"
	sleep 3
	running $pid || fail "the load ended before it was told to"
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "across the trip"
	cs_check_ok "the trip"
	cs_unload

	cs_load
	cs_set 1
	zram_swap 2 64M 1
	wait_for "$CSD/devices/2"
	swapoff /dev/zram2 || fail "swapoff zram2"
	wait_for "$CSD/devices/2" absent
	[ -z "$(cat $CS/tripped)" ] || fail "a load reading the table where it was found tripped: '$(cat $CS/tripped)'"
	cs_set 0
	cs_unload
}
